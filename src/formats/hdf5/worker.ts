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
import type { RangeTally, TallyJob, TallyRequest } from './slice-tally.js';

/**
 * Runs `runHdf5Job` in a worker thread (thread.ts) that loads h5wasm (reading the file or
 * the archive member in place) on first use and is kept for later jobs: every read of an HDF5 file goes
 * through here. The worker does not keep the process alive while idle. A job that goes
 * longer than the time limit without an answer (the HDF5 library can loop forever on some
 * damaged metadata) terminates the worker: the next job starts a fresh one. A job over
 * several ranges of rows reports progress after each, and each report starts the time
 * limit again. A `check --full` of several jobs (jobs.ts) adds threads of its own, each
 * with its own worker and queue, and the same time limit.
 */
export type WorkerResult<T> = JobResult<T> | { ok: false; reason: string; timedOut: true };

type Answer = RawTree | SliceValues | RowValues | RangeTally;
type Message = { progress: number } | { done: JobResult<Answer> };

/** One HDF5 thread: its worker (started on first use, and again after one was stopped) and its jobs' queue. */
export interface Hdf5Thread {
  worker?: Worker | undefined;
  queue: Promise<unknown>;
}

/** The thread every read goes through, unless a read of several jobs brings its own. */
const shared: Hdf5Thread = { queue: Promise.resolve() };

function start(): Worker {
  // The thread's module sits beside this one: thread.js in dist/; under the tests, the
  // TypeScript source (the tests' module hooks load it, as for the CSV scan workers).
  const w = new Worker(new URL('./thread.js', import.meta.url), { stdout: false, stderr: false });
  w.unref();
  return w;
}

function runOne(
  thread: Hdf5Thread,
  job: Hdf5Job | TallyJob,
  timeoutMs: number,
  timeoutReason: string,
  onProgress: (done: number) => void,
): Promise<WorkerResult<Answer>> {
  thread.worker ??= start();
  const w = thread.worker;
  return new Promise((resolve) => {
    const finish = (result: WorkerResult<Answer>, kill: boolean) => {
      clearTimeout(timer);
      w.off('message', onMessage);
      w.off('error', onError);
      w.off('exit', onExit);
      w.unref();
      if (kill) {
        if (thread.worker === w) thread.worker = undefined;
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

/** Runs one job in a thread's worker (the shared one by default); jobs run one at a time. */
function enqueue<T>(
  job: Hdf5Job | TallyJob,
  timeoutMs: number,
  timeoutReason: string,
  onProgress: (done: number) => void = () => {},
  thread: Hdf5Thread = shared,
): Promise<WorkerResult<T>> {
  const next = thread.queue.then(() => runOne(thread, job, timeoutMs, timeoutReason, onProgress));
  thread.queue = next.catch(() => undefined);
  return next as Promise<WorkerResult<T>>;
}

/**
 * Threads of their own that a read of several jobs is done with, kept for the next such
 * read (the next file of a batch, the next check) until none has come for `IDLE_MS`: each
 * holds its own h5wasm and its wasm heap. Idle, they keep the process from exiting no more
 * than the shared one does.
 */
const spare: Hdf5Thread[] = [];
const IDLE_MS = 5_000;
let idle: ReturnType<typeof setTimeout> | undefined;

/**
 * `count` threads for one read of several jobs: the shared one and `count - 1` of their own
 * (spare ones, else new ones, each loading its own h5wasm on its first job). Give them back
 * with `closeThreads`.
 */
export function hdf5Threads(count: number): Hdf5Thread[] {
  const own: Hdf5Thread[] = [];
  while (own.length < count - 1) own.push(spare.pop() ?? { queue: Promise.resolve() });
  return [shared, ...own];
}

/** Gives back the threads of `hdf5Threads` once their jobs are done; stops them when idle. */
export async function closeThreads(threads: readonly Hdf5Thread[]): Promise<void> {
  for (const t of threads) {
    if (t === shared) continue;
    await t.queue;
    spare.push(t);
  }
  clearTimeout(idle);
  idle = setTimeout(() => {
    for (const t of spare.splice(0)) {
      const w = t.worker;
      t.worker = undefined;
      void w?.terminate();
    }
  }, IDLE_MS);
  idle.unref();
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

/**
 * Reads a range of rows of one part in `thread` into a tally (slice-tally.ts); the time
 * limit applies to each slice of it (each slice's progress starts it again).
 */
export function tallyInWorker(
  thread: Hdf5Thread,
  target: Hdf5Target,
  request: TallyRequest,
  timeoutMs: number,
  onProgress?: (done: number) => void,
): Promise<WorkerResult<RangeTally>> {
  return enqueue<RangeTally>(
    { ...target, kind: 'tally', request },
    timeoutMs,
    `the HDF5 library did not finish reading a slice of '${request.slice.dataset}' within ${seconds(timeoutMs)} s`,
    onProgress,
    thread,
  );
}
