/**
 * The worker thread of one tool call (`apart.ts`): runs its job, posts progress (at most
 * ten times a second) and then the value, or the issue it failed with, and ends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { failureIssue } from './failure.js';
import { JOBS, type JobName } from './jobs.js';

/** What the worker posts to the server. */
export type FromJob =
  | { type: 'progress'; done: number; total: number }
  | { type: 'done'; value: unknown }
  | { type: 'failed'; issue: ReturnType<typeof failureIssue> };

export interface JobRequest {
  job: JobName;
  input: unknown;
}

const port = parentPort;
if (port) {
  const { job, input } = workerData as JobRequest;
  const send = (m: FromJob) => port.postMessage(m);
  let last = 0;
  const progress = (done: number, total: number) => {
    const now = Date.now();
    if (now - last < 100 && done < total) return;
    last = now;
    send({ type: 'progress', done, total });
  };
  const run = JOBS[job] as (
    input: unknown,
    progress: (d: number, t: number) => void,
  ) => Promise<unknown>;
  run(input, progress).then(
    (value) => send({ type: 'done', value }),
    (err: unknown) => send({ type: 'failed', issue: failureIssue(err) }),
  );
}
