/**
 * `check --full` of an HDF5 file on several cores. The values to read are cut by the
 * format's own units: each part (a time dataset, a channel's dataset, column or member) and,
 * within a part, ranges of rows aligned to the dataset's chunks (so that a file of one long
 * time dataset and few channels still splits, and no two threads decode the same chunk).
 * Up to `jobs` HDF5 threads (thread.ts: the shared one and `jobs - 1` of their own, each
 * with its own h5wasm) take the next range whenever they are free, read it a slice at a time
 * and answer its tally (slice-tally.ts), never its values; this thread joins the tallies in
 * the order one thread reads the ranges (group by group, part by part, row by row:
 * values/tally-merge.ts), so the counts and the first place of each finding are those of one
 * read. Memory: one slice in flight a thread, and tallies.
 *
 * One job (or `jobs` not given) reads in the one shared thread, as before (values.ts): each
 * more h5wasm instance costs its own wasm heap (it grows to the largest slice read, never
 * shrinks), its modules (4 MB of script holding the wasm, about 0.5 s of CPU to load) and
 * about +60 MiB of peak RSS on bench/check-hdf5, so the threads are only started when asked
 * for (as Parquet, TDMS and ULog).
 */
import { type ByteSource, wholeFileOf } from '../../inspect/shared.js';
import type { Issue } from '../../model/plain.js';
import { jobsOf, joinChannelPart, joinTimePart } from '../../values/index.js';
import { type Hdf5Dataset, tallyHdf5Range } from './inspect.js';
import type { RangeTally, TallyRequest } from './slice-tally.js';
import {
  groupRows,
  groupStates,
  hdf5ValueIssues,
  type ReadGroup,
  type ReadState,
  SLICE_BYTES,
  sliceRequest,
  stateIssues,
  stepOf,
  type ValueReadOptions,
} from './values.js';
import { type Hdf5Thread, hdf5Threads } from './worker.js';

export interface FullReadOptions extends ValueReadOptions {
  /** Threads (default 1: the shared HDF5 thread alone, at most one a core). */
  jobs?: number | undefined;
  /** The most bytes of one range a thread reads as one (default 16 MiB). */
  rangeBytes?: number | undefined;
}

/** Ranges a thread, about: small enough that the threads finish close together. */
const RANGES_A_JOB = 4;
const MOST_BYTES = 16 * 1024 * 1024;

/** A range of rows of one part, as a thread reads it, and its share of the progress. */
interface Range {
  state: ReadState;
  request: TallyRequest;
  weight: number;
}

/** An empty range: the thread loads h5wasm and opens the file, and reads nothing. */
const NOTHING: TallyRequest = {
  slice: { dataset: '/', column: null, member: null, start: 0, end: 0 },
  step: 1,
  judge: { time: true },
};

/**
 * The threads of a full read of several jobs, for a file on disk: started at once (each
 * loads h5wasm and opens the file: on bench/check-hdf5 that took a new thread longer than
 * the shared one took to read a dataset), while the caller reads the file's structure.
 * Undefined for one job, a member of an archive (each thread would inflate its own copy of
 * a compressed one) and a sampled read: values.ts reads those in the shared thread. Give
 * them back with `closeThreads`.
 */
export function hdf5JobThreads(
  data: string | ByteSource,
  options: FullReadOptions,
): Hdf5Thread[] | undefined {
  const jobs = jobsOf(options.jobs);
  const onDisk = typeof data === 'string' || wholeFileOf(data) !== undefined;
  if (jobs === 1 || !onDisk || options.sample !== undefined) return undefined;
  const threads = hdf5Threads(jobs);
  const limit = options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };
  // A file the library cannot open fails again, and is reported, when it is read.
  for (const t of threads.slice(1)) tallyHdf5Range(data, t, NOTHING, limit).catch(() => {});
  return threads;
}

/**
 * The findings of reading every value of `groups` (check --full): in `threads`
 * (`hdf5JobThreads`), else as values.ts reads them, in the shared thread.
 */
export async function hdf5FullValueIssues(
  data: string | ByteSource,
  groups: readonly ReadGroup[],
  options: FullReadOptions,
  threads: readonly Hdf5Thread[] | undefined,
): Promise<Issue[]> {
  if (!threads || threads.length < 2) return hdf5ValueIssues(data, groups, options);
  const path = typeof data === 'string' ? data : data.name;
  const states = groups.map((g) => groupStates(g));
  await readRanges(data, planRanges(groups, states, threads.length, options), threads, options);
  return states.flatMap((s) => stateIssues(path, s));
}

/** Every part's ranges, in the order one thread reads them, of about as many bytes each. */
export function planRanges(
  groups: readonly ReadGroup[],
  states: ReadState[][],
  jobs: number,
  o: FullReadOptions,
): Range[] {
  const bytes = states.flat().reduce((n, s) => n + s.part.rows * rowBytes(s.part.read.dataset), 0);
  const most = Math.max(1, o.rangeBytes ?? MOST_BYTES);
  const want = Math.max(Math.min(most, SLICE_BYTES), Math.min(most, bytes / (RANGES_A_JOB * jobs)));
  const ranges: Range[] = [];
  groups.forEach((g, i) => {
    const group = states[i] ?? [];
    const step = stepOf(
      group.map((s) => s.part),
      o.sliceRows,
    );
    const share = groupRows(g) / Math.max(1, group.length);
    for (const state of group) {
      const { rows, read } = state.part;
      const judge: TallyRequest['judge'] =
        'time' in state.into ? { time: true, format: read.format } : { channel: state.into.as };
      for (const [from, to] of cutRows(read.dataset, rows, want)) {
        const slice = sliceRequest(read, from, to);
        ranges.push({
          state,
          request: { slice, step, judge },
          weight: (share * (to - from)) / rows,
        });
      }
    }
  });
  return ranges;
}

/** Bytes the library reads for a row of a dataset (every column of an [N, k] one). */
function rowBytes(d: Hdf5Dataset): number {
  const width = d.shape?.length === 2 ? (d.shape[1] ?? 1) : 1;
  return Math.max(1, d.type.size * width);
}

/**
 * Rows [0, rows) cut into ranges of about `want` bytes, as even as can be, each starting
 * on a chunk's first row (a chunked dataset).
 */
function cutRows(d: Hdf5Dataset, rows: number, want: number): Array<[number, number]> {
  const count = Math.max(1, Math.ceil((rows * rowBytes(d)) / want));
  const chunk = Math.max(1, d.chunks?.[0] ?? 1);
  const size = Math.max(1, Math.ceil(Math.ceil(rows / count) / chunk) * chunk);
  const out: Array<[number, number]> = [];
  for (let a = 0; a < rows; a += size) out.push([a, Math.min(rows, a + size)]);
  return out;
}

type Settled = { tally: RangeTally } | { error: unknown };

/**
 * Reads the ranges in the threads, each taking the next one when free, and joins each
 * range's tally into its part in order, as soon as the ranges before it are joined. A range
 * that failed (the library stalled or crashed) throws when its turn comes, as one read
 * would throw there, and no range after it is started; a range of a part that one read
 * would have stopped reading (the library failed on a slice before it) is left out.
 */
async function readRanges(
  data: string | ByteSource,
  ranges: readonly Range[],
  threads: readonly Hdf5Thread[],
  o: FullReadOptions,
): Promise<void> {
  const settled = new Map<number, Settled>();
  const total = Math.round(ranges.reduce((n, r) => n + r.weight, 0));
  const limit = o.timeoutMs === undefined ? {} : { timeoutMs: o.timeoutMs };
  let done = 0;
  let next = 0;
  let joined = 0;
  let failure: { error: unknown } | undefined;
  const join = () => {
    for (let r = settled.get(joined); r !== undefined && !failure; r = settled.get(joined)) {
      settled.delete(joined);
      const range = ranges[joined] as Range;
      joined += 1;
      if (range.state.part.unread) continue;
      if ('error' in r) failure = r;
      else joinRange(range.state, r.tally);
    }
  };
  const lane = async (thread: Hdf5Thread) => {
    while (!failure && next < ranges.length) {
      const k = next++;
      const range = ranges[k] as Range;
      try {
        settled.set(k, { tally: await tallyHdf5Range(data, thread, range.request, limit) });
      } catch (error) {
        settled.set(k, { error });
      }
      done += range.weight;
      o.onProgress?.(Math.min(total, Math.floor(done)), total);
      join();
    }
  };
  // Two lanes a thread: its worker is sent the next range while it reads one (worker.ts),
  // not a round trip after. A file of 3,000 datasets of 1,000 rows, a range each, 2 jobs:
  // 1.93 and 1.97 s with one lane a thread, 1.70 to 1.72 s with two.
  await Promise.all(threads.flatMap((t) => [lane(t), lane(t)]));
  if (failure) throw failure.error;
}

/** A range's tally joined to those of the ranges of its part before it. */
function joinRange(state: ReadState, t: RangeTally): void {
  if ('time' in state.into && t.time) joinTimePart(state.into.time, t.time, true, 0);
  else if ('channel' in state.into && t.channel) joinChannelPart(state.into.channel, t.channel, 0);
  if (t.unread) state.part.unread = t.unread;
}
