/**
 * `importkit lint` of many files on every core: the files are cut into runs of CHUNK,
 * claimed in turn (a shared counter) by this thread and by `jobs - 1` worker threads
 * (`_lint-worker.ts`), each linting its run as `lint` does one file; the reports come back
 * here and are written in the files' order, so the output is the same at any job count.
 * A worker that cannot start or dies leaves its runs to this thread, which lints again
 * any run left without reports.
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
 * `lintOne` lints one file in this thread.
 */
export async function lintInParallel(
  files: string[],
  jobs: number,
  input: Omit<LintWorkerInput, 'files' | 'claimed'>,
  lintOne: (file: string) => Promise<FileReport>,
  write: (report: FileReport) => void,
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
  // Loaded here: a lint of a few files (a pre-commit hook, an editor) never loads it.
  const { Worker } = await import('node:worker_threads');
  const workers = startWorkers(
    Worker,
    Math.min(jobs, runs) - 1,
    { ...input, files, claimed },
    (k, r) => {
      if (results[k] === undefined && k >= next) results[k] = r;
    },
  );
  try {
    for (let k = claimRun(claimed, runs); k !== undefined; k = claimRun(claimed, runs)) {
      results[k] = await lintRun(k);
      flush();
      // Let the workers' messages in between runs.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(workers.map((w) => w.finished));
  } finally {
    await Promise.all(workers.map((w) => w.worker.terminate()));
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
