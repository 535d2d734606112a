/**
 * TDMS raw data: the values of chosen channels, for the row reader of the preview and the
 * value findings of the check. One walk over the segments (the same walk inspection does);
 * in each segment, the layout of its raw data (chunks holding each object's values one
 * after another, or interleaved rows) says where each wanted value lies. Small chunks (and
 * interleaved rows) are read a block of about 1 MiB at a time, each block once for every
 * channel wanted in it, and only blocks holding wanted values are read; in larger chunks
 * only the wanted values are read, at most 1 MiB (and 65,536 values) a read. Memory holds
 * one block and the values decoded from it. Values come in file order, per channel, with the
 * segment they are in and their index among the channel's values.
 *
 * A string chunk's end offsets are checked against the chunk before any text is decoded:
 * offsets that go backwards or past the chunk make it invalid (reported, its values left
 * out), never a read of the rest of the file. DAQmx raw data, `extended` floats and
 * fixed-point values are not decoded (the platform's own reader skips DAQmx channels): such
 * a channel gets no values and is reported once.
 */
import type { ByteSource } from '../../inspect/shared.js';
import { valueSize } from './active.js';
import {
  badEnds,
  chunkStrings,
  decodable,
  numberValues,
  type Run,
  type StringTable,
  stringsOf,
  type TdmsValues,
  typedValues,
  type ValueType,
} from './decode.js';
import type { RawIndex } from './metadata.js';
import { type RawSegment, walkSegments } from './segments.js';

export type { TdmsTypedValues, TdmsValues } from './decode.js';

/** One channel whose values are wanted: its object path and the value ranges [start, end). */
export interface TdmsValueRequest {
  path: string;
  /** Sorted, not overlapping. */
  ranges: ReadonlyArray<readonly [number, number]>;
  /** Complex channels: the component to read (default the real part). */
  component?: 'real' | 'imaginary';
  /**
   * `numbers` (the default): doubles (timestamps as ms since 1970, bools 0/1, 64-bit
   * integers rounded) or text; `typed`: the stored type's typed array (64-bit integers as
   * bigints, bool bytes as stored, timestamps as ns since 1970) or text.
   */
  as?: 'numbers' | 'typed';
}

/** Where values come from: their segment (from 1) and the first's index among the channel's values. */
export interface TdmsValuesAt {
  segment: number;
  index: number;
}

/** Values of request `request`, in file order. */
export type TdmsValuesHandler = (request: number, values: TdmsValues, at: TdmsValuesAt) => void;

/**
 * A channel whose values were not all read: not decoded by importkit (DAQmx raw data,
 * extended floats, fixed point), or a chunk whose raw data is not what the metadata says.
 * Reported once per channel and kind, with the first segment it happened in.
 */
export interface TdmsUnread {
  path: string;
  kind: 'undecoded' | 'invalid';
  reason: string;
  segment: number;
}

export interface TdmsValueOptions {
  /** Progress in bytes of the file. */
  onProgress?: ((done: number, total: number) => void) | undefined;
  /**
   * Only the raw data of segments [from, to) (numbered from 1), as if the values of the
   * others were not wanted: a part of a read split over threads. The values keep their
   * index among all of the channel's values.
   */
  segments?: readonly [number, number] | undefined;
  /**
   * Bytes read at once (default 1 MiB): tests read in small blocks, so that a source whose
   * buffers are reused is overwritten many times a segment.
   */
  blockBytes?: number | undefined;
}

/** Thrown past the last segment wanted: the walk stops there. */
const PAST = Symbol('past the segments wanted');

/** Bytes read at once: a block of small chunks, or a part of a large one. */
const BLOCK_BYTES = 1024 * 1024;
const MAX_VALUES_PER_READ = 65_536;

/** Reads the wanted values of each request; returns what could not be read. */
export async function readTdmsSourceValues(
  data: ByteSource,
  requests: readonly TdmsValueRequest[],
  onValues: TdmsValuesHandler,
  options: TdmsValueOptions = {},
): Promise<TdmsUnread[]> {
  const byPath = new Map<string, number[]>();
  requests.forEach((r, i) => {
    byPath.set(r.path, [...(byPath.get(r.path) ?? []), i]);
  });
  const read: ReadState = {
    data,
    requests,
    onValues,
    seen: new Map(),
    cursor: requests.map(() => 0),
    unread: new Map(),
    progress: options.onProgress,
    block: Math.max(1, Math.floor(options.blockBytes ?? BLOCK_BYTES)),
  };
  const [from, to] = options.segments ?? [1, Number.POSITIVE_INFINITY];
  try {
    await walkSegments(data, {
      onProgress: options.onProgress,
      onRawData: async (segment) => {
        if (segment.segment >= to) throw PAST;
        if (segment.segment < from) {
          for (const o of segment.objects)
            read.seen.set(o.path, (read.seen.get(o.path) ?? 0) + (o.count ?? 0));
          return;
        }
        const jobs = jobsOf(read, segment, byPath);
        if (jobs.length > 0) await readSegment(read, segment, jobs);
      },
    });
  } catch (err) {
    if (err !== PAST) throw err;
  }
  return [...read.unread.values()];
}

/** What a read keeps across segments. */
interface ReadState {
  data: ByteSource;
  requests: readonly TdmsValueRequest[];
  onValues: TdmsValuesHandler;
  /** Values of each object in the segments before. */
  seen: Map<string, number>;
  /** Per request: the first of its ranges not yet passed. */
  cursor: number[];
  unread: Map<string, TdmsUnread>;
  progress: ((done: number, total: number) => void) | undefined;
  /** Bytes read at once (BLOCK_BYTES but in tests). */
  block: number;
}

/** Where one object's values lie in a segment. */
interface Place {
  path: string;
  index: Extract<RawIndex, { kind: 'plain' }>;
  /** Values of the object in the segment. */
  count: number;
  /** Bytes from the start of a unit (chunk, or interleaved row) to the object's values. */
  offset: number;
  /** Values per unit: a chunk's, or 1 in an interleaved row. */
  perUnit: number;
  interleaved: boolean;
  /** Bytes of one value (0 for strings) and of the object in a chunk. */
  size: number;
  bytes: number;
}

/** The values of one request in one segment: its place and the wanted ranges, from the segment's first value. */
interface Job {
  place: Place;
  r: number;
  base: number;
  ranges: Array<[number, number]>;
}

/** The jobs of a segment, in the order of their places; notes what cannot be read. */
function jobsOf(read: ReadState, segment: RawSegment, byPath: Map<string, number[]>): Job[] {
  const { places, unreadable } = layoutOf(segment);
  const jobs: Job[] = [];
  for (const o of segment.objects) {
    const base = read.seen.get(o.path) ?? 0;
    const count = o.count ?? 0;
    read.seen.set(o.path, base + count);
    const wanted = byPath.get(o.path);
    if (!wanted) continue;
    const place = places.get(o.path);
    const why = unreadable ?? (place ? undefined : whyNot(o.index));
    if (why !== undefined || !place) {
      unreadOnce(read, o.path, 'undecoded', why ?? 'its raw data cannot be laid out', segment);
      continue;
    }
    for (const r of wanted) {
      const ranges = rangesIn(read, r, base, base + count);
      if (ranges.length > 0) jobs.push({ place, r, base, ranges });
    }
  }
  return jobs;
}

function whyNot(index: RawIndex): string {
  if (index.kind === 'daqmx') return 'DAQmx raw data is not decoded by importkit';
  const code = index.kind === 'plain' ? index.typeCode : 0;
  if (code === 0x0b || code === 0x1b) return 'extended (80-bit) floats are not decoded';
  if (code === 0x4f) return 'fixed-point values are not decoded';
  return `type 0x${code.toString(16)} is not decoded`;
}

function unreadOnce(
  read: ReadState,
  path: string,
  kind: TdmsUnread['kind'],
  reason: string,
  segment: RawSegment,
): void {
  const key = `${kind} ${path}`;
  if (!read.unread.has(key)) read.unread.set(key, { path, kind, reason, segment: segment.segment });
}

/** The parts of a request's ranges inside [from, to), from `from`, advancing its cursor. */
function rangesIn(read: ReadState, r: number, from: number, to: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const ranges = (read.requests[r] as TdmsValueRequest).ranges;
  let i = read.cursor[r] ?? 0;
  while (i < ranges.length) {
    const [s, e] = ranges[i] as readonly [number, number];
    if (e <= from) {
      i += 1;
      continue;
    }
    if (s >= to) break;
    out.push([Math.max(s, from) - from, Math.min(e, to) - from]);
    if (e > to) break;
    i += 1;
  }
  read.cursor[r] = i;
  return out;
}

/**
 * The places of a segment's objects with values; `unreadable` when the segment's layout
 * cannot be known (DAQmx data beside plain data, interleaved strings, unknown sizes).
 */
function layoutOf(segment: RawSegment): { places: Map<string, Place>; unreadable?: string } {
  const places = new Map<string, Place>();
  let at = 0;
  for (const o of segment.objects) {
    const index = o.index;
    if (index.kind === 'daqmx') {
      return { places, unreadable: 'DAQmx raw data is not decoded by importkit' };
    }
    if (index.kind !== 'plain') continue;
    const isString = index.typeCode === 0x20;
    const size = valueSize(index);
    if (segment.interleaved && isString) {
      return { places, unreadable: 'interleaved strings cannot be laid out' };
    }
    if (!isString && size === undefined) {
      return { places, unreadable: `type 0x${index.typeCode.toString(16)} has no known size` };
    }
    const bytes = isString ? (index.byteCount ?? 0) : (size ?? 0) * index.valueCount;
    const perUnit = segment.interleaved ? 1 : index.valueCount;
    const place: Place = {
      path: o.path,
      index,
      count: o.count ?? 0,
      offset: at,
      perUnit,
      interleaved: segment.interleaved,
      size: size ?? 0,
      bytes,
    };
    if (isString || decodable(index.typeCode)) places.set(o.path, place);
    at += segment.interleaved ? (size ?? 0) : bytes;
  }
  return { places };
}

/** Bytes of one unit: a chunk, or an interleaved row. */
function unitBytes(segment: RawSegment, jobs: readonly Job[]): number {
  if (!segment.interleaved) return segment.chunk ?? segment.length;
  let row = 0;
  for (const o of segment.objects) row += o.index.kind === 'plain' ? (valueSize(o.index) ?? 0) : 0;
  return row || (jobs[0]?.place.size ?? 1);
}

/**
 * Reads a segment's wanted values: small units a block at a time (each block read once for
 * every job), large ones value range by value range.
 */
async function readSegment(
  read: ReadState,
  segment: RawSegment,
  jobs: readonly Job[],
): Promise<void> {
  const unit = unitBytes(segment, jobs);
  if (unit <= read.block) await readBlocks(read, segment, jobs, unit);
  else {
    // Unit by unit, each job's values in it in turn: the reads go forward through the file
    // (an archive member inflated as a stream starts again for a read behind it).
    const units = Math.ceil(segment.length / unit);
    for (let u = 0; u < units; u++) {
      for (const job of jobs) {
        const lo = u * job.place.perUnit;
        const hi = lo + job.place.perUnit;
        for (const [a, b] of job.ranges) {
          if (b > lo && a < hi) {
            await readLargeUnit(read, segment, job, unit, Math.max(a, lo), Math.min(b, hi));
          }
        }
      }
    }
  }
  read.progress?.(segment.offset + segment.length, read.data.size);
}

/** The values [a, b) of a job as runs, relative to the byte `from` (a unit's start). */
function runsOf(place: Place, a: number, b: number, unit: number, from: number): Run[] {
  if (place.interleaved) {
    // One value per row, the rows `unit` bytes apart.
    return [{ start: a * unit + place.offset - from, n: b - a, stride: unit }];
  }
  const runs: Run[] = [];
  for (let v = a; v < b; ) {
    const u = Math.floor(v / place.perUnit);
    const end = Math.min(b, (u + 1) * place.perUnit);
    const j = v - u * place.perUnit;
    runs.push({
      start: u * unit + place.offset + j * place.size - from,
      n: end - v,
      stride: place.size,
    });
    v = end;
  }
  return runs;
}

/** Small units: blocks of whole units, each read once when a job wants a value in it. */
async function readBlocks(
  read: ReadState,
  segment: RawSegment,
  jobs: readonly Job[],
  unit: number,
): Promise<void> {
  const per = Math.max(1, Math.floor(read.block / unit));
  const units = Math.ceil(segment.length / unit);
  const next = jobs.map(() => 0);
  for (let u0 = 0; u0 < units; u0 += per) {
    const u1 = Math.min(units, u0 + per);
    const wanted = jobs.map((job, k) => blockRanges(job, u0, u1, next, k));
    if (wanted.every((w) => w.length === 0)) continue;
    const from = u0 * unit;
    const length = Math.min(segment.length, u1 * unit) - from;
    const bytes = await read.data.read(segment.offset + from, length);
    jobs.forEach((job, k) => {
      for (const [a, b] of wanted[k] as Array<[number, number]>) {
        if (bytes.byteLength < length) {
          unreadOnce(read, job.place.path, 'invalid', 'the file ends inside its raw data', segment);
          return;
        }
        emitFromBlock(read, segment, job, bytes, a, b, unit, from);
      }
    });
    read.progress?.(segment.offset + from + length, read.data.size);
  }
}

/** The parts of a job's ranges among the values of units [u0, u1), advancing `next[k]`. */
function blockRanges(
  job: Job,
  u0: number,
  u1: number,
  next: number[],
  k: number,
): Array<[number, number]> {
  const lo = u0 * job.place.perUnit;
  const hi = Math.min(job.place.count, u1 * job.place.perUnit);
  const out: Array<[number, number]> = [];
  let i = next[k] ?? 0;
  while (i < job.ranges.length) {
    const [s, e] = job.ranges[i] as [number, number];
    if (s >= hi) break;
    if (e > lo) out.push([Math.max(s, lo), Math.min(e, hi)]);
    if (e > hi) break;
    i += 1;
  }
  next[k] = i;
  return out;
}

/** Values [a, b) of a job from a block read from byte `from` of the segment. */
function emitFromBlock(
  read: ReadState,
  segment: RawSegment,
  job: Job,
  bytes: Uint8Array,
  a: number,
  b: number,
  unit: number,
  from: number,
): void {
  const p = job.place;
  const at = { segment: segment.segment, index: job.base + a };
  if (p.size > 0) {
    read.onValues(job.r, decodeRuns(read, job, bytes, runsOf(p, a, b, unit, from), segment), at);
    return;
  }
  // Strings: chunk by chunk, each chunk's offsets checked whole.
  for (let v = a; v < b; ) {
    const u = Math.floor(v / p.perUnit);
    const end = Math.min(b, (u + 1) * p.perUnit);
    const table = stringTable(p, u * unit + p.offset - from, segment);
    const got = chunkStrings(bytes, table, v - u * p.perUnit, end - u * p.perUnit);
    stringsOut(read, segment, job, got, end - v, { segment: segment.segment, index: job.base + v });
    v = end;
  }
}

function stringTable(p: Place, start: number, segment: RawSegment): StringTable {
  return {
    start,
    count: p.perUnit,
    textLength: p.bytes - 4 * p.perUnit,
    little: !segment.bigEndian,
  };
}

/**
 * Strings, or the chunk's problem: noted, and its `n` values left out (typed) or handed over
 * empty, a read's worth at a time (the row reader lines channels up by position).
 */
function stringsOut(
  read: ReadState,
  segment: RawSegment,
  job: Job,
  got: string[] | string,
  n: number,
  at: TdmsValuesAt,
): void {
  if (typeof got !== 'string') {
    read.onValues(job.r, got, at);
    return;
  }
  unreadOnce(read, job.place.path, 'invalid', got, segment);
  if ((read.requests[job.r] as TdmsValueRequest).as === 'typed') return;
  for (let k = 0; k < n; k += MAX_VALUES_PER_READ) {
    const part = Math.min(MAX_VALUES_PER_READ, n - k);
    read.onValues(job.r, new Array<string>(part).fill(''), { ...at, index: at.index + k });
  }
}

function decodeRuns(
  read: ReadState,
  job: Job,
  bytes: Uint8Array,
  runs: readonly Run[],
  segment: RawSegment,
): TdmsValues {
  const request = read.requests[job.r] as TdmsValueRequest;
  const type: ValueType = {
    code: job.place.index.typeCode,
    size: job.place.size,
    imaginary: request.component === 'imaginary',
    little: !segment.bigEndian,
  };
  return request.as === 'typed' ? typedValues(bytes, runs, type) : numberValues(bytes, runs, type);
}

/**
 * Values [a, b) of a job inside one large unit (a chunk over 1 MiB), at most 1 MiB and
 * 65,536 values a read.
 */
async function readLargeUnit(
  read: ReadState,
  segment: RawSegment,
  job: Job,
  unit: number,
  a: number,
  b: number,
): Promise<void> {
  const p = job.place;
  const u = Math.floor(a / p.perUnit);
  const unitStart = segment.offset + u * unit;
  for (let v = a; v < b; ) {
    const at = { segment: segment.segment, index: job.base + v };
    if (p.size === 0) {
      v += await readStrings(read, segment, job, unitStart, v - u * p.perUnit, b - v, at);
      continue;
    }
    const n = Math.min(b - v, MAX_VALUES_PER_READ, Math.max(1, Math.floor(read.block / p.size)));
    const [run] = runsOf(p, v, v + n, unit, 0) as [Run];
    const length = (n - 1) * run.stride + p.size;
    const bytes = await read.data.read(segment.offset + run.start, length);
    if (bytes.byteLength < length) {
      unreadOnce(read, p.path, 'invalid', 'the file ends inside its raw data', segment);
      return;
    }
    read.onValues(job.r, decodeRuns(read, job, bytes, [{ ...run, start: 0 }], segment), at);
    read.progress?.(segment.offset + run.start + length, read.data.size);
    v += n;
  }
}

/** Most text read at once from a large string chunk (more only for one longer string). */
const MAX_TEXT_BYTES = 4 * 1024 * 1024;

/**
 * Strings [skip, skip + most) of the chunk at `chunkStart`, as many as fit one read (the
 * end offsets of at most 65,536, their text up to 4 MiB): their end offsets are read and
 * checked first. Returns how many were handed over (or passed, when the chunk is invalid).
 */
async function readStrings(
  read: ReadState,
  segment: RawSegment,
  job: Job,
  chunkStart: number,
  skip: number,
  most: number,
  at: TdmsValuesAt,
): Promise<number> {
  const p = job.place;
  const table = stringTable(p, chunkStart + p.offset, segment);
  const want = Math.min(most, MAX_VALUES_PER_READ);
  const from = Math.max(0, skip - 1);
  const endBytes = await read.data.read(table.start + 4 * from, 4 * (skip + want - from));
  if (endBytes.byteLength < 4 * (skip + want - from)) {
    stringsOut(read, segment, job, 'the file ends inside its raw data', most, at);
    return most;
  }
  const ends = new DataView(endBytes.buffer, endBytes.byteOffset, endBytes.byteLength);
  const first = skip === 0 ? 0 : ends.getUint32(0, table.little);
  const own = new DataView(endBytes.buffer, endBytes.byteOffset + 4 * (skip - from), 4 * want);
  const bad = badEnds(own, 0, skip, skip + want, first, table);
  if (bad) {
    stringsOut(read, segment, job, bad, most, at);
    return most;
  }
  // As many strings as 4 MiB of text hold (at least one).
  let n = 1;
  while (n < want && own.getUint32(4 * n, table.little) - first <= MAX_TEXT_BYTES) n += 1;
  const last = own.getUint32(4 * (n - 1), table.little);
  const text = await read.data.read(table.start + 4 * p.perUnit + first, last - first);
  if (text.byteLength < last - first) {
    stringsOut(read, segment, job, 'the file ends inside its raw data', most, at);
    return most;
  }
  read.onValues(job.r, stringsOf(own, text, first, n, table.little), at);
  return n;
}
