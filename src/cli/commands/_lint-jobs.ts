/**
 * `importkit lint` of many files on every core: the files are shared in runs by this thread
 * and `jobs - 1` worker threads (`_lint-worker.ts`) as a folder's members are by `check`
 * and `infer` (values/member-runs.ts), each linting its run as `lint` does one file; each
 * run's reports are written in the files' order, so the output is the same at any job
 * count. A worker that cannot start or dies leaves its runs to this thread.
 *
 * Without `--jobs`, the workers start only once they pay for their start
 * (values/paying-start.ts): a file is linted in a tenth of a millisecond or so, and a
 * worker's start costs as much as thousands of files. On 2 cores, default jobs against
 * `--jobs 1` (five alternated runs each): 3,000 configs 0.33-0.43 s against 0.33-0.43 s
 * (no worker started; with one started at once, 0.58-0.63 s against 0.40-0.55 s); 30,000
 * configs 1.04-1.45 s against 1.19-1.52 s.
 */
import type { FileReport } from '../reporters/index.js';

/**
 * Fewer files than this are linted in this thread alone: a worker's start costs more. The
 * same as values' MIN_MEMBERS_FOR_WORKERS (a test holds them equal), written here so that
 * `lint` of a few files does not load values/ to know it.
 */
export const MIN_FILES_FOR_WORKERS = 256;

/** What every worker is given once: how to lint. */
export interface LintWorkerInput {
  cwd: string;
  failOn: string;
}

/** Lints a run of files one after another: their reports, in order. */
export async function lintRun(
  run: readonly string[],
  lintOne: (file: string) => Promise<FileReport>,
): Promise<FileReport[]> {
  const out: FileReport[] = [];
  for (const f of run) out.push(await lintOne(f));
  return out;
}

/**
 * Lints `files` on `jobs` threads, handing each report to `write` in the files' order.
 * `lintOne` lints one file in this thread. `asked`: the threads were asked for (`--jobs`),
 * and start at once; else they start only when they pay for their start (PayingStart).
 */
export async function lintInParallel(
  files: string[],
  jobs: number,
  input: LintWorkerInput,
  lintOne: (file: string) => Promise<FileReport>,
  write: (report: FileReport) => void,
  asked = true,
): Promise<void> {
  // Loaded here, not with `lint`: a lint of a few files (a pre-commit hook, an editor)
  // starts sooner without the worker pool.
  const { examineMemberRuns } = await import('../../values/index.js');
  await examineMemberRuns({
    worker: new URL('./_lint-worker.js', import.meta.url),
    input,
    paths: files,
    workers: jobs - 1,
    asTheyPay: !asked,
    here: (run) => lintRun(run, lintOne),
    onRun: (reports) => {
      for (const r of reports) write(r);
    },
  });
}
