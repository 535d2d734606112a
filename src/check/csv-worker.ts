/**
 * The worker thread of a parallel CSV `--full` check: scans the ranges it is sent, one at
 * a time, and answers with each range's tally (csv-range.ts). Progress goes back as bytes
 * read, at most every 4 MiB.
 */
import { parentPort } from 'node:worker_threads';
import { type RangeJob, scanRange } from './csv-range.js';

export type ToWorker = { id: number; job: RangeJob };
export type FromWorker =
  | { id: number; progress: number }
  | { id: number; result: Awaited<ReturnType<typeof scanRange>> }
  | { id: number; error: string };

const PROGRESS_STEP = 4 * 1024 * 1024;

const port = parentPort;
if (port) {
  port.on('message', async ({ id, job }: ToWorker) => {
    const send = (m: FromWorker) => port.postMessage(m);
    let reported = 0;
    try {
      const result = await scanRange(job, (done) => {
        if (done - reported < PROGRESS_STEP) return;
        reported = done;
        send({ id, progress: done });
      });
      send({ id, result });
    } catch (e) {
      send({ id, error: e instanceof Error ? e.message : String(e) });
    }
  });
}
