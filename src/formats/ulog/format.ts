/**
 * ULog format definitions (`F` messages): parsing `name:type field;type field;...`, the
 * size of each type (nested formats included) and the flattening of a format into the
 * channels the platform makes of it: arrays `field[i]`, nested types dotted
 * (`esc[0].rpm`), `char` and `char[N]` as one text field, `_padding*` and the top-level
 * `timestamp` left out, nesting guarded at 32 levels (a cyclic definition stops there).
 */

/** The primitive types of the ULog format and their sizes in bytes. */
export const PRIMITIVE_SIZES: Readonly<Record<string, number>> = {
  int8_t: 1,
  uint8_t: 1,
  int16_t: 2,
  uint16_t: 2,
  int32_t: 4,
  uint32_t: 4,
  int64_t: 8,
  uint64_t: 8,
  float: 4,
  double: 8,
  bool: 1,
  char: 1,
};

/** One field of a format: `float[3] xyz` is `{ type: 'float', arrayLength: 3, name: 'xyz' }`. */
export interface UlogFieldDef {
  type: string;
  arrayLength?: number;
  name: string;
}

/** One format definition: a message type and its fields in file order. */
export interface UlogFormat {
  name: string;
  fields: UlogFieldDef[];
}

/** How deep nested formats may go before a definition is taken as cyclic. */
export const MAX_NESTING = 32;

/**
 * Fields the subscribed messages of one log unroll to at most, every message and instance
 * together (nested arrays multiply: 32 levels of `[200]` are 200^32 fields in a few hundred
 * bytes of definitions). A real PX4 log has a few thousand.
 */
export const MAX_FIELDS = 100_000;

/**
 * Parses `type name` or `type[n] name`: split at the first space, as pyulog splits a key or
 * a field. The name is free text (info keys such as `perf_counter_preflight-03`, names
 * with `/`); the type is one word with an optional array length. Undefined when there is
 * no space, no name, or the type is not of that shape.
 */
export function parseFieldDef(text: string): UlogFieldDef | undefined {
  const trimmed = text.trim();
  const space = trimmed.search(/\s/);
  if (space <= 0) return undefined;
  const name = trimmed.slice(space + 1).trim();
  const m = /^([^\s[\]]+)(?:\[(\d{1,9})\])?$/.exec(trimmed.slice(0, space));
  if (!m || name === '') return undefined;
  const field: UlogFieldDef = { type: m[1] as string, name };
  if (m[2] !== undefined) field.arrayLength = Number(m[2]);
  return field;
}

/**
 * Parses a format message's text: the message name is what comes before the first `:`
 * (any characters, as pyulog reads it), then fields separated by `;`. Returns the format,
 * or a reason when there is no `:` or a field is not `type name` (pyulog drops such a
 * definition too).
 */
export function parseFormat(text: string): UlogFormat | { error: string } {
  const colon = text.indexOf(':');
  if (colon < 0) return { error: 'no ":" after the message name' };
  const name = text.slice(0, colon);
  const fields: UlogFieldDef[] = [];
  for (const part of text.slice(colon + 1).split(';')) {
    if (part.trim() === '') continue;
    const field = parseFieldDef(part);
    if (!field) return { error: `field '${part.slice(0, 60)}' is not 'type name'` };
    fields.push(field);
  }
  return { name, fields };
}

/** Sizes of formats already worked out, per set of formats (undefined: unknown or cyclic). */
const SIZES = new WeakMap<ReadonlyMap<string, UlogFormat>, Map<string, number | undefined>>();

/**
 * The size in bytes of one value of `type` (a primitive or a format), or undefined when a
 * type is unknown, or the nesting below it is cyclic or deeper than MAX_NESTING. Memoised
 * per set of formats, so shared nested types cost one walk.
 */
export function typeSize(
  type: string,
  formats: ReadonlyMap<string, UlogFormat>,
  seen: ReadonlySet<string> = new Set(),
): number | undefined {
  const primitive = PRIMITIVE_SIZES[type];
  if (primitive !== undefined) return primitive;
  let memo = SIZES.get(formats);
  if (!memo) {
    memo = new Map();
    SIZES.set(formats, memo);
  }
  if (memo.has(type)) return memo.get(type);
  const format = formats.get(type);
  if (!format || seen.has(type) || seen.size >= MAX_NESTING) return undefined;
  const inner = new Set(seen).add(type);
  let size: number | undefined = 0;
  for (const f of format.fields) {
    const one = typeSize(f.type, formats, inner);
    if (one === undefined) {
      size = undefined;
      break;
    }
    size += one * (f.arrayLength ?? 1);
  }
  if (seen.size === 0 || size !== undefined) memo.set(type, size);
  return size;
}

/**
 * The sizes a data message of a format may have after its msg_id: without the padding at
 * its end (a logger may leave it out: PX4's does, the format allows it) up to the whole
 * format; undefined when its size is unknown.
 */
export function messageSizes(
  format: UlogFormat,
  formats: ReadonlyMap<string, UlogFormat>,
): readonly [number, number] | undefined {
  const size = typeSize(format.name, formats);
  if (size === undefined) return undefined;
  let min = size;
  for (let i = format.fields.length - 1; i >= 0; i--) {
    const f = format.fields[i] as UlogFieldDef;
    if (!f.name.startsWith('_padding')) break;
    min -= (typeSize(f.type, formats) ?? 0) * (f.arrayLength ?? 1);
  }
  return [min, size];
}

/** The byte offset of a top-level primitive field in a message, if every field before it has a size. */
export function fieldOffset(
  format: UlogFormat,
  name: string,
  formats: ReadonlyMap<string, UlogFormat>,
): { offset: number; type: string } | undefined {
  let offset = 0;
  for (const f of format.fields) {
    if (f.name === name && f.arrayLength === undefined) return { offset, type: f.type };
    const one = typeSize(f.type, formats);
    if (one === undefined) return undefined;
    offset += one * (f.arrayLength ?? 1);
  }
  return undefined;
}

/** One channel a format makes: its field name as the platform writes it and its ULog type. */
export interface UlogLeaf {
  /** `x`, `accel[2]`, `esc[0].rpm`, `name` (a char array as one text field). */
  field: string;
  /** The primitive type; `char[N]` for text. */
  type: string;
  /** Byte offset in the message (after its msg_id); undefined when a field before has no size. */
  offset?: number;
}

/** What flattening left out or could not follow, for the profile's issues. */
export interface FlattenProblem {
  kind: 'unknown_type' | 'too_deep';
  field: string;
  type: string;
}

/**
 * The channels of a top-level format, in file order, at most `limit` fields visited
 * (array elements counted one by one, nested ones included): `capped` when it stopped there.
 */
export function flattenFormat(
  format: UlogFormat,
  formats: ReadonlyMap<string, UlogFormat>,
  limit = MAX_FIELDS,
): { leaves: UlogLeaf[]; problems: FlattenProblem[]; capped: boolean } {
  const out: Walk = { leaves: [], problems: [], left: limit, formats };
  walk(format, '', 0, out, 0);
  return { leaves: out.leaves, problems: out.problems, capped: out.left < 0 };
}

interface Walk {
  leaves: UlogLeaf[];
  problems: FlattenProblem[];
  /** Fields still to visit before the limit; below 0 once it is passed. */
  left: number;
  formats: ReadonlyMap<string, UlogFormat>;
}

/** A leaf, with its offset when known. */
function leafOf(field: string, type: string, offset: number | undefined): UlogLeaf {
  return offset === undefined ? { field, type } : { field, type, offset };
}

/** `char` or `char[N]`: one text field. */
function charType(f: UlogFieldDef): string {
  return f.arrayLength === undefined ? 'char' : `char[${f.arrayLength}]`;
}

/** True for the fields that are no channel: `_padding*` anywhere, the top-level `timestamp`. */
function notAChannel(f: UlogFieldDef, depth: number): boolean {
  return f.name.startsWith('_padding') || (depth === 0 && f.name === 'timestamp');
}

function walk(
  format: UlogFormat,
  prefix: string,
  depth: number,
  out: Walk,
  base: number | undefined,
): void {
  const { leaves, problems, formats } = out;
  let offset = base;
  for (const f of format.fields) {
    const at = offset;
    const one = typeSize(f.type, formats);
    offset = at === undefined || one === undefined ? undefined : at + one * (f.arrayLength ?? 1);
    out.left -= f.arrayLength ?? 1;
    if (out.left < 0) return;
    if (notAChannel(f, depth)) continue;
    const name = `${prefix}${f.name}`;
    if (f.type === 'char') {
      leaves.push(leafOf(name, charType(f), at));
      continue;
    }
    const step = (i: number) => (at === undefined || one === undefined ? undefined : at + i * one);
    const count = f.arrayLength ?? 1;
    const index = (i: number) => (f.arrayLength === undefined ? '' : `[${i}]`);
    if (PRIMITIVE_SIZES[f.type] !== undefined) {
      for (let i = 0; i < count; i++) leaves.push(leafOf(`${name}${index(i)}`, f.type, step(i)));
      continue;
    }
    const nested = formats.get(f.type);
    if (!nested) {
      problems.push({ kind: 'unknown_type', field: name, type: f.type });
      continue;
    }
    if (depth + 1 >= MAX_NESTING) {
      problems.push({ kind: 'too_deep', field: name, type: f.type });
      continue;
    }
    for (let i = 0; i < count && out.left >= 0; i++) {
      walk(nested, `${name}${index(i)}.`, depth + 1, out, step(i));
    }
  }
}

/**
 * The channel a field name names in a top-level format (`x`, `accel[2]`, `esc[0].rpm`, a
 * text field), with its type and offset, found by following the name through the format
 * rather than by unrolling it: the cost is the depth of the name, however many fields the
 * format unrolls to. Undefined when the format has no such channel.
 */
export function resolveField(
  format: UlogFormat,
  formats: ReadonlyMap<string, UlogFormat>,
  fieldName: string,
): UlogLeaf | undefined {
  return follow(format, formats, fieldName, 0, 0, 0);
}

/** `resolveField` from `pos` in the name, `depth` formats down, the format at `base`. */
function follow(
  format: UlogFormat,
  formats: ReadonlyMap<string, UlogFormat>,
  name: string,
  pos: number,
  depth: number,
  base: number | undefined,
): UlogLeaf | undefined {
  let offset: number | undefined = base;
  for (const f of format.fields) {
    const at: number | undefined = offset;
    const one = typeSize(f.type, formats);
    const count = f.arrayLength ?? 1;
    offset = at === undefined || one === undefined ? undefined : at + one * count;
    if (notAChannel(f, depth) || !name.startsWith(f.name, pos)) continue;
    const end = pos + f.name.length;
    if (f.type === 'char') {
      if (end === name.length) return leafOf(name, charType(f), at);
      continue;
    }
    const i = f.arrayLength === undefined ? 0 : indexAt(name, end);
    const after = f.arrayLength === undefined ? end : indexEnd;
    if (i < 0 || i >= count) continue;
    const here = at === undefined || one === undefined ? undefined : at + i * one;
    if (PRIMITIVE_SIZES[f.type] !== undefined) {
      if (after === name.length) return leafOf(name, f.type, here);
      continue;
    }
    const nested = formats.get(f.type);
    if (!nested || depth + 1 >= MAX_NESTING || name[after] !== '.') continue;
    const inner = follow(nested, formats, name, after + 1, depth + 1, here);
    if (inner) return inner;
  }
  return undefined;
}

/** Where the index `indexAt` read last ends in the name (set by each call). */
let indexEnd = 0;

/** `[i]` at `pos` in a name: the index (its end in `indexEnd`), or -1 when there is none. */
function indexAt(name: string, pos: number): number {
  indexEnd = pos;
  if (name.charCodeAt(pos) !== 91) return -1; // [
  let i = 0;
  let p = pos + 1;
  for (; p < name.length && p - pos <= 10; p++) {
    const d = name.charCodeAt(p) - 48;
    if (d < 0 || d > 9) break;
    i = i * 10 + d;
  }
  if (p === pos + 1 || name.charCodeAt(p) !== 93) return -1; // ]
  indexEnd = p + 1;
  return i;
}

/**
 * True when a format has a top-level field named `timestamp`, as the platform's client
 * tests it (by name: the format wants a `uint64_t`, and a reader takes the time from it).
 */
export function hasTimestamp(format: UlogFormat): boolean {
  return format.fields.some((f) => f.name === 'timestamp');
}
