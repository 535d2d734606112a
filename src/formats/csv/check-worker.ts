/**
 * A worker thread of a parallel CSV `--full` check. Started before the file's head is read,
 * it loads its modules, then gets every range of the file and the scan's shared state in
 * its first message, claims and scans ranges with blocking reads, posting each range's
 * tally, until none is left (check-range.ts `runLane`); then it posts `end`. The bytes it has
 * read go into the shared state, not into messages.
 */
import { parentPort } from 'node:worker_threads';
import { type Lanes, type RangeJob, type RangeResult, runLane } from './check-range.js';

export interface WorkerInput {
  ranges: RangeJob[];
  lanes: Lanes;
}

/** A range's result, or the end of the worker's share (with the error that ended it early). */
export type FromWorker = { k: number; result: RangeResult } | { end: true; error?: string };

const port = parentPort;
port?.once('message', ({ ranges, lanes }: WorkerInput) => {
  const send = (m: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);
  const blocking = ranges.map((job) => ({ ...job, syncReads: true }));
  runLane(blocking, lanes, (k, result) => {
    // The field counts' buffer moves to the main thread instead of being copied.
    send({ k, result }, [result.tally.fieldCounts.buffer as ArrayBuffer]);
  })
    .then(() => send({ end: true }))
    // The main thread scans a range left with no result itself (and meets the error there).
    .catch((e: unknown) => send({ end: true, error: e instanceof Error ? e.message : String(e) }));
});
