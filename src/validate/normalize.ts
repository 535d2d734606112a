import {
  ENUMS,
  type EnumInfo,
  enumName,
  escapePointerToken,
  INT64_MAX,
  INT64_MIN,
  type Issue,
  issue,
  listSome,
  MAX_NESTING_DEPTH,
  setOwn,
  UINT64_MAX,
} from '../model/plain.js';
import { show } from './_issue.js';
import { deref, refName, type SchemaNode } from './_schema-walk.js';
import { DOCUMENT_SCHEMA } from './document-schema.js';
import { camelCase } from './suggest.js';

const DOCUMENT = DOCUMENT_SCHEMA;

/** Deeper than any config nests (the deepest real path is about 12 levels). */
export const MAX_DEPTH = MAX_NESTING_DEPTH;

/** What the normaliser needs to know of a place in the model. */
type Shape =
  | { t: 'object'; fields: Map<string, Shape>; order: string[]; bySnake: Map<string, string> }
  | { t: 'array'; item: Shape }
  | { t: 'record'; value: Shape }
  | { t: 'enum'; info: EnumInfo; names: ReadonlySet<string> }
  | { t: 'int64' | 'uint64' | 'number' | 'leaf' };

const shapes = new Map<SchemaNode, Shape>();

/**
 * Reads the committed JSON Schema of the document (generated from the zod model) into the
 * small tree the normaliser walks, once per schema node: validation never loads zod.
 */
function shapeOf(node: SchemaNode): Shape {
  const name = refName(node);
  if (name === 'Uint64String') return { t: 'uint64' };
  if (name === 'Int64String') return { t: 'int64' };
  const schema = deref(DOCUMENT, node);
  const known = shapes.get(schema);
  if (known) return known;
  let out: Shape = { t: 'leaf' };
  const props = schema.properties as Record<string, SchemaNode> | undefined;
  const extra = schema.additionalProperties;
  if (props) {
    const fields = new Map<string, Shape>();
    const bySnake = new Map<string, string>();
    const obj: Shape = { t: 'object', fields, order: [], bySnake };
    shapes.set(schema, obj);
    for (const [k, v] of Object.entries(props)) {
      fields.set(k, shapeOf(v));
      obj.order.push(k);
      const snake = k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
      if (snake !== k) bySnake.set(snake, k);
    }
    return obj;
  }
  if (typeof extra === 'object' && extra !== null) {
    out = { t: 'record', value: shapeOf(extra as SchemaNode) };
  } else if (typeof schema.items === 'object' && schema.items !== null) {
    out = { t: 'array', item: shapeOf(schema.items as SchemaNode) };
  } else if (Array.isArray(schema.enum)) {
    const values = schema.enum as unknown[];
    const info = Object.values(ENUMS).find(
      (e) => e.values.length === values.length && e.values.every((v, i) => v === values[i]),
    );
    if (info) out = { t: 'enum', info, names: new Set(info.values) };
  } else if (schema.type === 'number' || schema.type === 'integer') {
    out = { t: 'number' };
  }
  shapes.set(schema, out);
  return out;
}

/**
 * Keys that name JavaScript's object machinery. No config has them; in plain assignment
 * `__proto__` would replace the prototype and hide what it holds from every later
 * check, so each is reported (`unknown_key`) wherever a field name is expected, and kept
 * as an own key. A map's keys (a batch's member paths) are data, not field names: any of
 * them is kept as it is, unreported.
 */
const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

function reportReserved(key: string, path: string, issues: Issue[]): void {
  if (!RESERVED_KEYS.has(key)) return;
  issues.push(
    issue(
      'unknown_key',
      `${path}/${escapePointerToken(key)}`,
      `Unknown key ${show(key)}: it is no config field, and some JSON readers would take it for the object's prototype.`,
      'Remove the key; move what it holds up one level if it was meant there.',
    ),
  );
}

export interface Normalized {
  value: unknown;
  issues: Issue[];
}

/**
 * Brings input to the canonical form before the shape check: snake_case keys the model
 * knows become camelCase, 64-bit integers given as numbers become decimal strings, enum
 * numbers become names, short or other-case enum names become full names (reported as
 * `enum_short_name`: the platform accepts only full names). Known keys come out in the
 * model's order; unknown keys are kept (the shape check reports them), nothing is dropped.
 */
export function normalizeDocument(input: unknown): Normalized {
  const issues: Issue[] = [];
  const value = walk(input, shapeOf(DOCUMENT), '', 0, issues);
  return { value, issues };
}

function walk(value: unknown, shape: Shape, path: string, depth: number, issues: Issue[]): unknown {
  if (depth > MAX_DEPTH) {
    issues.push(
      issue('nesting_too_deep', path, `The document nests more than ${MAX_DEPTH} levels deep.`),
    );
    return null;
  }
  switch (shape.t) {
    case 'object':
      return isPlainObject(value)
        ? walkObject(value, shape, path, depth, issues)
        : plain(value, path, depth, issues);
    case 'array':
      return Array.isArray(value)
        ? value.map((v, i) => walk(v, shape.item, `${path}/${i}`, depth + 1, issues))
        : plain(value, path, depth, issues);
    case 'record': {
      if (!isPlainObject(value)) return plain(value, path, depth, issues);
      // A map's keys are data (archive member paths, column numbers): any name is one.
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        setOwn(out, k, walk(v, shape.value, `${path}/${escapePointerToken(k)}`, depth + 1, issues));
      }
      return out;
    }
    case 'enum':
      return enumValue(value, shape.info, shape.names, path, issues);
    case 'int64':
    case 'uint64':
      return int64Value(value, shape.t === 'uint64', path, issues);
    default:
      return plain(value, path, depth, issues);
  }
}

function walkObject(
  value: Record<string, unknown>,
  shape: Extract<Shape, { t: 'object' }>,
  path: string,
  depth: number,
  issues: Issue[],
): Record<string, unknown> {
  const known = new Map<string, unknown>();
  const unknown: Array<[string, unknown]> = [];
  for (const [key, v] of Object.entries(value)) {
    let name = key;
    if (!shape.fields.has(key)) {
      const camel = shape.bySnake.get(key) ?? camelCase(key);
      if (camel !== key && shape.fields.has(camel)) name = camel;
    }
    const field = RESERVED_KEYS.has(key) ? undefined : shape.fields.get(name);
    if (!field) {
      reportReserved(key, path, issues);
      unknown.push([key, plain(v, `${path}/${escapePointerToken(key)}`, depth + 1, issues)]);
      continue;
    }
    if (name !== key && Object.hasOwn(value, name)) {
      issues.push(
        issue(
          'key_given_twice',
          `${path}/${escapePointerToken(name)}`,
          `"${name}" is given twice, as "${key}" and as "${name}".`,
          `Remove "${key}"; camelCase is the canonical spelling.`,
        ),
      );
      continue;
    }
    known.set(name, walk(v, field, `${path}/${escapePointerToken(name)}`, depth + 1, issues));
  }
  const out: Record<string, unknown> = {};
  for (const name of shape.order) if (known.has(name)) out[name] = known.get(name);
  for (const [k, v] of unknown) setOwn(out, k, v);
  return out;
}

function enumValue(
  value: unknown,
  info: EnumInfo,
  names: ReadonlySet<string>,
  path: string,
  issues: Issue[],
): unknown {
  if (typeof value === 'string') {
    if (names.has(value)) return value;
    const full = fullEnumName(value, info);
    if (full) {
      issues.push(
        issue(
          'enum_short_name',
          path,
          `${show(value)} is not a name the platform accepts for ${info.name}.`,
          `Write ${full} (\`importkit fmt\` rewrites it).`,
        ),
      );
      return full;
    }
    return value;
  }
  if (typeof value === 'number' || typeof value === 'bigint') {
    const n = Number(value);
    const i = info.numbers.indexOf(n);
    const name = i >= 0 ? info.values[i] : undefined;
    if (name !== undefined) return name;
    issues.push(
      issue(
        'invalid_enum_value',
        path,
        `${n} is not a number of ${info.name}.`,
        `Use one of: ${listSome(info.values, info.values.length)}.`,
      ),
    );
    return n;
  }
  return plain(value, path, 0, issues);
}

/**
 * The full name of `info`'s enumeration meant by `value`: `DOUBLE`, `double`,
 * `channel_data_type_double`, `Double` or its number → the full name; else undefined.
 * `importkit fmt` rewrites with the same reading, so fmt and lint agree.
 */
export function fullEnumName(value: unknown, info: EnumInfo): string | undefined {
  if (typeof value === 'number') {
    const i = info.numbers.indexOf(value);
    return i === -1 ? undefined : info.values[i];
  }
  if (typeof value !== 'string') return undefined;
  return enumName(value, info.prefix, info.values);
}

function int64Value(value: unknown, unsigned: boolean, path: string, issues: Issue[]): unknown {
  let s: string | undefined;
  if (typeof value === 'bigint') s = value.toString();
  else if (typeof value === 'number' && Number.isInteger(value)) s = BigInt(value).toString();
  else if (typeof value === 'string') s = value;
  if (s !== undefined) {
    // The pattern in the JSON Schema checks the digits; the bounds need big integers.
    const n = /^-?(0|[1-9][0-9]*)$/.test(s) ? BigInt(s) : undefined;
    const [min, max] = unsigned ? [0n, UINT64_MAX] : [INT64_MIN, INT64_MAX];
    if (n !== undefined && (n > max || (n < min && !unsigned))) {
      issues.push(
        issue(
          'value_out_of_range',
          path,
          `${s} is out of range for ${unsigned ? 'uint64' : 'int64'} (${min} to ${max}).`,
        ),
      );
    }
    return s;
  }
  if (typeof value === 'number') {
    if (Number.isFinite(value)) {
      issues.push(
        issue(
          'not_an_integer',
          path,
          `${value} is not a whole number.`,
          'Write a whole number; 64-bit fields take a decimal string such as "1024".',
        ),
      );
    }
    return value;
  }
  return value;
}

/** Any other value: bigints become numbers (the shape check then checks ranges). */
function plain(value: unknown, path: string, depth: number, issues: Issue[]): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_DEPTH) {
    issues.push(
      issue('nesting_too_deep', path, `The document nests more than ${MAX_DEPTH} levels deep.`),
    );
    return null;
  }
  if (Array.isArray(value)) return value.map((v, i) => plain(v, `${path}/${i}`, depth + 1, issues));
  if (value instanceof Date) return value.toISOString();
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    reportReserved(k, path, issues);
    setOwn(out, k, plain(v, `${path}/${escapePointerToken(k)}`, depth + 1, issues));
  }
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}
