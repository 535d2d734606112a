/**
 * Members shared by this thread and worker threads, in runs of RUN: `check` and `infer` of
 * a folder of many files (check/batch-threads.ts, infer/batch-threads.ts), `lint` of many
 * configs (cli/commands/_lint-jobs.ts). Each thread examines a run's members as the
 * one-thread walk does and returns one result a member; each run's results are handed over
 * in the members' order, whatever the threads.
 *
 * Of a batch, only a folder is split: its members are files each thread opens by path.
 * An archive is read in one pass in one thread (a tar, a tar.gz) or through one reader (a
 * zip). A worker costs its start (its modules, about 0.3 s) and its memory, which a few
 * members do not win back: the callers keep fewer than MIN_MEMBERS_FOR_WORKERS in this
 * thread, and without `--jobs` start the workers only once they pay for their start
 * (paying-start.ts).
 */
import { runOrdered, startWorkers } from './ordered-pool.js';
import { PayingStart } from './paying-start.js';

/** Members a thread examines per run it takes. */
const RUN = 32;

/**
 * The least members for which the callers share a walk with workers: a worker's start
 * costs more than fewer would take this thread.
 */
export const MIN_MEMBERS_FOR_WORKERS = 256;

export interface MemberRuns<I, R> {
  /** The worker module: it calls `serveParts` with the same examination as `here`. */
  worker: URL;
  /** What every worker gets once (plain data: it is copied to each). */
  input: I;
  /** The members: paths inside the folder, or files. */
  paths: readonly string[];
  /** Worker threads beside this one (none: the members are examined here). */
  workers: number;
  /** Start the workers only once they pay for their start, not at once. */
  asTheyPay: boolean;
  /** Examines a run of members in this thread: one result a member, in order. */
  here: (run: string[]) => Promise<R[]>;
  /** Each run's results, in the order of `paths`. */
  onRun: (results: R[], run: string[]) => void;
}

/** Every member examined by this thread and the workers, each run's results handed over in order. */
export async function examineMemberRuns<I, R>(o: MemberRuns<I, R>): Promise<void> {
  const runs: string[][] = [];
  for (let k = 0; k < o.paths.length; k += RUN) runs.push(o.paths.slice(k, k + RUN));
  // No more threads than runs: a worker with no run to take would cost its start for nothing.
  const workers = Math.max(0, Math.min(o.workers, runs.length - 1));
  const pool = startWorkers(o.worker, o.asTheyPay ? 0 : workers);
  let paying = o.asTheyPay ? new PayingStart(workers) : undefined;
  let examined = 0;
  const here = async (run: string[]) => {
    const results = await o.here(run);
    examined += run.length;
    const pay = paying?.after(run.length, o.paths.length - examined);
    if (pay !== undefined) {
      paying = undefined;
      if (pay) pool.grow(workers);
    }
    return results;
  };
  await runOrdered({
    pool,
    input: o.input,
    parts: runs,
    here,
    // Its next run waits in a worker's queue: this thread, reading a run of its own with
    // blocking reads, would hand it over only when done.
    depth: 2,
    // A run's results are small (a few issues a member, a draft): this thread reads on
    // while the worker, slower a run, finishes the one the join waits for. On
    // bench/many-files (10,000 CSVs checked, 2 jobs), four alternated runs each: 4.22 to
    // 4.59 s with 2 runs ahead a thread, 4.07 to 4.13 s with 8 (this thread read about 180
    // runs of 313, against 150).
    ahead: 8,
    onResult: o.onRun,
  });
}

/** The members of one run, two at a time (a member's reads wait on the disk). */
export async function eachTwoAtATime<R>(
  run: readonly string[],
  examine: (path: string) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(run.length);
  const lane = async (first: number) => {
    for (let k = first; k < run.length; k += 2) out[k] = await examine(run[k] as string);
  };
  await Promise.all([lane(0), lane(1)]);
  return out;
}
