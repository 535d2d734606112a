/**
 * `check --full` of a CSV file on several cores: the data rows are cut into byte ranges,
 * worker threads scan and tally the ranges (csv-range.ts), and the tallies are joined in
 * file order into what one pass over the file counts, byte for byte the same findings.
 *
 * A range after the first starts at a guessed record start (the line start after its
 * split point). Joining checks each guess: the range before must end exactly where the
 * next one started. A range that guessed wrong (its start was inside a quoted field with
 * line breaks), or that could not finish its last record, is scanned again in this thread
 * from where the range before really ended. Memory: each worker holds one read buffer and
 * its range's tally (a few offenders per column), whatever the size of the file.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { scanCsvFile } from '../inspect/index.js';
import { type RangeJob, type RangeResult, scanRange } from './csv-range.js';
import { emptyTally, mergeTally, type Tally, type TallySpec, tallyRecords } from './csv-tally.js';
import type { FromWorker, ToWorker } from './csv-worker.js';

export interface FullScanOptions {
  delimiter: string;
  spec: TallySpec;
  /** The first row whose cells are checked (1-based); the rows before are only counted. */
  checkFrom: number;
  /** True for a gzip file: read from the start in this thread (it cannot be split). */
  gzip?: boolean;
  /** Worker threads, at most one a core. Default: the cores (`os.availableParallelism()`); 1 scans in this thread. */
  jobs?: number;
  /** Bytes per range. Default: the data cut in 4 ranges a job, 8 to 64 MiB each. */
  rangeBytes?: number;
  /** Split offsets instead of even ranges, scanned in this thread (tests). */
  splits?: number[];
  /** Read size (default 1 MiB; tests read small files in small chunks). */
  chunkSize?: number;
  /** Bytes done of the file's size. */
  onProgress?: (done: number, total: number) => void;
}

export interface FullScan {
  tally: Tally;
  /** Records in the file (blank lines and the rows before `checkFrom` included). */
  rows: number;
}

const MiB = 1024 * 1024;

/** Scans every record of the file and tallies the rows from `checkFrom` on. */
export async function scanFull(path: string, size: number, o: FullScanOptions): Promise<FullScan> {
  const progress = o.onProgress;
  if (o.gzip) {
    const { tally, onRecord } = tallyRecords(o.spec, { skipBefore: o.checkFrom });
    await scanCsvFile(path, onRecord, {
      delimiter: o.delimiter,
      ...(o.chunkSize ? { chunkSize: o.chunkSize } : {}),
      ...(progress ? { onProgress: (done: number) => progress(done, size) } : {}),
    });
    return { tally, rows: tally.rows };
  }
  const head = await skipHead(path, o, o.checkFrom - 1);
  if (head.rows < o.checkFrom - 1) return { tally: emptyTally(o.spec), rows: head.rows };
  // More workers than cores would only share them, and each costs its memory (~10 MB).
  const cores = availableParallelism();
  const jobs = Math.max(1, Math.min(cores, Math.floor(o.jobs ?? cores)));
  // One job reads the data as one range, from its known start: no guess to check.
  const splits =
    o.splits ??
    (jobs === 1 ? [] : evenSplits(head.offset, size, o.rangeBytes ?? rangeBytes(size, jobs)));
  const ranges = rangesOf(path, o, head.offset, size, splits);
  const done = new Float64Array(ranges.length);
  const onRange = (k: number, bytes: number) => {
    done[k] = bytes;
    if (progress) progress(Math.min(size, head.offset + done.reduce((a, b) => a + b, 0)), size);
  };
  const results =
    jobs === 1 || ranges.length === 1 || o.splits
      ? await scanInline(ranges, onRange)
      : await scanInWorkers(ranges, jobs, onRange).catch((e: unknown) => {
          // The worker's module is not there (the code was bundled into one file): the
          // same scan in this thread.
          if (!isModuleNotFound(e)) throw e;
          return scanInline(ranges, onRange);
        });
  const tally = emptyTally(o.spec);
  const rows = await join(tally, ranges, results, head);
  return { tally, rows: head.rows + rows };
}

function isModuleNotFound(e: unknown): boolean {
  const code = (e as { code?: unknown } | undefined)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
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

function rangeBytes(size: number, jobs: number): number {
  return Math.min(64 * MiB, Math.max(8 * MiB, Math.ceil(size / (jobs * 4))));
}

function evenSplits(from: number, size: number, step: number): number[] {
  const out: number[] = [];
  for (let at = from + step; at < size; at += step) out.push(at);
  return out;
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
 * range whose guessed start is not where the range before ended, or that did not finish.
 * Returns the records read.
 */
async function join(
  tally: Tally,
  ranges: RangeJob[],
  results: RangeResult[],
  head: { rows: number; lines: number; offset: number },
): Promise<number> {
  let expected = head.offset;
  let rowBase = head.rows;
  let lineBase = head.lines;
  for (let k = 0; k < ranges.length; k++) {
    let r = results[k] as RangeResult;
    if (r.start !== expected || !r.finished) {
      r = await scanRange({ ...(ranges[k] as RangeJob), start: expected, exact: true });
    }
    mergeTally(tally, r.tally, rowBase, lineBase);
    rowBase += r.rows;
    lineBase += r.lines;
    expected = r.endOffset;
  }
  return rowBase - head.rows;
}

async function scanInline(
  ranges: RangeJob[],
  onRange: (k: number, bytes: number) => void,
): Promise<RangeResult[]> {
  const out: RangeResult[] = [];
  for (const [k, job] of ranges.entries()) out.push(await scanRange(job, (n) => onRange(k, n)));
  return out;
}

/** Runs the ranges on a pool of `jobs` worker threads, each taking the next range when free. */
async function scanInWorkers(
  ranges: RangeJob[],
  jobs: number,
  onRange: (k: number, bytes: number) => void,
): Promise<RangeResult[]> {
  const url = new URL('./csv-worker.js', import.meta.url);
  // A worker allocates next to nothing per record: a small young generation keeps its
  // memory small (a few MB less a worker).
  const options = { resourceLimits: { maxYoungGenerationSizeMb: 2 } };
  const pool = Array.from(
    { length: Math.min(jobs, ranges.length) },
    () => new Worker(url, options),
  );
  const results: RangeResult[] = new Array(ranges.length);
  let next = 0;
  const drain = async (w: Worker) => {
    while (next < ranges.length) {
      const k = next++;
      results[k] = await runOn(w, k, ranges[k] as RangeJob, onRange);
    }
  };
  try {
    await Promise.all(pool.map(drain));
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
  return results;
}

function runOn(
  w: Worker,
  id: number,
  job: RangeJob,
  onRange: (k: number, bytes: number) => void,
): Promise<RangeResult> {
  return new Promise((resolve, reject) => {
    const off = () => {
      w.off('message', onMessage);
      w.off('error', onError);
      w.off('exit', onExit);
    };
    const onMessage = (m: FromWorker) => {
      if ('progress' in m) return onRange(id, m.progress);
      off();
      if ('result' in m) {
        onRange(id, m.result.endOffset - m.result.start);
        resolve(m.result);
      } else reject(new Error(m.error));
    };
    const onError = (e: Error) => {
      off();
      reject(e);
    };
    const onExit = (code: number) => {
      off();
      reject(new Error(`the CSV scan worker stopped (exit code ${code})`));
    };
    w.on('message', onMessage);
    w.on('error', onError);
    w.on('exit', onExit);
    w.postMessage({ id, job } satisfies ToWorker);
  });
}
