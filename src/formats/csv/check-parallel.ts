/**
 * `check --full` of a CSV file on several cores: the data rows are cut into byte ranges,
 * threads scan and tally the ranges (check-range.ts), and the tallies are joined in file
 * order into what one pass over the file counts, byte for byte the same findings.
 *
 * With N jobs, this thread and N - 1 worker threads share the ranges: each claims the next
 * range not yet taken (a shared counter), so a thread that is slower (a busy core, a late
 * start) simply takes fewer. This thread starts at once, while the workers load. The
 * ranges shrink towards the end of the file, so the threads finish close together.
 *
 * A range after the first starts at a guessed record start (the line start after its
 * split point). Joining checks each guess: the range before must end exactly where the
 * next one started. A range that guessed wrong (its start was inside a quoted field with
 * line breaks), that could not finish its last record, or whose worker failed, is scanned
 * again in this thread from where the range before really ended. Memory: each thread
 * holds one read buffer and its range's tally (a few offenders per column), and each
 * range's result is a tally, whatever the size of the file.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ByteSource } from '../../inspect/shared.js';
import { shareOf } from '../../values/index.js';
import {
  type Lanes,
  lanesOf,
  type RangeJob,
  type RangeResult,
  runLane,
  scanRange,
} from './check-range.js';
import { emptyTally, mergeTally, type Tally, type TallySpec, tallyRecords } from './check-tally.js';
import type { FromWorker, WorkerInput } from './check-worker.js';
import { scanCsvFile } from './scan.js';

export interface FullScanOptions {
  delimiter: string;
  spec: TallySpec;
  /** The first row whose cells are checked (1-based); the rows before are only counted. */
  checkFrom: number;
  /** True for a gzip file: read from the start in this thread (it cannot be split). */
  gzip?: boolean;
  /**
   * Threads, at most one a core: this one and `jobs - 1` workers. Default: the cores
   * (`os.availableParallelism()`); 1 scans in this thread.
   */
  jobs?: number;
  /** The largest range, in bytes (default 64 MiB); ranges shrink to 4 MiB at the end. */
  rangeBytes?: number;
  /** Split offsets instead of planned ranges, scanned in this thread (tests). */
  splits?: number[];
  /** Read size (default 1 MiB; tests read small files in small chunks). */
  chunkSize?: number;
  /** Bytes done of the file's size. */
  onProgress?: (done: number, total: number) => void;
  /** Workers started before the head was read (earlyWorkers), given the ranges when known. */
  workers?: ScanWorker[] | undefined;
}

export interface FullScan {
  tally: Tally;
  /** Records in the file (blank lines and the rows before `checkFrom` included). */
  rows: number;
  /** Ranges scanned again in this thread (a wrong guess of their start, or a failed worker). */
  rescanned: number;
}

const MiB = 1024 * 1024;

/**
 * Scans every record of the file and tallies the rows from `checkFrom` on. The workers open
 * the file by its path: a source that is not a file on disk (an archive's member), like a
 * gzip file, is scanned from its start in this thread.
 */
export async function scanFull(
  path: string | ByteSource,
  size: number,
  o: FullScanOptions,
): Promise<FullScan> {
  const progress = o.onProgress;
  if (o.gzip || typeof path !== 'string') {
    const { tally, onRecord } = tallyRecords(o.spec, { skipBefore: o.checkFrom });
    await scanCsvFile(path, onRecord, {
      delimiter: o.delimiter,
      ...(o.chunkSize ? { chunkSize: o.chunkSize } : {}),
      ...(progress ? { onProgress: (done: number) => progress(done, size) } : {}),
    });
    return { tally, rows: tally.rows, rescanned: 0 };
  }
  const head = await skipHead(path, o, o.checkFrom - 1);
  if (head.rows < o.checkFrom - 1)
    return { tally: emptyTally(o.spec), rows: head.rows, rescanned: 0 };
  const jobs = o.splits ? 1 : threadsOf(o.jobs);
  // One job reads the data as one range, from its known start: no guess to check.
  const splits =
    o.splits ?? (jobs === 1 ? [] : planSplits(head.offset, size, jobs, o.rangeBytes ?? 64 * MiB));
  const ranges = rangesOf(path, o, head.offset, size, splits);
  const lanes = lanesOf(ranges.length);
  const report = progress ? progressOf(lanes, head.offset, size, progress) : undefined;
  const results = await scanLanes(ranges, lanes, jobs, report, o.workers);
  const tally = emptyTally(o.spec);
  const { rows, rescanned } = await join(tally, ranges, results, head);
  progress?.(size, size);
  return { tally, rows: head.rows + rows, rescanned };
}

/** Threads of a scan (a check's, a normalize's): the cores unless `jobs` asks for fewer, at least one. */
export function threadsOf(jobs: number | undefined): number {
  // More threads than cores would only share them, and each costs its memory (~10 MB).
  const cores = availableParallelism();
  return Math.max(1, Math.min(cores, Math.floor(jobs ?? cores)));
}

/**
 * The workers of a full scan of a file of `size` bytes, started before its head is read:
 * they load while this thread reads the head, and get their ranges when the scan begins.
 * On bench/check (1 GB, 2 jobs), a worker started with the scan began its first range
 * 170 ms after this thread began its own; this thread read the head for 280 ms before.
 * None when one thread would scan the file. The caller terminates them when its check
 * ends, whether the scan used them or not (a file with no data rows is not scanned).
 */
export function earlyWorkers(
  size: number,
  o: Pick<FullScanOptions, 'jobs' | 'rangeBytes'>,
): ScanWorker[] {
  const jobs = threadsOf(o.jobs);
  if (jobs === 1) return [];
  const ranges = planSplits(0, size, jobs, o.rangeBytes ?? 64 * MiB).length + 1;
  return startWorkers(Math.min(jobs, ranges) - 1);
}

/** Reads the first `rows` records (the rows before the checked ones): where the next one starts. */
async function skipHead(path: string, o: FullScanOptions, rows: number) {
  if (rows <= 0) return { rows: 0, lines: 0, offset: 0 };
  const r = await scanCsvFile(path, () => undefined, {
    delimiter: o.delimiter,
    maxRows: rows,
    ...(o.chunkSize ? { chunkSize: o.chunkSize } : {}),
  });
  return { rows: r.rows, lines: r.lines - 1, offset: r.endOffset };
}

/**
 * Split points from `from` to `size` for `jobs` threads: each range a share of what is
 * left (an even share of half of it a thread), from `most` bytes down to 4 MiB, so the
 * last ranges, which decide when the threads finish, are short.
 */
export function planSplits(from: number, size: number, jobs: number, most: number): number[] {
  const least = Math.min(most, 4 * MiB);
  const out: number[] = [];
  let at = from;
  for (;;) {
    at += shareOf(size - at, jobs, least, most);
    if (at >= size) return out;
    out.push(at);
  }
}

/** Calls `report` with the bytes read so far (never less than last time). */
function progressOf(
  lanes: Lanes,
  from: number,
  size: number,
  report: (done: number, total: number) => void,
): () => void {
  let shown = 0;
  return () => {
    let done = from;
    for (const bytes of lanes.done) done += bytes;
    shown = Math.max(shown, Math.min(size, done));
    report(shown, size);
  };
}

function rangesOf(
  path: string,
  o: FullScanOptions,
  from: number,
  size: number,
  splits: number[],
): RangeJob[] {
  const points = [...new Set(splits.filter((s) => s > from && s < size))].sort((a, b) => a - b);
  const starts = [from, ...points];
  return starts.map((start, k) => ({
    path,
    delimiter: o.delimiter,
    spec: o.spec,
    start,
    exact: k === 0,
    stopAt: starts[k + 1] ?? size,
    ...(o.chunkSize ? { chunkSize: o.chunkSize } : {}),
  }));
}

/**
 * Folds the range results into `tally` in file order, scanning again (in this thread) a
 * range whose guessed start is not where the range before ended, that did not finish, or
 * that has no result (its worker failed).
 * Returns the records read and the ranges scanned again.
 */
async function join(
  tally: Tally,
  ranges: RangeJob[],
  results: Array<RangeResult | undefined>,
  head: { rows: number; lines: number; offset: number },
): Promise<{ rows: number; rescanned: number }> {
  let expected = head.offset;
  let rowBase = head.rows;
  let lineBase = head.lines;
  let rescanned = 0;
  for (let k = 0; k < ranges.length; k++) {
    let r = results[k];
    if (!r || r.start !== expected || !r.finished) {
      r = await scanRange({ ...(ranges[k] as RangeJob), start: expected, exact: true });
      rescanned += 1;
    }
    mergeTally(tally, r.tally, rowBase, lineBase);
    rowBase += r.rows;
    lineBase += r.lines;
    expected = r.endOffset;
  }
  return { rows: rowBase - head.rows, rescanned };
}

/**
 * Scans the ranges in this thread and `jobs - 1` workers (`started`, or new ones), all
 * claiming from `lanes`. A worker that fails leaves its range without a result: `join` scans
 * it again.
 */
async function scanLanes(
  ranges: RangeJob[],
  lanes: Lanes,
  jobs: number,
  report: (() => void) | undefined,
  started: ScanWorker[] | undefined,
): Promise<Array<RangeResult | undefined>> {
  const results: Array<RangeResult | undefined> = new Array(ranges.length);
  let left = ranges.length;
  let allIn = () => {};
  const complete = new Promise<void>((resolve) => {
    allIn = resolve;
  });
  const keep = (k: number, r: RangeResult) => {
    if (results[k] === undefined) left -= 1;
    results[k] = r;
    if (left === 0) allIn();
  };
  // Workers not started ahead (none were: a source not known to be a file on disk) start now.
  const workers = started?.length ? started : startWorkers(Math.min(jobs, ranges.length) - 1);
  for (const w of workers) w.give({ ranges, lanes }, keep);
  // While this thread waits for the workers, the progress is read from the shared state.
  const tick = report ? setInterval(report, 100) : undefined;
  try {
    await runLane(ranges, lanes, keep, report);
    // Every range is claimed now: wait for their results, not for a worker still loading
    // (a small file), which has claimed none and will claim none.
    await Promise.race([complete, Promise.all(workers.map((w) => w.finished))]);
  } finally {
    clearInterval(tick);
    await Promise.all(workers.map((w) => w.worker.terminate()));
  }
  return results;
}

/** A worker of a scan: started, then given the scan (`give`); `finished` when it stops, however. */
export interface ScanWorker {
  worker: Worker;
  finished: Promise<void>;
  give(input: WorkerInput, onResult: (k: number, r: RangeResult) => void): void;
}

/** Starts `count` workers, each waiting for its scan. */
function startWorkers(count: number): ScanWorker[] {
  const url = new URL('./check-worker.js', import.meta.url);
  // A worker allocates next to nothing per record: a small young generation keeps its
  // memory small (a few MB less a worker).
  const options = { resourceLimits: { maxYoungGenerationSizeMb: 2 } };
  return Array.from({ length: Math.max(0, count) }, () => {
    const worker = new Worker(url, options);
    let onResult: ((k: number, r: RangeResult) => void) | undefined;
    const finished = new Promise<void>((resolve) => {
      worker.on('message', (m: FromWorker) => {
        if ('end' in m) resolve();
        else onResult?.(m.k, m.result);
      });
      // Its module missing (the code bundled into one file), or a crash: this thread
      // has claimed the ranges left, and scans again any range left without a result.
      worker.on('error', () => resolve());
      worker.on('exit', () => resolve());
    });
    const give = (input: WorkerInput, to: (k: number, r: RangeResult) => void) => {
      onResult = to;
      worker.postMessage(input);
    };
    return { worker, finished, give };
  });
}
