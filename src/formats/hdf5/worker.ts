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
/** What the worker answers about the job of that `id`. */
type Message = { id: number } & ({ progress: number } | { done: JobResult<Answer> });

/**
 * One HDF5 thread: its worker (started on first use, and again after one was stopped) and
 * its jobs. Two jobs are sent at a time: the worker starts the second as soon as it has
 * answered the first, not a round trip later (on a file of 3,000 small datasets, one slice
 * job each, the round trips had both threads idle most of the time).
 */
export interface Hdf5Thread {
  worker?: Worker | undefined;
  /** Settles once the last job given has its answer: the next one starts then. */
  queue: Promise<unknown>;
  /** Settles once the job before the last has its answer: the next one is sent then. */
  sent?: Promise<unknown>;
  /**
   * The jobs sent and not answered, in the order sent, each with its worker (`runOne`): the
   * worker keeps the process alive while there are any.
   */
  sentJobs: Set<SentJob>;
}

/** A job with a worker: stopped for a job before it, it is sent again (`again`). */
interface SentJob {
  worker: Worker;
  /**
   * Sends the job to the thread's new worker, its time limit from `started`; settles with its
   * answer. Dropped once the job has its answer, which it reaches (a slice's values): kept,
   * bench/check-hdf5 with one job peaked at 159 to 175 MiB in seven runs, against 152 to
   * 160 MiB dropped. What still held the job after it left the set is not known.
   */
  again: ((started: Promise<unknown>) => Promise<unknown>) | undefined;
}

/** The thread every read goes through, unless a read of several jobs brings its own. */
const shared: Hdf5Thread = newThread();

/** A thread with no worker yet and no job. */
function newThread(): Hdf5Thread {
  return { queue: Promise.resolve(), sentJobs: new Set() };
}

/** Each job's id: the worker's answers name it. */
let lastId = 0;

function start(): Worker {
  // The thread's module sits beside this one: thread.js in dist/; under the tests, the
  // TypeScript source (the tests' module hooks load it, as for the CSV scan workers).
  const w = new Worker(new URL('./thread.js', import.meta.url), { stdout: false, stderr: false });
  w.unref();
  return w;
}

/** What a job is given: its time limit, the reason when it runs out, and its progress. */
interface JobLimits {
  timeoutMs: number;
  timeoutReason: string;
  onProgress: (done: number) => void;
}

/**
 * Sends `job` to the thread's worker and waits for its answer. The time limit runs from
 * `started` (the answer to the job before it, after which the worker takes this one). A
 * job whose worker was stopped before it ran (another job ran out of time, or made the
 * runtime fail) is sent again to a new worker, at once and in the order the jobs were
 * sent: before any job given after it, whose time limit runs from its answer.
 */
function runOne(
  thread: Hdf5Thread,
  job: Hdf5Job | TallyJob,
  limits: JobLimits,
  started: Promise<unknown>,
): Promise<WorkerResult<Answer>> {
  thread.worker ??= start();
  const w = thread.worker;
  const id = ++lastId;
  const { sentJobs } = thread;
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let settled = false;
    const detach = () => {
      settled = true;
      clearTimeout(timer);
      sentJobs.delete(sent);
      sent.again = undefined;
      w.off('message', onMessage);
      w.off('error', onError);
      w.off('exit', onExit);
      if (sentJobs.size === 0) w.unref();
    };
    const sent: SentJob = {
      worker: w,
      again: (before) => {
        detach();
        const answer = runOne(thread, job, limits, before);
        resolve(answer);
        return answer;
      },
    };
    const finish = (result: WorkerResult<Answer>, kill: boolean) => {
      detach();
      if (kill && thread.worker === w) stopWorker(thread, w);
      resolve(result);
    };
    const onMessage = (m: Message) => {
      // A worker stopped for the job before this one may still answer this one, from a
      // runtime that failed: its answer is not taken, the job runs again once it exits.
      if (m.id !== id || thread.worker !== w) return;
      if ('progress' in m) {
        timer?.refresh();
        limits.onProgress(m.progress);
        return;
      }
      finish(m.done, !m.done.ok && m.done.wasmFailure);
    };
    // Its worker stopped for a job before this one (which sends this one again at once,
    // unless the worker was replaced another way): this one never ran.
    const stopped = (result: WorkerResult<Answer>) =>
      thread.worker === w ? finish(result, true) : sent.again?.(Promise.resolve());
    const onError = (e: Error) => stopped({ ok: false, reason: e.message, wasmFailure: true });
    const onExit = (code: number) =>
      stopped({
        ok: false,
        reason: `the reader stopped (exit code ${code})`,
        wasmFailure: true,
      });
    w.on('message', onMessage);
    w.on('error', onError);
    w.on('exit', onExit);
    sentJobs.add(sent);
    w.ref();
    w.postMessage({ id, job });
    void started.then(() => {
      if (settled) return;
      timer = setTimeout(
        () => finish({ ok: false, reason: limits.timeoutReason, timedOut: true }, true),
        limits.timeoutMs,
      );
    });
  });
}

/**
 * Stops the thread's worker `w`, which a job ran out of time on or made the runtime fail:
 * the jobs sent to it behind that one never ran, and go to the new worker in turn.
 */
function stopWorker(thread: Hdf5Thread, w: Worker): void {
  thread.worker = undefined;
  void w.terminate();
  let before: Promise<unknown> = Promise.resolve();
  for (const other of [...thread.sentJobs]) {
    if (other.worker === w && other.again) before = other.again(before);
  }
}

/**
 * Runs one job in a thread's worker (the shared one by default): the jobs run one at a time,
 * in the order given, each sent once the job two before it has its answer.
 */
function enqueue<T>(
  job: Hdf5Job | TallyJob,
  timeoutMs: number,
  timeoutReason: string,
  onProgress: (done: number) => void = () => {},
  thread: Hdf5Thread = shared,
): Promise<WorkerResult<T>> {
  const started = thread.queue;
  const next = (thread.sent ?? started).then(() =>
    runOne(thread, job, { timeoutMs, timeoutReason, onProgress }, started),
  );
  thread.sent = started;
  // Settled with nothing: the thread outlives its jobs, and its last answers (a slice's
  // values each) would stay reachable from it.
  thread.queue = next.then(
    () => undefined,
    () => undefined,
  );
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
  while (own.length < count - 1) own.push(spare.pop() ?? newThread());
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
