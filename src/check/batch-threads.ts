/**
 * A folder of many members checked on several cores (values/member-runs.ts): each thread
 * examines its runs' members as the one-thread walk does (batch-member.ts). The results are
 * the same whatever the threads: each member's issues are its own, and the batch sorts
 * them by path. Below 256 members (batch.ts, as `lint --jobs`) the walk stays in this
 * thread.
 */
import { openFolderMember } from '../inspect/index.js';
import type { BatchConfig } from '../model/index.js';
import { eachTwoAtATime, examineMemberRuns, jobsOf } from '../values/index.js';
import { examine, type Seen } from './batch-member.js';
import type { CheckOptions } from './options.js';

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
  await examineMemberRuns({
    worker: new URL('./batch-worker.js', import.meta.url),
    input,
    paths,
    workers: jobsOf(jobs) - 1,
    asTheyPay,
    here: (run) => examineRun(input, run),
    onRun: (results, run) => {
      for (const [k, path] of run.entries()) seen.set(path, results[k] as Seen);
      onDone(seen.size);
    },
  });
  return seen;
}

/** The members of one run, two at a time (a member's reads wait on the disk). */
export function examineRun(input: BatchThreadInput, run: readonly string[]): Promise<Seen[]> {
  return eachTwoAtATime(run, async (path) => {
    const source = await openFolderMember(input.root, path);
    try {
      return await examine(input.batch, path, source, input.options);
    } finally {
      await source.close();
    }
  });
}
