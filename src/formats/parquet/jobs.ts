/**
 * `check --full` of a Parquet file on several cores: the row groups are cut into runs of
 * consecutive groups, threads decode and tally the runs, and the tallies are joined in file
 * order into what one pass over the file counts, places and all.
 *
 * With N jobs, this thread and N - 1 worker threads (worker.ts) share the runs: each
 * claims the next run not yet taken (a shared counter), so a slower thread takes fewer. A
 * thread decodes one row group at a time (parquet-wasm's stream over its run's groups), so
 * each holds one row group's values and its run's tallies. The runs shrink towards the end
 * of the file (as the CSV ranges do, csv/check-parallel.ts), so the threads finish close together.
 * A file of one run is read in the calling thread (values.ts), as with one job.
 *
 * Joining: each run's tallies count from the run's first row; where two runs meet, the first
 * time value of the later run is compared with the last of the earlier one (going backwards,
 * repeated), which is the one comparison a single pass makes that no run could.
 */
import { Worker } from 'node:worker_threads';
import type { FileMetaData } from 'hyparquet';
import { type ByteSource, wholeFileOf } from '../../inspect/shared.js';
import type { TimeFormat } from '../../model/index.js';
import {
  jobsOf,
  joinChannelPart,
  joinTimePart,
  newTimeState,
  shareOf,
  type TimePart,
} from '../../values/index.js';
import {
  columnsOf,
  type OpenedParquet,
  openWithParquetWasm,
  readGroups,
  scanParquetValues,
  type ValueChannel,
  type ValueTallies,
  valueTallier,
  withCompilers,
} from './values.js';
import { parquetWasm } from './wasm.js';

const MiB = 1024 * 1024;

/**
 * Threads share a read from this many of its largest runs (`rangeBytes`, 64 MiB by
 * default: 384 MiB of the columns read); a smaller read stays in this thread, whatever
 * `jobs` asks. A second thread costs a start, and the engine's optimizing compiles on the
 * first thread, which it waits for (withCompilers in values.ts, untilWarm): about 0.5 s of
 * wall time on 2 cores. Measured on 2 cores (bench/check-parquet.bench.ts), 2 jobs against
 * one: 0.95× on 20 M rows (278 MiB), 1.45× on 100 M rows (1.36 GiB); the two meet near
 * 350 MB.
 */
const SHARED_FROM_RUNS = 6;

/** Consecutive row groups a thread reads as one: their indexes, first row (0-based) and rows. */
export interface Run {
  groups: number[];
  base: number;
  rows: number;
}

/** One run's tallies, with its first time value (and its row, 1-based) and its last. */
export interface RunTally {
  tallies: ValueTallies;
  first?: TimePart['head'] | undefined;
  last?: bigint | number | undefined;
}

/** What a lane reads: the file, its columns, and the runs with their shared counter. */
export interface Lane {
  path: string;
  time: string | undefined;
  /** The time column's format: text times are read in it (values/text-times.ts). */
  timeFormat?: TimeFormat | undefined;
  channels: ValueChannel[];
  runs: Run[];
  /** Int32 slot 0: the next run to claim. */
  next: SharedArrayBuffer;
  /**
   * Int32 slot 0: 1 once this thread has decoded its first batch, and with it compiled the
   * functions a read calls; the workers claim runs from then on (untilWarm).
   */
  warm: SharedArrayBuffer;
  /** parquet-wasm's compiled module, shared by the threads (wasm.ts). */
  module?: WebAssembly.Module;
}

/**
 * Threads of a full read: how many, and the largest run of row groups in bytes; and the row
 * groups, from the footer the check has read (it is not read again).
 */
export interface JobsOptions {
  jobs?: number | undefined;
  rangeBytes?: number | undefined;
  metadata: Pick<FileMetaData, 'row_groups'>;
  /** The time column's format: text times are read in it (values/text-times.ts). */
  timeFormat?: TimeFormat | undefined;
}

/** A run's tallies, or the end of a worker's share (with the error that ended it early). */
export type FromParquetWorker = { k: number; result: RunTally } | { end: true; error?: string };

/**
 * The tallies of `check --full` (values.ts): a file on disk of more than one run
 * read by `jobs` threads, any other source in this thread.
 */
export async function scanParquetFull(
  source: string | ByteSource,
  time: string | undefined,
  channels: readonly ValueChannel[],
  o: JobsOptions,
  onProgress?: (done: number, total: number) => void,
): Promise<ValueTallies> {
  const file = typeof source === 'string' ? source : wholeFileOf(source);
  if (file !== undefined) {
    try {
      const shared = await scanParquetJobs(file, time, channels, o, onProgress);
      if (shared) return shared;
    } catch (err) {
      // A file parquet-wasm refuses is read again in this thread, which reads it with
      // hyparquet.
      if (!/Parquet error/i.test(String(err))) throw err;
    }
  }
  return scanParquetValues(source, time, channels, { onProgress, timeFormat: o.timeFormat });
}

/**
 * Reads the file with `jobs` threads and returns its tallies, or undefined when the file is
 * one run (or one job): the caller then reads it in this thread.
 */
async function scanParquetJobs(
  path: string,
  time: string | undefined,
  channels: readonly ValueChannel[],
  o: JobsOptions,
  onProgress?: (done: number, total: number) => void,
): Promise<ValueTallies | undefined> {
  const jobs = jobsOf(o.jobs);
  const shared = sharedRuns(o.metadata, columnsOf(time, channels), jobs, o.rangeBytes);
  if (!shared) return undefined;
  const { runs, bytes } = shared;
  const lane: Lane = {
    path,
    time,
    timeFormat: o.timeFormat,
    // Only what the tallies need crosses to the workers (a channel may carry more).
    channels: channels.map((c) => ({
      column: c.column,
      ptr: c.ptr,
      dataType: c.dataType,
      enumTypes: c.enumTypes,
    })),
    runs,
    next: new SharedArrayBuffer(4),
    warm: new SharedArrayBuffer(4),
  };
  const total = runs.reduce((n, r) => n + r.rows, 0);
  const threads = Math.min(jobs, runs.length);
  const results = await withCompilers(bytes, threads, async () => {
    // Compiled here, under the flags withCompilers sets, before the workers get it.
    lane.module = (await parquetWasm()).module;
    return scanLanes(lane, threads, progressOf(runs, total, onProgress));
  });
  const left = runs.flatMap((_, k) => (results[k] ? [] : [k]));
  if (left.length > 0) {
    // A run a failed worker left without a result is read here.
    const opened = await openWithParquetWasm(path);
    try {
      for (const k of left) results[k] = await scanRun(lane, k, opened);
    } finally {
      await opened.close();
    }
  }
  return joinRuns(results as RunTally[], time !== undefined);
}

/**
 * The runs a read of `columns` is shared in, with their bytes; undefined when it stays in
 * this thread: one job, a read under SHARED_FROM_RUNS of its largest runs (`most`), or one
 * run. At most one thread a core, and one unless `jobs` asks for more (as TDMS and ULog):
 * each worker holds its own parquet-wasm instance (about +20 MiB of peak RSS).
 */
export function sharedRuns(
  metadata: Pick<FileMetaData, 'row_groups'>,
  columns: readonly string[],
  jobs: number,
  most = 64 * MiB,
): { runs: Run[]; bytes: number } | undefined {
  if (jobs === 1) return undefined;
  const groups = rowGroupsOf(metadata, columns);
  const bytes = groups.reduce((n, g) => n + g.bytes, 0);
  if (bytes < SHARED_FROM_RUNS * most) return undefined;
  const runs = planRuns(groups, jobs, most);
  return runs.length < 2 ? undefined : { runs, bytes };
}

/** Each row group's rows and the bytes (compressed) of the columns read in it, from the footer. */
function rowGroupsOf(metadata: Pick<FileMetaData, 'row_groups'>, columns: readonly string[]) {
  const read = new Set(columns);
  return metadata.row_groups.map((g) => ({
    rows: Number(g.num_rows),
    bytes: g.columns.reduce((n, c) => {
      const m = c.meta_data;
      return m && read.has(m.path_in_schema.join('.')) ? n + Number(m.total_compressed_size) : n;
    }, 0),
  }));
}

/**
 * Runs of consecutive row groups for `jobs` threads: each run a share of the bytes left (an
 * even share of half of them a thread), from `most` bytes down to 4 MiB, whole groups each.
 */
export function planRuns(
  groups: ReadonlyArray<{ rows: number; bytes: number }>,
  jobs: number,
  most: number,
): Run[] {
  const least = Math.min(most, 4 * MiB);
  let left = groups.reduce((n, g) => n + g.bytes, 0);
  const runs: Run[] = [];
  let base = 0;
  let g = 0;
  while (g < groups.length) {
    const want = shareOf(left, jobs, least, most);
    const run: Run = { groups: [], base, rows: 0 };
    let bytes = 0;
    while (g < groups.length && (run.groups.length === 0 || bytes < want)) {
      const group = groups[g] as { rows: number; bytes: number };
      run.groups.push(g);
      run.rows += group.rows;
      bytes += group.bytes;
      g += 1;
    }
    left -= bytes;
    base += run.rows;
    runs.push(run);
  }
  return runs;
}

/**
 * Reads run `k` in this thread from the file opened there: its tallies, counting rows from
 * the run's first.
 */
export async function scanRun(
  lane: Lane,
  k: number,
  opened: OpenedParquet,
  onRows?: (rows: number) => void,
) {
  const run = lane.runs[k] as Run;
  const t = valueTallier(lane.time, lane.channels, lane.timeFormat);
  const columns = columnsOf(lane.time, lane.channels);
  const progress = onRows && ((done: number) => onRows(done - run.base));
  const groups = { rowGroups: run.groups, base: run.base };
  const rows = await readGroups(opened, columns, t.feed, progress, groups);
  const out: RunTally = { tallies: t.done(rows), first: t.head(), last: t.timeState?.prev };
  return out;
}

/**
 * Claims runs from the lane's counter and reads them, until none is left. The thread opens
 * the file once for all its runs: its footer read and parsed once, its read buffers kept
 * (file-blob.ts). Opened for each run, the 100 M-row bench file's 30 runs each read its
 * 0.4 MB footer again, and the wasm memory grew with each.
 */
export async function runLane(
  lane: Lane,
  onResult: (k: number, r: RunTally) => void,
  onRows?: (k: number, rows: number) => void,
): Promise<void> {
  const next = new Int32Array(lane.next);
  let opened: OpenedParquet | undefined;
  try {
    for (;;) {
      const k = Atomics.add(next, 0, 1);
      if (k >= lane.runs.length) return;
      opened ??= await openWithParquetWasm(lane.path);
      onResult(k, await scanRun(lane, k, opened, onRows && ((rows) => onRows(k, rows))));
    }
  } finally {
    await opened?.close();
  }
}

/** Rows done (runs finished, and the rows read of those under way), never less than last time. */
function progressOf(
  runs: Run[],
  total: number,
  report: ((done: number, total: number) => void) | undefined,
) {
  const done = new Array<number>(runs.length).fill(0);
  let shown = 0;
  return (k: number, rows: number) => {
    done[k] = rows;
    const sum = done.reduce((n, r) => n + r, 0);
    if (sum <= shown) return;
    shown = sum;
    report?.(shown, total);
  };
}

/**
 * Reads the runs in this thread and `threads - 1` workers (no more threads than runs), all
 * claiming from the lane's counter. A worker that fails leaves its run without a result (the
 * caller reads it again).
 */
async function scanLanes(
  lane: Lane,
  threads: number,
  onRows: (k: number, rows: number) => void,
): Promise<Array<RunTally | undefined>> {
  const results: Array<RunTally | undefined> = new Array(lane.runs.length);
  let left = lane.runs.length;
  let allIn = () => {};
  const complete = new Promise<void>((resolve) => {
    allIn = resolve;
  });
  const keep = (k: number, r: RunTally) => {
    if (results[k] === undefined) left -= 1;
    results[k] = r;
    onRows(k, (lane.runs[k] as Run).rows);
    if (left === 0) allIn();
  };
  const warm = new Int32Array(lane.warm);
  const warmed = () => {
    if (Atomics.exchange(warm, 0, 1) === 0) Atomics.notify(warm, 0);
  };
  const workers = startWorkers(threads - 1, lane, keep);
  try {
    // The workers load meanwhile, and claim runs once this thread's first batch is decoded.
    await runLane(lane, keep, (k, rows) => {
      warmed();
      onRows(k, rows);
    });
    // Every run is claimed now: wait for their results, not for a worker still loading,
    // which has claimed none and will claim none.
    await Promise.race([complete, Promise.all(workers.map((w) => w.finished))]);
  } finally {
    warmed();
    await Promise.all(workers.map((w) => w.worker.terminate()));
  }
  return results;
}

/**
 * In a worker: waits until the lane's first thread has decoded a batch. The compiled code
 * of parquet-wasm is shared by the threads, but each function is compiled by the first
 * thread that calls it, and a thread calling it meanwhile compiles it again: started
 * together, the threads each spent about 0.6 s of CPU (and their compilers' memory) on the
 * same functions. Measured on the bench file with 2 jobs: a worker's first run of 3.9 M rows
 * took 823 ms beside this thread's compiles, 357 ms after them.
 */
export async function untilWarm(lane: Lane): Promise<void> {
  const warm = new Int32Array(lane.warm);
  // Atomics.waitAsync: ES2024, in Node 20; the project's TypeScript lib is older.
  const waitAsync = (
    Atomics as unknown as {
      waitAsync(a: Int32Array, i: number, v: number): { async: boolean; value: unknown };
    }
  ).waitAsync;
  const waited = waitAsync(warm, 0, 0);
  if (!waited.async) return;
  // A wait does not keep a thread's event loop alive: without a timer the worker would end
  // here, its runs read by the first thread alone.
  const alive = setInterval(() => {}, 60_000);
  try {
    await waited.value;
  } finally {
    clearInterval(alive);
  }
}

/** Starts `count` workers on the lane; each one's `finished` resolves when it stops, however. */
function startWorkers(count: number, lane: Lane, onResult: (k: number, r: RunTally) => void) {
  const url = new URL('./worker.js', import.meta.url);
  const workerData: Lane = lane;
  // A worker's values are views of its wasm memory, its garbage is small: a small young
  // generation keeps it smaller. Measured (check --full of the bench file, 2 jobs, peak RSS
  // of the process, two runs each): 1 MiB 171 and 168 MiB, 2 MiB 178 and 174, 4 MiB 196
  // and 200, 16 MiB 184 and 193.
  const resourceLimits = { maxYoungGenerationSizeMb: 2 };
  return Array.from({ length: Math.max(0, count) }, () => {
    const worker = new Worker(url, { workerData, resourceLimits });
    const finished = new Promise<void>((resolve) => {
      worker.on('message', (m: FromParquetWorker) => {
        if ('end' in m) resolve();
        else onResult(m.k, m.result);
      });
      // Its module missing (the code bundled into one file), or a crash: this thread
      // has claimed the runs left, and reads again any run left without a result.
      worker.on('error', () => resolve());
      worker.on('exit', () => resolve());
    });
    return { worker, finished };
  });
}

/**
 * The runs' tallies joined in file order: what one pass over the file tallies. The join is
 * the one TDMS and ULog parts share (values/tally-merge.ts): a run's rows are the file's
 * (no shift), runs follow each other with no rows between them, and a run's first time is
 * the head its join compares with the last time of the runs before.
 */
export function joinRuns(runs: readonly RunTally[], withTime: boolean): ValueTallies {
  const out: ValueTallies = { rows: 0, channels: new Map() };
  const time = newTimeState();
  for (const r of runs) {
    out.rows += r.tallies.rows;
    const t = r.tallies.time;
    if (t) {
      joinTimePart(
        time,
        { tally: t, ...(r.first ? { head: r.first } : {}), prev: r.last, gap: false },
        true,
        0,
      );
    } else if (r.last !== undefined) time.prev = r.last;
    for (const [column, c] of r.tallies.channels) {
      const into = out.channels.get(column);
      if (into) joinChannelPart(into, c, 0);
      else out.channels.set(column, { ...c, unknown: new Map(c.unknown) });
    }
  }
  if (withTime) out.time = time.tally;
  return out;
}
