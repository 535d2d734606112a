import { Worker } from 'node:worker_threads';
import type {
  Hdf5Job,
  Hdf5Target,
  JobResult,
  RawTree,
  ReadOptions,
  RowsRequest,
  RowValues,
  SliceRequest,
  SliceValues,
} from './reader.js';

/**
 * Runs `runHdf5Job` in a worker thread (thread.ts) that loads h5wasm (reading the file or
 * the archive member in place) on first use and is kept for later jobs: every read of an HDF5 file goes
 * through here. The worker does not keep the process alive while idle. A job that goes
 * longer than the time limit without an answer (the HDF5 library can loop forever on some
 * damaged metadata) terminates the worker: the next job starts a fresh one. A job over
 * several ranges of rows reports progress after each, and each report starts the time
 * limit again.
 */
export type WorkerResult<T> = JobResult<T> | { ok: false; reason: string; timedOut: true };

type Message = { progress: number } | { done: JobResult<RawTree | SliceValues | RowValues> };

let worker: Worker | undefined;
let queue: Promise<unknown> = Promise.resolve();

function start(): Worker {
  // The thread's module sits beside this one: thread.js in dist/; under the tests, the
  // TypeScript source (the tests' module hooks load it, as for the CSV scan workers).
  const w = new Worker(new URL('./thread.js', import.meta.url), { stdout: false, stderr: false });
  w.unref();
  return w;
}

function runOne(
  job: Hdf5Job,
  timeoutMs: number,
  timeoutReason: string,
  onProgress: (done: number) => void,
): Promise<WorkerResult<RawTree | SliceValues | RowValues>> {
  worker ??= start();
  const w = worker;
  return new Promise((resolve) => {
    const finish = (result: WorkerResult<RawTree | SliceValues | RowValues>, kill: boolean) => {
      clearTimeout(timer);
      w.off('message', onMessage);
      w.off('error', onError);
      w.off('exit', onExit);
      w.unref();
      if (kill) {
        if (worker === w) worker = undefined;
        void w.terminate();
      }
      resolve(result);
    };
    const onMessage = (m: Message) => {
      if ('progress' in m) {
        timer.refresh();
        onProgress(m.progress);
        return;
      }
      finish(m.done, !m.done.ok && m.done.wasmFailure);
    };
    const onError = (e: Error) => finish({ ok: false, reason: e.message, wasmFailure: true }, true);
    const onExit = (code: number) =>
      finish(
        { ok: false, reason: `the reader stopped (exit code ${code})`, wasmFailure: true },
        true,
      );
    const timer = setTimeout(
      () => finish({ ok: false, reason: timeoutReason, timedOut: true }, true),
      timeoutMs,
    );
    w.on('message', onMessage);
    w.on('error', onError);
    w.on('exit', onExit);
    w.ref();
    w.postMessage(job);
  });
}

/** Runs one job in the worker; jobs run one at a time. */
function enqueue<T>(
  job: Hdf5Job,
  timeoutMs: number,
  timeoutReason: string,
  onProgress: (done: number) => void = () => {},
): Promise<WorkerResult<T>> {
  const next = queue.then(() => runOne(job, timeoutMs, timeoutReason, onProgress));
  queue = next.catch(() => undefined);
  return next as Promise<WorkerResult<T>>;
}

function seconds(ms: number): number {
  return Math.round(ms / 1000);
}

/** Reads the tree of one file (and the head and tail of the datasets that may hold time). */
export function readTreeInWorker(
  target: Hdf5Target,
  options: ReadOptions,
  timeoutMs: number,
): Promise<WorkerResult<RawTree>> {
  return enqueue<RawTree>(
    { ...target, kind: 'tree', options },
    timeoutMs,
    `the HDF5 library did not finish reading it within ${seconds(timeoutMs)} s`,
  );
}

/** Reads rows [start, end) of one dataset; the time limit applies to the slice. */
export function readSliceInWorker(
  target: Hdf5Target,
  request: SliceRequest,
  timeoutMs: number,
): Promise<WorkerResult<SliceValues>> {
  return enqueue<SliceValues>(
    { ...target, kind: 'slice', request },
    timeoutMs,
    `the HDF5 library did not finish reading a slice of '${request.dataset}' within ${seconds(timeoutMs)} s`,
  );
}

/** Reads ranges of rows of one dataset; the time limit applies to each range. */
export function readRowsInWorker(
  target: Hdf5Target,
  request: RowsRequest,
  timeoutMs: number,
): Promise<WorkerResult<RowValues>> {
  return enqueue<RowValues>(
    { ...target, kind: 'rows', request },
    timeoutMs,
    `the HDF5 library did not finish reading rows of '${request.dataset}' within ${seconds(timeoutMs)} s`,
  );
}
