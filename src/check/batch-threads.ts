/**
 * A folder of many members checked on several cores: the members, in runs of RUN, are
 * shared by this thread and worker threads (values/ordered-pool.ts), each examining its
 * run's members as the one-thread walk does (batch-member.ts). The results are the same
 * whatever the threads: each member's issues are its own, and the batch sorts them by path.
 *
 * Only a folder is split: its members are files each thread opens by path. An archive is
 * read in one pass in this thread (a tar, a tar.gz) or through one reader (a zip). A worker
 * costs its start (its modules, about 0.3 s) and its memory, which a few members do not
 * win back: below 256 members (batch.ts, as `lint --jobs`) the walk stays in this thread.
 */
import { openFolderMember } from '../inspect/index.js';
import type { BatchConfig } from '../model/index.js';
import { jobsOf, PayingStart, runOrdered, startWorkers } from '../values/index.js';
import { examine, type Seen } from './batch-member.js';
import type { CheckOptions } from './options.js';

/** Members a thread examines per run it takes. */
const RUN = 32;

/** What every worker gets once. */
export interface BatchThreadInput {
  batch: BatchConfig;
  root: string;
  options: MemberOptions;
}

/** The options a member is checked with that cross to a worker (no callback). */
type MemberOptions = Omit<CheckOptions, 'onProgress'>;

/**
 * Examines `paths` (members of the folder `root`) in this thread and `jobs - 1` workers (at
 * most one thread a core): started at once, or with `asTheyPay` only once they pay for
 * their start (values/paying-start.ts), this thread examining runs alone until then.
 * `onDone` gets the members done so far.
 */
export async function examineInThreads(
  input: BatchThreadInput,
  paths: readonly string[],
  jobs: number,
  onDone: (done: number) => void,
  asTheyPay = false,
): Promise<Map<string, Seen>> {
  const seen = new Map<string, Seen>();
  const runs: string[][] = [];
  for (let k = 0; k < paths.length; k += RUN) runs.push(paths.slice(k, k + RUN));
  let done = 0;
  const workers = jobsOf(jobs) - 1;
  const pool = startWorkers(new URL('./batch-worker.js', import.meta.url), asTheyPay ? 0 : workers);
  let paying = asTheyPay ? new PayingStart(workers) : undefined;
  let examined = 0;
  const here = async (run: string[]) => {
    const results = await examineRun(input, run);
    examined += run.length;
    const pay = paying?.after(run.length, paths.length - examined);
    if (pay !== undefined) {
      paying = undefined;
      if (pay) pool.grow(workers);
    }
    return results;
  };
  await runOrdered({
    pool,
    input,
    parts: runs,
    here,
    // Its next run waits in a worker's queue: this thread, reading a run of its own with
    // blocking reads, would hand it over only when done.
    depth: 2,
    // A run's results are a few issues a member: this thread reads on while the worker,
    // slower a run, finishes the one the join waits for. On bench/many-files (10,000 CSVs,
    // 2 jobs), four alternated runs each: 4.22 to 4.59 s with 2 runs ahead a thread, 4.07
    // to 4.13 s with 8 (this thread read about 180 runs of 313, against 150).
    ahead: 8,
    onResult: (results: Seen[], run: string[]) => {
      for (const [k, path] of run.entries()) seen.set(path, results[k] as Seen);
      done += run.length;
      onDone(done);
    },
  });
  return seen;
}

/** The members of one run, two at a time (a member's reads wait on the disk). */
export async function examineRun(input: BatchThreadInput, run: readonly string[]): Promise<Seen[]> {
  const out: Seen[] = new Array(run.length);
  const lane = async (first: number) => {
    for (let k = first; k < run.length; k += 2) {
      const path = run[k] as string;
      const source = await openFolderMember(input.root, path);
      try {
        out[k] = await examine(input.batch, path, source, input.options);
      } finally {
        await source.close();
      }
    }
  };
  await Promise.all([lane(0), lane(1)]);
  return out;
}
