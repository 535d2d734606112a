/**
 * A folder of many files inferred on several cores (values/member-runs.ts): each thread
 * examines its runs' members as the one-thread walk does (batch-member.ts), and the draft
 * is assembled from their results sorted by path, so it is the same whatever the threads.
 * Below 256 members (batch.ts) the walk stays in this thread.
 */
import { join } from 'node:path';
import { openFolderMember } from '../inspect/index.js';
import { eachTwoAtATime, examineMemberRuns, jobsOf } from '../values/index.js';
import { examineMember, type MemberResult } from './batch-member.js';
import type { InferOptions } from './types.js';

/** What every worker gets once: the folder, and the options with no callback. */
export interface InferThreadInput {
  root: string;
  options: Omit<InferOptions, 'onProgress'>;
}

/**
 * Examines `paths` (members of the folder `input.root`) in this thread and `jobs - 1`
 * workers: started at once, or with `asTheyPay` only once they pay for their start.
 */
export async function inferInThreads(
  input: InferThreadInput,
  paths: readonly string[],
  jobs: number,
  onDone: (done: number) => void,
  asTheyPay: boolean,
): Promise<MemberResult[]> {
  const results: MemberResult[] = [];
  await examineMemberRuns({
    worker: new URL('./batch-worker.js', import.meta.url),
    input,
    paths,
    workers: jobsOf(jobs) - 1,
    asTheyPay,
    here: (run) => inferRun(input, run),
    onRun: (found) => {
      for (const r of found) results.push(r);
      onDone(results.length);
    },
  });
  return results;
}

/** The members of one run, two at a time, each opened in the folder by its path. */
export function inferRun(input: InferThreadInput, run: readonly string[]): Promise<MemberResult[]> {
  return eachTwoAtATime(run, (path) =>
    examineMember(
      path,
      () => openFolderMember(input.root, path),
      join(input.root, path),
      input.options,
    ),
  );
}
