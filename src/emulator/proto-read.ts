/**
 * Request bodies read as protobuf's JSON reader reads them (protojson, behind the standard
 * gRPC-to-JSON gateway, which discards unknown fields): every route's body goes through
 * `readMessage`. It accepts what that reader accepts and normalises it: field names in
 * lowerCamelCase or as the proto writes them (`csv_config`), enum names or numbers
 * (`dataType: 5`), 32- and 64-bit integers as numbers or quoted (`firstDataRow: "2"`),
 * `null` for a field left at its default, RFC 3339 Timestamps (stored in UTC, `Z`), and
 * FieldMasks in either case. It refuses what that reader refuses, with a 400 and code 3
 * naming the field: a wrong JSON type, a bad timestamp, two members of one oneof. What the
 * gateway drops (an unknown field, an unknown enum name) is dropped here too, and named in
 * `dropped` so the emulator can log it, or refuse it in strict mode.
 *
 * Written by hand: no npm package reads protobuf JSON from a zod model, and protobufjs would
 * need a second definition of every message.
 */
import { toSnakePath } from '../model/plain.js';
import { invalid } from './http.js';
import type { Field, IntKind, Kind, Message } from './proto-shape.js';

/** A value the gateway would silently drop: where, and why. */
export interface Dropped {
  path: string;
  why: string;
}

export interface ReadResult {
  value: Record<string, unknown>;
  dropped: Dropped[];
}

const BOUNDS: Record<IntKind, [bigint, bigint]> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
};

/** Reads `input` as `message`; `path` names it in messages (`run`, `csvConfig`). */
export function readMessage(message: Message, input: unknown, path = ''): ReadResult {
  const dropped: Dropped[] = [];
  const value = readObject(message, input, path, dropped);
  return { value, dropped };
}

const at = (path: string, name: string) => (path ? `${path}.${name}` : name);

function fail(path: string, what: string): never {
  throw invalid(`invalid value for ${path || 'the body'}: ${what}`, path || undefined);
}

function readObject(
  message: Message,
  input: unknown,
  path: string,
  dropped: Dropped[],
): Record<string, unknown> {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    fail(path, `expected an object, found ${describe(input)}`);
  const out: Record<string, unknown> = {};
  const seen = new Map<Field, string>();
  for (const [key, raw] of Object.entries(input)) {
    const field = Object.hasOwn(Object.prototype, key) ? undefined : message.byName.get(key);
    if (!field) {
      dropped.push({ path: at(path, key), why: 'an unknown field' });
      continue;
    }
    const where = at(path, field.name);
    const twice = seen.get(field);
    if (twice !== undefined)
      throw invalid(`${where} is given twice (as '${twice}' and as '${key}')`, where);
    seen.set(field, key);
    if (raw === null) continue;
    const value = readKind(field.kind, raw, where, dropped);
    if (value !== undefined) out[field.name] = value;
  }
  for (const group of message.oneofs) {
    const set = group.filter((name) => out[name] !== undefined);
    if (set.length > 1) {
      const where = at(path, set[1] ?? '');
      throw invalid(
        `${where}: a oneof field is already set (${set.map((n) => at(path, n)).join(' and ')}: give one of ${group.join(', ')})`,
        where,
      );
    }
  }
  return out;
}

function readKind(kind: Kind, raw: unknown, path: string, dropped: Dropped[]): unknown {
  switch (kind.k) {
    case 'string':
      return typeof raw === 'string'
        ? raw
        : fail(path, `expected a string, found ${describe(raw)}`);
    case 'bool':
      return typeof raw === 'boolean'
        ? raw
        : fail(path, `expected true or false, found ${describe(raw)}`);
    case 'double':
      return readDouble(raw, path);
    case 'int32':
    case 'uint32':
    case 'int64':
    case 'uint64':
      return readInt(kind.k, raw, path);
    case 'enum':
      return readEnum(kind, raw, path, dropped);
    case 'timestamp':
      return readTimestamp(raw, path);
    case 'fieldmask':
      return typeof raw === 'string'
        ? readFieldMask(raw).join(',')
        : fail(path, `expected a field mask string, found ${describe(raw)}`);
    case 'message':
      return readObject(kind.message, raw, path, dropped);
    case 'list':
      if (!Array.isArray(raw)) fail(path, `expected a list, found ${describe(raw)}`);
      return raw.map((item, i) => {
        if (item === null) fail(`${path}[${i}]`, 'a list cannot hold null');
        return readKind(kind.item, item, `${path}[${i}]`, dropped);
      });
    case 'map':
      return readMap(kind, raw, path, dropped);
    default:
      return raw;
  }
}

function readMap(
  kind: Extract<Kind, { k: 'map' }>,
  raw: unknown,
  path: string,
  dropped: Dropped[],
): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    fail(path, `expected an object (a map), found ${describe(raw)}`);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const where = `${path}['${key}']`;
    const k = kind.key === 'uint32' ? String(readInt('uint32', key, `${path} key`)) : key;
    if (value === null) fail(where, 'a map value cannot be null');
    if (Object.hasOwn(out, k)) throw invalid(`${path} names key ${k} twice`, path);
    Object.defineProperty(out, k, {
      value: readKind(kind.value, value, where, dropped),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${JSON.stringify(v)}`;
}

/** A JSON number, or a string holding one (no spaces around it), as protojson reads them. */
function numberText(raw: unknown): string | undefined {
  if (typeof raw === 'number') return Number.isFinite(raw) ? String(raw) : undefined;
  if (typeof raw !== 'string') return undefined;
  return /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(raw) ? raw : undefined;
}

function readInt(kind: IntKind, raw: unknown, path: string): number | string {
  const text = numberText(raw);
  const [min, max] = BOUNDS[kind];
  const n = text === undefined ? undefined : integerOf(text);
  if (n === undefined)
    fail(
      path,
      `expected a whole number (${kind}), written as a number or quoted, found ${describe(raw)}`,
    );
  if (n < min || n > max) fail(path, `${n} is out of range for ${kind} (${min} to ${max})`);
  return kind === 'int64' || kind === 'uint64' ? n.toString() : Number(n);
}

/** `12`, `"12"`, `1.2e1` → 12n; a fraction or a huge exponent → undefined. */
function integerOf(text: string): bigint | undefined {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) return undefined;
  const [, sign = '', whole = '', frac = '', expText = '0'] = m;
  const exp = Number(expText) - frac.length;
  if (exp > 40) return undefined;
  const digits = `${whole}${frac}`;
  let n: bigint;
  if (exp >= 0) n = BigInt(digits) * 10n ** BigInt(exp);
  else {
    const cut = digits.length + exp;
    if (/[1-9]/.test(digits.slice(Math.max(0, cut)))) return undefined;
    n = cut > 0 ? BigInt(digits.slice(0, cut)) : 0n;
  }
  return sign === '-' ? -n : n;
}

function readDouble(raw: unknown, path: string): number | string {
  if (raw === 'NaN' || raw === 'Infinity' || raw === '-Infinity') return raw;
  const text = numberText(raw);
  if (text === undefined) fail(path, `expected a number, found ${describe(raw)}`);
  const n = Number(text);
  if (!Number.isFinite(n)) fail(path, `${text} is out of range for a double`);
  return n;
}

function readEnum(
  kind: Extract<Kind, { k: 'enum' }>,
  raw: unknown,
  path: string,
  dropped: Dropped[],
): string | number | undefined {
  const info = kind.info;
  if (typeof raw === 'string') {
    if (!info || info.values.includes(raw)) return raw;
    dropped.push({ path, why: `an unknown enum name '${raw}'` });
    return undefined;
  }
  if (typeof raw === 'number' && Number.isInteger(raw)) {
    if (raw < -(2 ** 31) || raw >= 2 ** 31) fail(path, `${raw} is out of range for an enum`);
    const i = info ? info.numbers.indexOf(raw) : -1;
    // An enum number the proto does not name is kept as a number (proto3 enums are open).
    return info && i >= 0 ? info.values[i] : raw;
  }
  return fail(path, `expected an enum name or number, found ${describe(raw)}`);
}

const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

function readTimestamp(raw: unknown, path: string): string {
  if (typeof raw !== 'string') fail(path, `expected an RFC 3339 timestamp, found ${describe(raw)}`);
  const t = normalizeTimestamp(raw);
  if (t === undefined)
    fail(
      path,
      `'${raw}' is not an RFC 3339 timestamp (such as 2024-01-01T00:00:00Z, years 0001 to 9999)`,
    );
  return t;
}

/**
 * An RFC 3339 timestamp in the form protobuf's JSON writer gives it: UTC, `Z`, and 0, 3, 6
 * or 9 fractional digits (`2024-01-01T02:00:00.5+02:00` → `2024-01-01T00:00:00.500Z`);
 * undefined when the text is not one, or lies outside years 0001 to 9999.
 */
export function normalizeTimestamp(text: string): string | undefined {
  const m = TIMESTAMP.exec(text);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const frac = m[7] ?? '';
  const offset = m[8] ? 0 : (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
  if (m[10] !== undefined && (Number(m[10]) > 23 || Number(m[11]) > 59)) return undefined;
  const local = new Date(0);
  local.setUTCFullYear(y, mo - 1, d);
  local.setUTCHours(h, mi, s, 0);
  const same =
    local.getUTCFullYear() === y &&
    local.getUTCMonth() === mo - 1 &&
    local.getUTCDate() === d &&
    local.getUTCHours() === h &&
    local.getUTCMinutes() === mi &&
    local.getUTCSeconds() === s;
  if (!same) return undefined;
  const utc = new Date(local.getTime() - offset * 60_000);
  const year = utc.getUTCFullYear();
  if (year < 1 || year > 9999) return undefined;
  return `${utc.toISOString().slice(0, 19)}${fraction(frac)}Z`;
}

/** Fractional seconds as protojson writes them: none, or 3, 6 or 9 digits. */
function fraction(digits: string): string {
  const trimmed = digits.replace(/0+$/, '');
  if (trimmed === '') return '';
  const width = trimmed.length <= 3 ? 3 : trimmed.length <= 6 ? 6 : 9;
  return `.${trimmed.padEnd(width, '0')}`;
}

/** A FieldMask's paths in snake_case, given in either case (`isPinned`, `is_pinned`). */
export function readFieldMask(text: string): string[] {
  return text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map(toSnakePath);
}
