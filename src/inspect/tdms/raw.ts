/**
 * TDMS raw data: the values of chosen channels, for the row reader of the preview. One
 * walk over the segments (the same walk inspection does); in each segment, the layout of
 * its raw data (chunks of each object's values one after another, or interleaved rows) says
 * where each wanted value lies, and only those bytes are read, at most 65,536 values per
 * read. Values come in file order, per channel, as numbers (timestamps as ms since 1970,
 * bools 0/1, 64-bit integers rounded to doubles, one component of complex values) or text.
 * DAQmx raw data and `extended` floats are not decoded (the platform's own reader skips
 * DAQmx channels): such a channel gets no values and a note.
 */
import type { ByteSource } from '../byte-source.js';
import type { RawIndex } from './metadata.js';
import { type RawSegment, walkSegments } from './segments.js';
import { TDMS_EPOCH_OFFSET, TDMS_TYPES } from './types.js';

/** One channel whose values are wanted: its object path and the value ranges [start, end). */
export interface TdmsValueRequest {
  path: string;
  ranges: ReadonlyArray<readonly [number, number]>;
  /** Complex channels: the component to read (default the real part). */
  component?: 'real' | 'imaginary';
}

/** Values of request `request`, in file order: numbers or text (null for none). */
export type TdmsValuesHandler = (request: number, values: Float64Array | string[]) => void;

export interface TdmsValueOptions {
  onProgress?: ((done: number, total: number) => void) | undefined;
}

const MAX_VALUES_PER_READ = 65_536;
const utf8 = new TextDecoder('utf-8');

/** Reads the wanted values of each request; returns notes on what could not be read. */
export async function readTdmsSourceValues(
  data: ByteSource,
  requests: readonly TdmsValueRequest[],
  onValues: TdmsValuesHandler,
  options: TdmsValueOptions = {},
): Promise<string[]> {
  const byPath = new Map<string, number[]>();
  requests.forEach((r, i) => {
    byPath.set(r.path, [...(byPath.get(r.path) ?? []), i]);
  });
  const seen = new Map<string, number>();
  const cursor = requests.map(() => 0);
  const notes = new Set<string>();
  await walkSegments(data, {
    onProgress: options.onProgress,
    onRawData: async (segment) => {
      const layout = layoutOf(segment);
      for (const place of layout.places) {
        const wanted = byPath.get(place.path);
        const base = seen.get(place.path) ?? 0;
        seen.set(place.path, base + place.count);
        if (!wanted) continue;
        if (layout.unreadable || place.unreadable) {
          notes.add(`${place.path}: ${layout.unreadable ?? place.unreadable}; not plotted`);
          continue;
        }
        for (const r of wanted) {
          const request = requests[r] as TdmsValueRequest;
          const ctx = {
            data,
            segment,
            chunk: layout.chunk,
            place,
            request,
            base,
            cursor,
            r,
            onValues,
          };
          await readPlace(ctx);
        }
      }
    },
  });
  return [...notes];
}

/** Where one object's values lie in a segment. */
interface Place {
  path: string;
  index: RawIndex;
  /** Values of the object in the whole segment. */
  count: number;
  /** Bytes from the start of a chunk (or of an interleaved row) to the object's values. */
  offset: number;
  /** Values per chunk (non-interleaved). */
  perChunk: number;
  size: number;
  /** Strings: bytes of the object in a chunk (offsets and text). */
  byteCount: number;
  unreadable?: string;
}

interface Layout {
  places: Place[];
  /** Bytes of one chunk, or of one interleaved row. */
  chunk: number;
  chunks: number;
  unreadable?: string;
}

/** The places of a segment's objects with data, in the order the segment lists them. */
function layoutOf(segment: RawSegment): Layout {
  const places: Place[] = [];
  let at = 0;
  let unreadable: string | undefined;
  for (const o of segment.objects) {
    const index = o.index;
    if (index.kind === 'daqmx') {
      unreadable = 'DAQmx raw data is not decoded by importkit';
      places.push(place(o.path, index, at, 0, 0, 0));
      continue;
    }
    if (index.kind !== 'plain') continue;
    const isString = index.typeCode === 0x20;
    const size = TDMS_TYPES.get(index.typeCode)?.size;
    const bytes = isString ? (index.byteCount ?? 0) : (size ?? 0) * index.valueCount;
    const p = place(o.path, index, at, index.valueCount, size ?? 0, bytes);
    if (!isString && size === undefined) unreadable ??= `type ${index.typeCode} has no known size`;
    if (segment.interleaved && isString) unreadable ??= 'interleaved strings cannot be laid out';
    places.push(p);
    at += segment.interleaved ? (size ?? 0) : bytes;
  }
  const chunk = at;
  let chunks = 0;
  if (chunk > 0) {
    const rowsOrChunks = Math.floor(segment.length / chunk);
    // Interleaved: `chunk` is one row; every object has one value per row.
    chunks = segment.interleaved ? 1 : rowsOrChunks;
    for (const p of places) {
      p.count = segment.interleaved ? rowsOrChunks : p.perChunk * rowsOrChunks;
      if (segment.interleaved) p.perChunk = rowsOrChunks;
    }
  }
  const layout: Layout = { places, chunk, chunks };
  if (unreadable) layout.unreadable = unreadable;
  return layout;
}

function place(
  path: string,
  index: RawIndex,
  offset: number,
  perChunk: number,
  size: number,
  byteCount: number,
): Place {
  const p: Place = { path, index, count: perChunk, offset, perChunk, size, byteCount };
  const code = index.kind === 'plain' ? index.typeCode : 0;
  if (code === 0x0b || code === 0x1b) p.unreadable = 'extended (80-bit) floats are not decoded';
  if (code === 0x4f) p.unreadable = 'fixed-point values are not decoded';
  return p;
}

interface ReadCtx {
  data: ByteSource;
  segment: RawSegment;
  /** Bytes of one chunk (one interleaved row). */
  chunk: number;
  place: Place;
  request: TdmsValueRequest;
  /** Value index of the object's first value in this segment. */
  base: number;
  /** Per request: the range it is in. */
  cursor: number[];
  r: number;
  onValues: TdmsValuesHandler;
}

/** Reads the values of one request that fall in this segment, chunk by chunk. */
async function readPlace(ctx: ReadCtx): Promise<void> {
  const { place: p, segment, base } = ctx;
  const chunkBytes = segment.interleaved ? 0 : ctx.chunk;
  const chunks = segment.interleaved ? 1 : Math.max(0, Math.floor(p.count / (p.perChunk || 1)));
  for (let k = 0; k < chunks; k++) {
    const first = base + k * p.perChunk;
    for (const [s, e] of overlaps(ctx, first, first + p.perChunk)) {
      for (let a = s; a < e; a += MAX_VALUES_PER_READ) {
        const b = Math.min(e, a + MAX_VALUES_PER_READ);
        const at = segment.offset + k * chunkBytes;
        ctx.onValues(ctx.r, await readValues(ctx, at, a - first, b - a));
      }
    }
  }
}

/** The parts of [from, to) inside the request's ranges, advancing its cursor. */
function overlaps(ctx: ReadCtx, from: number, to: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const ranges = ctx.request.ranges;
  let i = ctx.cursor[ctx.r] ?? 0;
  while (i < ranges.length) {
    const [s, e] = ranges[i] as readonly [number, number];
    if (e <= from) {
      i += 1;
      continue;
    }
    if (s >= to) break;
    out.push([Math.max(s, from), Math.min(e, to)]);
    if (e > to) break;
    i += 1;
  }
  ctx.cursor[ctx.r] = i;
  return out;
}

/** `n` values of the object from value `skip` of the chunk (or row block) at `at`. */
async function readValues(
  ctx: ReadCtx,
  at: number,
  skip: number,
  n: number,
): Promise<Float64Array | string[]> {
  const { place: p, segment, data } = ctx;
  if (p.index.kind === 'plain' && p.index.typeCode === 0x20) {
    return readStrings(data, at + p.offset, p.perChunk, skip, n, segment.bigEndian);
  }
  const stride = segment.interleaved ? ctx.chunk : p.size;
  const start = segment.interleaved ? at + skip * stride + p.offset : at + p.offset + skip * p.size;
  const bytes = await data.read(start, (n - 1) * stride + p.size);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float64Array(n);
  const decode = decoderOf(p.index.kind === 'plain' ? p.index.typeCode : 0, ctx.request);
  const little = !segment.bigEndian;
  for (let j = 0; j < n; j++) {
    const o = j * stride;
    out[j] = o + p.size <= bytes.byteLength ? decode(view, o, little) : Number.NaN;
  }
  return out;
}

/** Strings of a chunk: `count` u32 end offsets, then the text; values [skip, skip + n). */
async function readStrings(
  data: ByteSource,
  at: number,
  count: number,
  skip: number,
  n: number,
  bigEndian: boolean,
): Promise<string[]> {
  const from = Math.max(0, skip - 1);
  const ends = await data.read(at + from * 4, (skip + n - from) * 4);
  const v = new DataView(ends.buffer, ends.byteOffset, ends.byteLength);
  const endAt = (j: number) => v.getUint32((j - from) * 4, !bigEndian);
  const textStart = at + count * 4;
  const first = skip === 0 ? 0 : endAt(skip - 1);
  const last = endAt(skip + n - 1);
  const text = await data.read(textStart + first, last - first);
  const out: string[] = [];
  let prev = first;
  for (let j = skip; j < skip + n; j++) {
    const end = endAt(j);
    out.push(utf8.decode(text.subarray(prev - first, end - first)));
    prev = end;
  }
  return out;
}

type Decode = (v: DataView, at: number, little: boolean) => number;

/** How a value of a type code becomes a number. */
function decoderOf(code: number, request: TdmsValueRequest): Decode {
  const imaginary = request.component === 'imaginary';
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
    case 0x0a:
    case 0x1a:
      return (v, at, l) => v.getFloat64(at, l);
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
 * A TDMS timestamp (fractions of 2^-64 s, then seconds since 1904) as ms since 1970, the
 * fraction rounded to the nearest ns first (so .1 s reads as 100 ms, not 99.999...).
 */
function timestampMs(v: DataView, at: number, little: boolean): number {
  const fraction = little ? v.getBigUint64(at, true) : v.getBigUint64(at + 8, false);
  const seconds = little ? v.getBigInt64(at + 8, true) : v.getBigInt64(at, false);
  const nanos = (fraction * 1_000_000_000n + HALF) >> 64n;
  return Number(seconds - TDMS_EPOCH_OFFSET) * 1000 + Number(nanos) / 1e6;
}
