/**
 * The values of one TDMS segment's raw data (raw.ts walks the segments): small chunks (and
 * interleaved rows) a block of about 1 MiB at a time, each block once for every channel
 * wanted in it, and only blocks holding wanted values; in larger chunks only the wanted
 * values, at most 1 MiB (and 65,536 values) a read, the next read under way while the last
 * is decoded. String chunks have their end offsets checked before any text is decoded.
 */
import type { ByteSource } from '../../inspect/shared.js';
import { valueSize } from './active.js';
import {
  badEnds,
  chunkStrings,
  numberValues,
  type Run,
  type Scratch,
  type StringTable,
  stringsOf,
  type TdmsValues,
  typedValues,
  type ValueType,
} from './decode.js';
import type { RawIndex } from './metadata.js';
import type { RawSegment } from './segments.js';

const MAX_VALUES_PER_READ = 65_536;

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
   * bigints, bool bytes as stored, timestamps as ns since 1970) or text, valid only during
   * the handler's call (a view of the bytes read, or of a buffer the next values overwrite).
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

export interface ReadState {
  data: ByteSource;
  requests: readonly TdmsValueRequest[];
  onValues: TdmsValuesHandler;
  /** Per request: the first of its ranges not yet passed. */
  cursor: number[];
  unread: Map<string, TdmsUnread>;
  progress: ((done: number, total: number) => void) | undefined;
  /** Bytes read at once (BLOCK_BYTES but in tests). */
  block: number;
  /** Where `typed` values are decoded, each decode over the one before. */
  scratch: Scratch;
}

/** Where one object's values lie in a segment. */
export interface Place {
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
export interface Job {
  place: Place;
  r: number;
  base: number;
  ranges: ReadonlyArray<readonly [number, number]>;
}

export function unreadOnce(
  read: ReadState,
  path: string,
  kind: TdmsUnread['kind'],
  reason: string,
  segment: RawSegment,
): void {
  const key = unreadKey(kind, path);
  if (!read.unread.has(key)) read.unread.set(key, { path, kind, reason, segment: segment.segment });
}

/** What is not read is noted once a channel and kind: the first met. */
function unreadKey(kind: TdmsUnread['kind'], path: string): string {
  return `${kind} ${path}`;
}

/** Keeps `u` in `into` unless a note of its kind on its channel came before (in file order). */
export function keepFirstUnread(into: Map<string, TdmsUnread>, u: TdmsUnread): void {
  const key = unreadKey(u.kind, u.path);
  if (!into.has(key)) into.set(key, u);
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
export async function readSegment(
  read: ReadState,
  segment: RawSegment,
  jobs: readonly Job[],
): Promise<void> {
  const unit = unitBytes(segment, jobs);
  if (unit <= read.block) await readBlocks(read, segment, jobs, unit);
  else if (jobs.some((job) => job.place.size === 0)) {
    // Strings read their end offsets, then their text: each job's values as they come, the
    // reads of a range of numbers one ahead within it.
    for (const [job, a, b] of unitRanges(segment, jobs, unit)) {
      if (job.place.size === 0) await readLargeStrings(read, segment, job, unit, a, b);
      else await readAhead(read, segment, numberReads(read, job, unit, a, b));
    }
  } else {
    const reads = [...unitRanges(segment, jobs, unit)].flatMap(([job, a, b]) =>
      numberReads(read, job, unit, a, b),
    );
    await readAhead(read, segment, reads);
  }
  read.progress?.(segment.offset + segment.length, read.data.size);
}

/**
 * The values of each job in each large unit, unit by unit and each job's in turn: the reads
 * go forward through the file (an archive member inflated as a stream starts again for a
 * read behind it).
 */
function* unitRanges(
  segment: RawSegment,
  jobs: readonly Job[],
  unit: number,
): Generator<[Job, number, number]> {
  const units = Math.ceil(segment.length / unit);
  for (let u = 0; u < units; u++) {
    for (const job of jobs) {
      const lo = u * job.place.perUnit;
      const hi = lo + job.place.perUnit;
      for (const [a, b] of job.ranges) {
        if (b > lo && a < hi) yield [job, Math.max(a, lo), Math.min(b, hi)];
      }
    }
  }
}

/** One read of numbers in a large unit: where, how many bytes, whose values (from `v`). */
interface PlannedRead {
  job: Job;
  run: Run;
  length: number;
  v: number;
}

/**
 * The reads of values [a, b) of a job of numbers inside one large unit (a chunk over 1 MiB),
 * at most 1 MiB and 65,536 values a read.
 */
function numberReads(read: ReadState, job: Job, unit: number, a: number, b: number): PlannedRead[] {
  const p = job.place;
  const out: PlannedRead[] = [];
  for (let v = a; v < b; ) {
    const n = Math.min(b - v, MAX_VALUES_PER_READ, Math.max(1, Math.floor(read.block / p.size)));
    const [run] = runsOf(p, v, v + n, unit, 0) as [Run];
    out.push({ job, run, length: (n - 1) * run.stride + p.size, v });
    v += n;
  }
  return out;
}

/**
 * Makes the planned reads one ahead: the next is under way while the bytes of this one are
 * decoded, so a file read with awaited reads does not wait between them. One read is under
 * way at a time, and a read's bytes are decoded before the read after next starts (a
 * source whose two buffers take turns keeps them). On bench/check-tdms (1 GB, one job, a
 * new buffer a read, four alternated runs each): 0.95 to 1.22 s, against 1.08 to 1.44 s
 * reading each after the last.
 */
async function readAhead(read: ReadState, segment: RawSegment, reads: PlannedRead[]) {
  const start = (k: number) => {
    const r = reads[k];
    if (!r) return undefined;
    const bytes = read.data.read(segment.offset + r.run.start, r.length);
    // Awaited below; a read left behind by an error there is not an unhandled rejection.
    bytes.catch(() => undefined);
    return bytes;
  };
  const ended = new Set<Job>();
  let pending = start(0);
  for (let k = 0; k < reads.length; k++) {
    const bytes = (await pending) as Uint8Array;
    pending = start(k + 1);
    const { job, run, length, v } = reads[k] as PlannedRead;
    if (ended.has(job)) continue;
    if (bytes.byteLength < length) {
      ended.add(job);
      unreadOnce(read, job.place.path, 'invalid', 'the file ends inside its raw data', segment);
      continue;
    }
    const at = { segment: segment.segment, index: job.base + v };
    read.onValues(job.r, decodeRuns(read, job, bytes, [{ ...run, start: 0 }], segment), at);
    read.progress?.(segment.offset + run.start + length, read.data.size);
  }
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
      for (const [a, b] of wanted[k] as ReadonlyArray<readonly [number, number]>) {
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
): ReadonlyArray<readonly [number, number]> {
  const lo = u0 * job.place.perUnit;
  const hi = Math.min(job.place.count, u1 * job.place.perUnit);
  // The job's one range, inside the block: itself (a block holding a whole small segment).
  const only = job.ranges.length === 1 ? job.ranges[0] : undefined;
  if (only && (next[k] ?? 0) === 0 && only[0] >= lo && only[0] < only[1] && only[1] <= hi) {
    next[k] = 1;
    return job.ranges;
  }
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
  return request.as === 'typed'
    ? typedValues(bytes, runs, type, read.scratch)
    : numberValues(bytes, runs, type);
}

/** Strings [a, b) of a job inside one large unit (a chunk over 1 MiB), a read's worth at a time. */
async function readLargeStrings(
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
    v += await readStrings(read, segment, job, unitStart, v - u * p.perUnit, b - v, at);
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
