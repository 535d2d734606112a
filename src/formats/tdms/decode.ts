/**
 * TDMS raw values decoded from bytes: numbers as doubles (for drawing: timestamps as ms
 * since 1970, bools 0/1, 64-bit integers rounded, one component of complex values), or as
 * the typed array of the stored type (for judging: 64-bit integers exact as bigints, bool
 * bytes as they are, timestamps as ns since 1970); strings from a chunk's end offsets and
 * text, the offsets checked against the chunk first.
 */
import type { TypedNumbers } from '../../values/index.js';
import { TDMS_EPOCH_OFFSET } from './types.js';

export type TdmsTypedValues = TypedNumbers;

/** Values as a reader hands them over: numbers (doubles or the stored type) or text. */
export type TdmsValues = TdmsTypedValues | string[];

/** Where `n` values lie in a buffer: the first's byte, the bytes from one to the next. */
export interface Run {
  start: number;
  n: number;
  stride: number;
}

export interface ValueType {
  code: number;
  /** Bytes of a value. */
  size: number;
  /** Complex values: the part read (`imaginary`: the second). */
  imaginary: boolean;
  little: boolean;
}

type TypedCtor = new (n: number) => TdmsTypedValues;

/** The typed array each stored type decodes into (complex: its component's). */
const TYPED: ReadonlyMap<number, TypedCtor> = new Map<number, TypedCtor>([
  [0x01, Int8Array],
  [0x02, Int16Array],
  [0x03, Int32Array],
  [0x04, BigInt64Array],
  [0x05, Uint8Array],
  [0x06, Uint16Array],
  [0x07, Uint32Array],
  [0x08, BigUint64Array],
  [0x09, Float32Array],
  [0x0a, Float64Array],
  [0x19, Float32Array],
  [0x1a, Float64Array],
  [0x21, Uint8Array],
  [0x44, BigInt64Array],
  [0x08000c, Float32Array],
  [0x10000d, Float64Array],
]);

/** Whether values of a type code can be decoded (extended floats, fixed point cannot). */
export function decodable(code: number): boolean {
  return TYPED.has(code);
}

/**
 * One buffer that each decode of a read writes its values into in turn, for values that are
 * gone when the next are decoded (the check's tallies take what they need at once). A new
 * typed array a decode cost a zeroed allocation the kernel maps page by page: in worker
 * threads, which share the process's memory map, that made a TDMS check on two threads take
 * 35 to 40% more CPU than on one.
 */
export class Scratch {
  #buffer = new ArrayBuffer(0);

  /** `n` values of `Ctor` at the start of the buffer, grown (doubled) when too small. */
  take(Ctor: TypedCtor, n: number): TdmsTypedValues {
    const size = (Ctor as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
    if (this.#buffer.byteLength < n * size) {
      this.#buffer = new ArrayBuffer(Math.max(n * size, 2 * this.#buffer.byteLength));
    }
    return new (Ctor as unknown as TypedView)(this.#buffer, 0, n);
  }
}

/**
 * Decodes runs of values of one type from `bytes` as the stored type's typed array: a new
 * one, or one written into `scratch` (valid until its next decode), or a view of `bytes`.
 */
export function typedValues(
  bytes: Uint8Array,
  runs: readonly Run[],
  type: ValueType,
  scratch?: Scratch,
) {
  const n = runs.reduce((s, r) => s + r.n, 0);
  const Ctor = TYPED.get(type.code) as TypedCtor;
  const view = wholeView(bytes, runs, type, Ctor);
  if (view) return view;
  const out = scratch ? scratch.take(Ctor, n) : new Ctor(n);
  if (type.code === 0x44) {
    timestampsNs(bytes, runs, type.little, out as BigInt64Array);
    return out;
  }
  const complex = type.code === 0x08000c || type.code === 0x10000d;
  const size = complex ? type.size / 2 : type.size;
  const shift = complex && type.imaginary ? size : 0;
  const dst = new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  let k = 0;
  for (const r of runs) {
    // Stored as the platform stores typed arrays (little-endian, packed): one copy.
    if (type.little && r.stride === size && shift === 0) {
      dst.set(bytes.subarray(r.start, r.start + r.n * size), k);
      k += r.n * size;
      continue;
    }
    for (let i = 0; i < r.n; i++) {
      const at = r.start + i * r.stride + shift;
      if (type.little) for (let b = 0; b < size; b++) dst[k + b] = bytes[at + b] as number;
      else for (let b = 0; b < size; b++) dst[k + b] = bytes[at + size - 1 - b] as number;
      k += size;
    }
  }
  return out;
}

type TypedView = new (
  buffer: ArrayBufferLike,
  byteOffset: number,
  length: number,
) => TdmsTypedValues;

/**
 * The values as a view of `bytes`, not a copy, when `bytes` holds exactly them, packed,
 * little-endian and aligned (a large chunk's values read apart): the view keeps nothing else
 * alive.
 */
function wholeView(
  bytes: Uint8Array,
  runs: readonly Run[],
  type: ValueType,
  Ctor: TypedCtor,
): TdmsTypedValues | undefined {
  const [run] = runs;
  const size = (Ctor as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
  if (runs.length !== 1 || !run || !type.little || type.code === 0x44) return undefined;
  if (size !== type.size || run.start !== 0 || run.stride !== size) return undefined;
  if (bytes.byteLength !== run.n * size || bytes.byteOffset % size !== 0) return undefined;
  return new (Ctor as unknown as TypedView)(bytes.buffer, bytes.byteOffset, run.n);
}

type Decode = (v: DataView, at: number, little: boolean) => number;

/** Decodes runs of values as doubles, as a chart draws them. */
export function numberValues(bytes: Uint8Array, runs: readonly Run[], type: ValueType) {
  const n = runs.reduce((s, r) => s + r.n, 0);
  if (type.code === 0x0a || type.code === 0x1a) {
    return typedValues(bytes, runs, type) as Float64Array;
  }
  const out = new Float64Array(n);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const decode = decoderOf(type.code, type.imaginary);
  let k = 0;
  for (const r of runs) {
    for (let i = 0; i < r.n; i++) out[k++] = decode(view, r.start + i * r.stride, type.little);
  }
  return out;
}

/** How a value of a type code becomes a double. */
function decoderOf(code: number, imaginary: boolean): Decode {
  switch (code) {
    case 0x01:
      return (v, at) => v.getInt8(at);
    case 0x02:
      return (v, at, l) => v.getInt16(at, l);
    case 0x03:
      return (v, at, l) => v.getInt32(at, l);
    case 0x04:
      return (v, at, l) => Number(v.getBigInt64(at, l));
    case 0x05:
      return (v, at) => v.getUint8(at);
    case 0x06:
      return (v, at, l) => v.getUint16(at, l);
    case 0x07:
      return (v, at, l) => v.getUint32(at, l);
    case 0x08:
      return (v, at, l) => Number(v.getBigUint64(at, l));
    case 0x09:
    case 0x19:
      return (v, at, l) => v.getFloat32(at, l);
    case 0x21:
      return (v, at) => (v.getUint8(at) === 0 ? 0 : 1);
    case 0x44:
      return timestampMs;
    case 0x08000c:
      return (v, at, l) => v.getFloat32(at + (imaginary ? 4 : 0), l);
    case 0x10000d:
      return (v, at, l) => v.getFloat64(at + (imaginary ? 8 : 0), l);
    default:
      return () => Number.NaN;
  }
}

const HALF = 1n << 63n;

/**
 * A TDMS timestamp (fractions of 2^-64 s, then seconds since 1904; big-endian: the seconds
 * first) as ms since 1970, the fraction rounded to the nearest ns first (so .1 s reads as
 * 100 ms, not 99.999...).
 */
function timestampMs(v: DataView, at: number, little: boolean): number {
  const fraction = little ? v.getBigUint64(at, true) : v.getBigUint64(at + 8, false);
  const seconds = little ? v.getBigInt64(at + 8, true) : v.getBigInt64(at, false);
  const nanos = (fraction * 1_000_000_000n + HALF) >> 64n;
  return Number(seconds - TDMS_EPOCH_OFFSET) * 1000 + Number(nanos) / 1e6;
}

const TWO_32 = 4_294_967_296;
const EPOCH = Number(TDMS_EPOCH_OFFSET);
/**
 * The seconds since 1970 at the ends of what ns since 1970 in a signed 64-bit integer hold
 * (years 1677 and 2262), and the ns of each that it holds: from MIN_NANOS of MIN_UNIX to
 * MAX_NANOS of MAX_UNIX.
 */
const MAX_UNIX = 9_223_372_036;
const MAX_NANOS = 854_775_807;
const MIN_UNIX = -9_223_372_037;
const MIN_NANOS = 145_224_192;

/**
 * Timestamps as ns since 1970 in a BigInt64Array, written as two 32-bit halves per value
 * (the array's memory is little-endian on every platform Node runs on): making a bigint per
 * value costs more than the rest of the check. The fraction is rounded to the nearest ns
 * (its doubles err by far less than a ns); times beyond the years 1677 to 2262, which 64-bit
 * ns cannot hold, are held at the nearest end.
 */
export function timestampsNs(
  bytes: Uint8Array,
  runs: readonly Run[],
  little: boolean,
  out: BigInt64Array,
): void {
  const halves = new Int32Array(out.buffer, out.byteOffset, out.length * 2);
  // Little-endian words aligned to 4 bytes are read where they are, through one Uint32Array;
  // other runs are first copied into such words (wordsOf).
  const aligned = little && bytes.byteOffset % 4 === 0;
  const words = aligned
    ? new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 2)
    : undefined;
  let k = 0;
  for (const r of runs) {
    if (words !== undefined && r.start % 4 === 0 && r.stride % 4 === 0) {
      timestampWords(words, r.start >> 2, r.stride >> 2, r.n, halves, 2 * k);
    } else {
      const { words: copied, step } = wordsOf(bytes, r, little);
      timestampWords(copied, 0, step, r.n, halves, 2 * k);
    }
    k += r.n;
  }
}

const INV_16 = 1 / 65_536;
const INV_32 = 1 / TWO_32;
const NS_PER_FRACTION_HI = 1e9 / TWO_32;

/**
 * `n` timestamps, each four little-endian words (fraction low and high, seconds low and
 * high) `step` words apart from word `from`, as ns since 1970 in `halves` (low, then high)
 * from `at`, exact: the sum is split where doubles hold each part exactly (unix = sh * 2^16
 * + sl; divisions by powers of two are exact). The part of the sum that comes from the
 * second is made once for the values of one second, which are most (many samples a second):
 * on 7.5 M times 1 ms apart, 58 to 77 ms against 133 to 154 ms making it for each value.
 */
function timestampWords(
  words: Uint32Array,
  from: number,
  step: number,
  n: number,
  halves: Int32Array,
  at: number,
): void {
  // The second last met, its part of the sum (lo + hi * 2^32), and whether it is at or past
  // the ends (its values, or some, held there).
  let second = Number.NaN;
  let lo = 0;
  let hi = 0;
  let ends = false;
  for (let i = 0, w = from, a = at; i < n; i++, w += step, a += 2) {
    const fraction = (words[w + 1] as number) + (words[w] as number) * INV_32;
    // 0 to 1e9 (a fraction that rounds up to the next second adds 1e9 ns to this one's).
    const nanos = Math.round(fraction * NS_PER_FRACTION_HI);
    const unix = ((words[w + 3] as number) | 0) * TWO_32 + (words[w + 2] as number) - EPOCH;
    if (unix !== second) {
      second = unix;
      ends = unix >= MAX_UNIX || unix <= MIN_UNIX;
      const sh = Math.floor(unix * INV_16);
      const sl = unix - sh * 65_536;
      const big = sh * 1e9;
      hi = Math.floor(big * INV_16);
      lo = (big - hi * 65_536) * 65_536 + sl * 1e9;
    }
    if (
      ends &&
      (unix > 0 ? unix > MAX_UNIX || nanos > MAX_NANOS : unix < MIN_UNIX || nanos < MIN_NANOS)
    ) {
      halves[a] = unix > 0 ? -1 : 0;
      halves[a + 1] = unix > 0 ? 0x7fff_ffff : -0x8000_0000;
      continue;
    }
    const c = lo + nanos;
    const ch = Math.floor(c * INV_32);
    halves[a] = (c - ch * TWO_32) | 0;
    halves[a + 1] = (hi + ch) | 0;
  }
}

/** Words timestampWords reads of runs not aligned or not little-endian, kept between calls. */
let reordered = new Uint32Array(0);

/**
 * A run's timestamps as little-endian words (timestampWords) from word 0, `step` words
 * apart: little-endian values a whole number of words apart are copied as they are (one
 * copy), others are read into four words each.
 */
function wordsOf(bytes: Uint8Array, r: Run, little: boolean): { words: Uint32Array; step: number } {
  if (r.n === 0) return { words: reordered, step: 4 };
  if (little && r.stride % 4 === 0) {
    const length = (r.n - 1) * r.stride + 16;
    if (reordered.byteLength < length) reordered = new Uint32Array(Math.ceil(length / 4));
    new Uint8Array(reordered.buffer, 0, length).set(bytes.subarray(r.start, r.start + length));
    return { words: reordered, step: r.stride >> 2 };
  }
  if (reordered.length < r.n * 4) reordered = new Uint32Array(r.n * 4);
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0, w = 0; i < r.n; i++, w += 4) {
    const at = r.start + i * r.stride;
    // Big-endian: the seconds first, then the fraction, each a 64-bit integer.
    reordered[w] = v.getUint32(little ? at : at + 12, little);
    reordered[w + 1] = v.getUint32(little ? at + 4 : at + 8, little);
    reordered[w + 2] = v.getUint32(little ? at + 8 : at + 4, little);
    reordered[w + 3] = v.getUint32(little ? at + 12 : at, little);
  }
  return { words: reordered, step: 4 };
}

/** Where a chunk's strings lie: `count` u32 end offsets at `start`, then `textLength` bytes. */
export interface StringTable {
  start: number;
  count: number;
  textLength: number;
  little: boolean;
}

const utf8 = new TextDecoder('utf-8');

/**
 * Strings [from, to) of a chunk whose whole table is in `bytes`; a message when its end
 * offsets go backwards or past the chunk's text (checked for every offset of the chunk, so a
 * lying offset costs no more than the chunk's bytes).
 */
export function chunkStrings(
  bytes: Uint8Array,
  table: StringTable,
  from: number,
  to: number,
): string[] | string {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const bad = badEnds(v, table.start, 0, table.count, 0, table);
  if (bad) return bad;
  const endAt = (j: number) => v.getUint32(table.start + 4 * j, table.little);
  const text = table.start + 4 * table.count;
  const out: string[] = [];
  let prev = from === 0 ? 0 : endAt(from - 1);
  for (let j = from; j < to; j++) {
    const end = endAt(j);
    out.push(utf8.decode(bytes.subarray(text + prev, text + end)));
    prev = end;
  }
  return out;
}

/**
 * The first end offset of ends [from, to) (read at `start`, the ends before `from` ending at
 * `prev`) that goes backwards or past the text, as a message; undefined when all are good.
 */
export function badEnds(
  v: DataView,
  start: number,
  from: number,
  to: number,
  prev: number,
  table: StringTable,
): string | undefined {
  if (table.textLength < 0) {
    return `its strings' end offsets alone (${4 * table.count} bytes) are longer than the chunk's ${4 * table.count + table.textLength} bytes of strings`;
  }
  let last = prev;
  for (let j = from; j < to; j++) {
    const end = v.getUint32(start + 4 * (j - from), table.little);
    if (end < last || end > table.textLength) {
      return `string ${j + 1} of a chunk ends at byte ${end} of the chunk's ${table.textLength} bytes of text${end < last ? `, before the string before it (${last})` : ''}`;
    }
    last = end;
  }
  return undefined;
}

/** Strings from ends read apart from their text: `ends` of strings [from, to), `text` from `first`. */
export function stringsOf(
  ends: DataView,
  text: Uint8Array,
  first: number,
  n: number,
  little: boolean,
): string[] {
  const out: string[] = [];
  let prev = first;
  for (let j = 0; j < n; j++) {
    const end = ends.getUint32(4 * j, little);
    out.push(utf8.decode(text.subarray(prev - first, end - first)));
    prev = end;
  }
  return out;
}
