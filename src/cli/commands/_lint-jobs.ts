/**
 * `importkit lint` of many files on every core: the files are cut into runs of CHUNK,
 * claimed in turn (a shared counter) by this thread and by `jobs - 1` worker threads
 * (`_lint-worker.ts`), each linting its run as `lint` does one file; the reports come back
 * here and are written in the files' order, so the output is the same at any job count.
 * A worker that cannot start or dies leaves its runs to this thread, which lints again
 * any run left without reports.
 *
 * Without `--jobs`, the workers start only once they pay for their start
 * (values/paying-start.ts): a file is linted in a tenth of a millisecond or so, and a
 * worker's start costs as much as thousands of files. On 2 cores, default jobs against
 * `--jobs 1` (five alternated runs each): 3,000 configs 0.33-0.43 s against 0.33-0.43 s
 * (no worker started; with one started at once, 0.58-0.63 s against 0.40-0.55 s); 30,000
 * configs 1.04-1.45 s against 1.19-1.52 s.
 */
import type { Worker } from 'node:worker_threads';
import type { FileReport } from '../reporters/index.js';

/** Files a claim takes: enough to pay for a message, few enough to share out well. */
export const CHUNK = 32;
/** Fewer files than this are linted in this thread alone: a worker's start costs more. */
export const MIN_FILES_FOR_WORKERS = 256;

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
 * and start at once; else they start only when they pay for their start (PayingStart).
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
  // Loaded here, not with `lint`: a lint of one file starts sooner without it.
  const paying = asked ? undefined : new (await import('../../values/index.js')).PayingStart(count);
  try {
    for (let k = claimRun(claimed, runs); k !== undefined; k = claimRun(claimed, runs)) {
      results[k] = await lintRun(k);
      flush();
      if (workers === undefined) {
        const linted = Math.min(CHUNK, files.length - k * CHUNK);
        const pay = paying?.after(linted, files.length - k * CHUNK - linted);
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
