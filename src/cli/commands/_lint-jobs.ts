/**
 * `importkit lint` of many files on every core: the files are cut into runs of CHUNK,
 * claimed in turn (a shared counter) by this thread and by `jobs - 1` worker threads
 * (`_lint-worker.ts`), each linting its run as `lint` does one file; the reports come back
 * here and are written in the files' order, so the output is the same at any job count.
 * A worker that cannot start or dies leaves its runs to this thread, which lints again
 * any run left without reports.
 *
 * Without `--jobs`, the workers start only once they pay for their start: this thread
 * lints for a while, and starts them when what is left would take it longer alone than a
 * worker takes to start (see workersPay). A file is linted in a tenth of a millisecond or
 * so, and a worker's start costs as much as thousands of files.
 */
import type { Worker } from 'node:worker_threads';
import type { FileReport } from '../reporters/index.js';

/** Files a claim takes: enough to pay for a message, few enough to share out well. */
export const CHUNK = 32;
/** Fewer files than this are linted in this thread alone: a worker's start costs more. */
export const MIN_FILES_FOR_WORKERS = 256;

/**
 * What a worker costs before its first reports, in wall time: its start, its modules and
 * its first files in cold code. Measured on 2 cores (10,000 configs of bench/many-files,
 * two runs): its first run of CHUNK files came back 350 ms after it was started.
 */
const WORKER_START_MS = 350;

/**
 * How long this thread lints before it measures how fast it goes (the code is still being
 * compiled: at 50 ms, a file took 0.16 to 0.26 ms, against about 0.05 ms later on), and
 * how long it then measures before it decides.
 */
const WARM_MS = 100;
const MEASURE_MS = 50;

/**
 * Whether `workers` more threads shorten a lint of `left` files, at `msPerFile` in this
 * thread. While a worker starts, this thread lints on alone, and what is left after the
 * start is shared: in theory workers pay once what is left would take this thread longer
 * than a start. In practice less is gained: the speed measured early is still that of code
 * being compiled (0.07 to 0.12 ms a file, against about 0.05 ms later), and two threads
 * each slow the other down (together they do about 1.3 to 1.5 times one, on 2 cores). So
 * they start when what is left would take three starts. On 2 cores, default jobs against
 * `--jobs 1` (five alternated runs each): 3,000 configs 0.33-0.43 s against 0.33-0.43 s
 * (no worker); 30,000 configs 1.01-1.26 s against 1.17-1.34 s. With workers started at
 * one start's worth, 10,000 configs took 0.65-0.75 s against 0.59-0.69 s.
 */
export function workersPay(left: number, msPerFile: number, workers: number): boolean {
  return workers > 0 && left * msPerFile > 3 * WORKER_START_MS;
}

/** What a worker is given: the files, the shared counter of runs claimed, and how to lint. */
export interface LintWorkerInput {
  files: string[];
  claimed: Int32Array;
  cwd: string;
  failOn: string;
}

/** A worker's message: the reports of run `k`, or that it has no run left to claim. */
export type FromLintWorker = { k: number; reports: FileReport[] } | { end: true };

/** The next run to lint of `runs`, claimed on the shared counter; undefined when none is left. */
export function claimRun(claimed: Int32Array, runs: number): number | undefined {
  const k = Atomics.add(claimed, 0, 1);
  return k < runs ? k : undefined;
}

/**
 * Lints `files` on `jobs` threads, handing each report to `write` in the files' order.
 * `lintOne` lints one file in this thread. `asked`: the threads were asked for (`--jobs`),
 * and start at once; else they start only when they pay for their start (workersPay).
 */
export async function lintInParallel(
  files: string[],
  jobs: number,
  input: Omit<LintWorkerInput, 'files' | 'claimed'>,
  lintOne: (file: string) => Promise<FileReport>,
  write: (report: FileReport) => void,
  asked = true,
): Promise<void> {
  const runs = Math.ceil(files.length / CHUNK);
  const results: Array<FileReport[] | undefined> = new Array(runs);
  let next = 0;
  const flush = () => {
    for (; next < runs && results[next] !== undefined; next += 1) {
      for (const r of results[next] as FileReport[]) write(r);
      results[next] = []; // written: its reports need not stay in memory
    }
  };
  const lintRun = async (k: number) => {
    const out: FileReport[] = [];
    for (const f of files.slice(k * CHUNK, (k + 1) * CHUNK)) out.push(await lintOne(f));
    return out;
  };
  const claimed = new Int32Array(new SharedArrayBuffer(4));
  const count = Math.min(jobs, runs) - 1;
  const start = async () => {
    // Loaded here: a lint of a few files (a pre-commit hook, an editor) never loads it.
    const { Worker } = await import('node:worker_threads');
    return startWorkers(Worker, count, { ...input, files, claimed }, (k, r) => {
      if (results[k] === undefined && k >= next) results[k] = r;
    });
  };
  let workers = asked ? await start() : undefined;
  const timing = { start: 0, from: 0, files: 0 };
  try {
    for (let k = claimRun(claimed, runs); k !== undefined; k = claimRun(claimed, runs)) {
      results[k] = await lintRun(k);
      flush();
      if (workers === undefined) {
        const pay = decide(
          timing,
          Math.min(CHUNK, files.length - k * CHUNK),
          files.length - (k + 1) * CHUNK,
          count,
        );
        if (pay !== undefined) workers = pay ? await start() : [];
      }
      // Let the workers' messages in between runs.
      if (workers !== undefined && workers.length > 0)
        await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all((workers ?? []).map((w) => w.finished));
  } finally {
    await Promise.all((workers ?? []).map((w) => w.worker.terminate()));
  }
  flush();
  // Runs a worker claimed but never reported (it died): linted here, in order.
  for (let k = next; k < runs; k += 1) {
    if (results[k] === undefined) results[k] = await lintRun(k);
    flush();
  }
}

/**
 * After a run of `linted` files in this thread, with `left` files after it: whether the
 * workers pay (workersPay), at the speed this thread lints at for MEASURE_MS once it has
 * linted for WARM_MS; undefined until then (false at once when no file is left).
 */
function decide(
  timing: { start: number; from: number; files: number },
  linted: number,
  left: number,
  workers: number,
): boolean | undefined {
  if (left <= 0) return false;
  const now = performance.now();
  if (timing.start === 0) timing.start = now;
  if (now - timing.start < WARM_MS) return undefined;
  if (timing.from === 0) {
    timing.from = now;
    return undefined;
  }
  timing.files += linted;
  const spent = now - timing.from;
  return spent < MEASURE_MS ? undefined : workersPay(left, spent / timing.files, workers);
}

function startWorkers(
  Worker: typeof import('node:worker_threads').Worker,
  count: number,
  input: LintWorkerInput,
  onResult: (k: number, reports: FileReport[]) => void,
): Array<{ worker: Worker; finished: Promise<void> }> {
  const url = new URL('./_lint-worker.js', import.meta.url);
  return Array.from({ length: Math.max(0, count) }, () => {
    const worker = new Worker(url, { workerData: input });
    const finished = new Promise<void>((resolve) => {
      worker.on('message', (m: FromLintWorker) => {
        if ('end' in m) resolve();
        else onResult(m.k, m.reports);
      });
      worker.on('error', () => resolve());
      worker.on('exit', () => resolve());
    });
    return { worker, finished };
  });
}
