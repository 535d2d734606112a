/**
 * Answers written as protobuf's JSON writer writes them behind the standard gRPC-to-JSON
 * gateway (protojson with EmitUnpopulated, the gateway's default): every route's answer
 * goes through `writeMessage`. Enums by name (a number the proto does not name stays a
 * number), 64-bit integers as decimal strings, Timestamps in UTC with `Z` and 0, 3, 6 or 9
 * fractional digits. One rule for unpopulated fields, everywhere: a field without a value
 * is written with its default (`""`, `0`, `"0"`, `false`, the enum's zero name, `[]`, `{}`,
 * `null` for a message), except a field with explicit presence (proto3 `optional` or a
 * member of a oneof), which is left out. Fields the model does not know are never written.
 */
import { normalizeTimestamp } from './proto-read.js';
import type { Kind, Message } from './proto-shape.js';

/** `value` (a stored resource) as the platform answers it. */
export function writeMessage(message: Message, value: unknown): Record<string, unknown> {
  const v = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of message.fields) {
    const given = Object.hasOwn(v, field.name) ? v[field.name] : undefined;
    if (given === undefined || given === null) {
      if (!field.presence) out[field.name] = zeroOf(field.kind);
      continue;
    }
    out[field.name] = writeKind(field.kind, given);
  }
  return out;
}

function zeroOf(kind: Kind): unknown {
  switch (kind.k) {
    case 'string':
    case 'fieldmask':
      return '';
    case 'bool':
      return false;
    case 'double':
    case 'int32':
    case 'uint32':
      return 0;
    case 'int64':
    case 'uint64':
      return '0';
    case 'enum':
      return kind.zero;
    case 'list':
      return [];
    case 'map':
      return {};
    default:
      return null;
  }
}

function writeKind(kind: Kind, v: unknown): unknown {
  switch (kind.k) {
    case 'int64':
    case 'uint64':
      return typeof v === 'number' || typeof v === 'bigint' ? BigInt(v).toString() : v;
    case 'int32':
    case 'uint32':
      return typeof v === 'string' && v !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
    case 'enum': {
      const i = typeof v === 'number' && kind.info ? kind.info.numbers.indexOf(v) : -1;
      return i >= 0 ? kind.info?.values[i] : v;
    }
    case 'timestamp':
      return typeof v === 'string' ? (normalizeTimestamp(v) ?? v) : v;
    case 'message':
      return writeMessage(kind.message, v);
    case 'list':
      return Array.isArray(v) ? v.map((item) => writeKind(kind.item, item)) : [];
    case 'map': {
      if (typeof v !== 'object' || v === null) return {};
      const out: Record<string, unknown> = {};
      for (const [k, item] of Object.entries(v)) {
        Object.defineProperty(out, k, {
          value: writeKind(kind.value, item),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    default:
      return v;
  }
}
