/**
 * Parts of one read shared by this thread and worker threads, their results taken in
 * order: the TDMS and ULog `check --full` cut the file into parts (ranges of segments,
 * ranges of messages), read each part into tallies of its own, and join the tallies in
 * file order, so that the counts and the first place of each finding are those one pass
 * over the file finds.
 *
 * With N jobs, N - 1 workers start; each takes the next part once it has loaded and each
 * time it is done, and this thread reads the next part itself whenever no worker is free
 * (a small file is read here before any worker has loaded). Memory: each thread has one
 * part in flight (a worker `depth` of them, one by default), and at most `ahead` parts a
 * thread (two by default) wait to be joined (done before the one ahead of them). A worker
 * that fails (its module missing, a crash) leaves its part to this thread, which reads it
 * again.
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { parentPort, Worker } from 'node:worker_threads';
import { type ByteSource, openFileSourceSync, sourceOf, throughSource } from '../inspect/shared.js';

export interface OrderedPoolOptions<T, R> {
  /**
   * The workers (this thread reads parts too): started for this read (`startWorkers`), or
   * before, while what they are given was being made. Closed when the read ends.
   */
  pool: WorkerPool;
  /** What every worker gets once, before its first part: the file, the config, the plan. */
  input: unknown;
  parts: Iterable<T>;
  /** Reads a part in this thread (no worker free, or the worker failed). */
  here: (part: T) => Promise<R>;
  /** Each part's result, in the order of `parts`. */
  onResult: (result: R, part: T, k: number) => Promise<void> | void;
  /**
   * Parts a worker is given at once (default 1): with 2, its next part waits in its queue
   * while it reads one, so it does not sit idle until this thread, busy reading a part of
   * its own, hands it the next (parts of many small files, read here with blocking reads).
   */
  depth?: number;
  /**
   * Buffers a part given to a worker moves there instead of copying them (a buffer its
   * result is written into: a normalize range's output, normalize-parallel.ts). A part
   * read here keeps them.
   */
  transfer?: (part: T) => ArrayBuffer[];
  /**
   * Results a thread may have waiting to be joined (default 2): with more, this thread goes
   * on reading parts while a slower worker finishes the part the join waits for. For small
   * results (a batch's members' issues); a TDMS or ULog part's tallies are larger.
   */
  ahead?: number;
  /**
   * Whether the pool is closed when the read ends (default true); false for a pool that
   * reads again (a ULog file's inspection walk, then its values).
   */
  close?: boolean;
}

/** Threads a `jobs` option asks for: at most one a core, at least one; default one. */
export function jobsOf(jobs: number | undefined): number {
  // One thread unless asked: a worker loads its own modules and buffers (about 40 MiB), and
  // on two busy cores the workers did not win that back (bench/check-tdms, bench/ulog).
  const cores = availableParallelism();
  return Math.max(1, Math.min(cores, Math.floor(jobs ?? 1)));
}

/**
 * The size of the next part of a read shared by `jobs` threads that take parts as they
 * come: an even share of half of what is `left`, between `least` and `most`. The parts
 * shrink towards the end, so the threads finish close together (the CSV ranges, the
 * Parquet runs, the TDMS ranges of segments).
 */
export function shareOf(
  left: number,
  jobs: number,
  least: number,
  most = Number.POSITIVE_INFINITY,
) {
  return Math.max(least, Math.min(most, Math.ceil(left / (2 * jobs))));
}

type FromWorker<R> = { k: number; result: R } | { k: number; error: string } | { ready: true };

export interface Slot {
  worker: Worker;
  dead: boolean;
  /** The parts in flight, by index: what settles each. */
  busy: Map<number, (r: { result: unknown } | { failed: true }) => void>;
}

/**
 * Worker threads of a module that calls `serveParts`, started before the input of their
 * parts is known: each loads its modules (a few hundred milliseconds, cold) while this
 * thread makes that input (a ULog file's inspection walk). A slot is free once its worker
 * has loaded; `runOrdered` takes the free ones as they come.
 */
export class WorkerPool {
  readonly slots: Slot[] = [];
  readonly #url: URL;
  #loaded: Slot[] = [];
  #onLoaded: ((slot: Slot) => void) | undefined;
  #closed: Promise<unknown> | undefined;
  /** The message every worker gets before its first part: the input of the read under way. */
  #input: { input: unknown } | undefined;

  constructor(url: URL, count: number) {
    this.#url = url;
    this.grow(count);
  }

  /**
   * Starts `count` more workers, free once loaded (onLoaded), each given the input of the
   * read under way (`begin`): a read may start its workers only once they pay for their
   * start (values/paying-start.ts).
   */
  grow(count: number): void {
    // A pool closed (its read ended, or failed with a part still read here) starts none.
    if (this.#closed !== undefined) return;
    const loaded = (slot: Slot) => {
      this.#loaded.push(slot);
      this.#onLoaded?.(slot);
    };
    for (const slot of startSlots(this.#url, Math.max(0, count), loaded)) {
      this.slots.push(slot);
      if (this.#input !== undefined) slot.worker.postMessage(this.#input);
    }
  }

  /**
   * A read begins: every worker gets its input before any part, those started later too
   * (a worker's port hands messages over in the order they were posted).
   */
  begin(input: unknown): void {
    this.#input = { input };
    for (const slot of this.slots) if (!slot.dead) slot.worker.postMessage(this.#input);
  }

  /**
   * Hands each slot to `free` once its worker has loaded (those loaded already, now): the
   * free slots of a read, which has every part of the read before it joined.
   */
  onLoaded(free: (slot: Slot) => void): void {
    this.#onLoaded = free;
    for (const slot of this.#loaded) if (!slot.dead) free(slot);
  }

  /** Stops every worker (again: nothing more). */
  async close(): Promise<void> {
    this.#closed ??= Promise.all(this.slots.map((s) => s.worker.terminate()));
    await this.#closed;
  }
}

/** Starts `count` workers of the module at `url` (a pool for runOrdered). */
export function startWorkers(url: URL, count: number): WorkerPool {
  return new WorkerPool(url, count);
}

/** Reads every part in this thread and the workers and hands the results over in order. */
export async function runOrdered<T, R>(o: OrderedPoolOptions<T, R>): Promise<void> {
  let wake: (() => void) | undefined;
  const nudge = () => wake?.();
  const free: Slot[] = [];
  const release = (slot: Slot) => {
    if (!slot.dead) free.push(slot);
    nudge();
  };
  o.pool.begin(o.input);
  o.pool.onLoaded(release);
  const take = (): Slot | undefined => {
    for (let s = free.pop(); s !== undefined; s = free.pop()) if (!s.dead) return s;
    return undefined;
  };
  const state = { joined: 0, failed: false };
  let joining: Promise<void> = Promise.resolve();
  // The threads there are now: a pool may grow during the read.
  const limit = () => (o.ahead ?? 2) * (o.pool.slots.length + 1);
  try {
    let k = 0;
    let reading = false;
    for (const part of o.parts) {
      // Bounded: not too many results ahead of the next one joined; a thread free for it.
      let slot: Slot | undefined;
      let turned = false;
      for (;;) {
        if (state.failed) break;
        if (k - state.joined < limit()) {
          slot = take();
          if (slot) break;
          // Before a part is read here, a turn of the event loop: a worker's messages (it
          // has loaded, a result) come in on it, and parts read here with blocking reads
          // would follow one another without one, the workers never given a part.
          if (!reading && turned) break;
          if (!reading) {
            turned = true;
            await new Promise((resolve) => setImmediate(resolve));
            continue;
          }
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
      if (state.failed) break;
      const index = k++;
      let result: Promise<R>;
      if (slot) result = runIn(slot, index, part, o, release);
      else {
        // No worker free: this thread reads the part, and hands out the next ones meanwhile.
        reading = true;
        result = o.here(part);
        const done = () => {
          reading = false;
          nudge();
        };
        result.then(done, done);
      }
      // Settled when joined: a rejection is the join's to report.
      result.catch(() => undefined);
      joining = joining.then(async () => {
        await o.onResult(await result, part, index);
        state.joined += 1;
        nudge();
      });
      joining.catch(() => {
        state.failed = true;
        nudge();
      });
    }
    await joining;
  } finally {
    if (o.close !== false) await o.pool.close();
  }
}

/**
 * A part in a worker; its result, or (the worker failed) the part read in this thread. The
 * slot is free again once fewer than `depth` of its parts are in flight.
 */
function runIn<T, R>(
  slot: Slot,
  k: number,
  part: T,
  o: Pick<OrderedPoolOptions<T, R>, 'here' | 'depth' | 'transfer'>,
  release: (slot: Slot) => void,
): Promise<R> {
  const { here } = o;
  const depth = o.depth ?? 1;
  const result = new Promise<{ result: unknown } | { failed: true }>((done) => {
    slot.busy.set(k, done);
    slot.worker.postMessage({ k, part }, o.transfer?.(part) ?? []);
  }).then((r) => {
    const full = slot.busy.size >= depth;
    slot.busy.delete(k);
    if (full) release(slot);
    return 'result' in r ? (r.result as R) : here(part);
  });
  if (slot.busy.size < depth) release(slot);
  return result;
}

/** Starts `count` workers; each is `ready` (free for a part) once it has loaded. */
function startSlots(url: URL, count: number, ready: (slot: Slot) => void): Slot[] {
  return Array.from({ length: count }, () => {
    const worker = new Worker(url, { resourceLimits: { maxYoungGenerationSizeMb: 4 } });
    const slot: Slot = { worker, dead: false, busy: new Map() };
    const fail = () => {
      slot.dead = true;
      for (const done of slot.busy.values()) done({ failed: true });
    };
    worker.on('message', (m: FromWorker<unknown>) => {
      if ('ready' in m) ready(slot);
      else slot.busy.get(m.k)?.('result' in m ? { result: m.result } : { failed: true });
    });
    worker.on('error', fail);
    worker.on('exit', fail);
    return slot;
  });
}

/**
 * In a worker thread: reads each part the pool sends with `read` (one at a time, in the
 * order sent), given the input the pool sent first, and posts its result back
 * (`transfer`: buffers moved, not copied).
 */
export function serveParts<T, I, R>(
  read: (part: T, input: I) => Promise<R>,
  transfer: (result: R) => ArrayBuffer[] = () => [],
): void {
  const port = parentPort;
  if (!port) return;
  port.postMessage({ ready: true });
  let input: I | undefined;
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (m: { input: I } | { k: number; part: T }) => {
    if ('input' in m) {
      input = m.input;
      return;
    }
    queue = queue.then(async () => {
      try {
        const result = await read(m.part, input as I);
        port.postMessage({ k: m.k, result }, transfer(result));
      } catch (e) {
        port.postMessage({ k: m.k, error: e instanceof Error ? e.message : String(e) });
      }
    });
  });
}

/**
 * In a worker thread: a file read with blocking reads, as a ByteSource (the thread has
 * nothing else to do while a read waits, and each awaited read of a file handle costs a
 * trip through the thread pool). `reuse`: for a reader that holds one window at a time
 * (the ULog walk, the TDMS raw data reader), the bytes of a read of `least` bytes or more
 * are valid until the second read after it: two buffers take turns, which spares making
 * (and the kernel mapping) a new one a read. `reuse` may be the list those two buffers are
 * kept in, for the sources a worker opens one after another (one a part): the buffers of
 * one part serve the next. A test passes `least` 0 to reuse them for every read.
 */
export function blockingFileSource(
  path: string,
  reuse: boolean | Uint8Array[] = false,
  least = 64 * 1024,
): ByteSource {
  return openFileSourceSync(path, turnsOf(reuse, least));
}

/** Reads of a file read in this thread between two turns of the event loop (readThroughTurns). */
const READS_A_TURN = 16;

/**
 * In this thread: a file read with blocking reads into two buffers that take turns, as a
 * worker reads it (blockingFileSource with `reuse`: for one reader holding one window at a
 * time), sparing a new zeroed 1 MiB buffer a read and the collections those make. Opens the
 * file, hands it to `fn` (as `name`, by default its path) and closes it. `least` as
 * blockingFileSource's.
 *
 * Every READS_A_TURN reads (16 MiB of TDMS blocks) it takes a turn of the event loop, so
 * that timers (a progress bar), signals and the workers' messages wait no longer than
 * those reads. Awaited reads, one trip through the thread pool each, made this thread's
 * share of a TDMS check slower than a worker's (a timeline of bench/check-tdms at two
 * jobs: 109 to 133 ms a part, against 75 to 96 ms in the worker). Measured with blocking
 * reads, runs alternated with awaited ones: bench/check-tdms' 1 GB at one job 0.67 to
 * 0.91 s against 0.87 to 0.97 s (and from a cold page cache, which the kernel reads ahead
 * of reads in order, 0.77 and 0.87 s against 1.02 and 1.07 s); bench/ulog's 1 GB as fast
 * as before, with 12% less CPU.
 *
 * A read's buffer is chosen when it is asked for, so that reads asked for one after
 * another without a wait (a read ahead) each take their turn.
 */
export async function readThroughTurns<R>(
  path: string,
  fn: (source: ByteSource) => Promise<R>,
  least = 64 * 1024,
  name = path,
  slice?: { start: number; size: number },
): Promise<R> {
  const pick = turnsOf(true, least);
  let asked = 0;
  const file = openFileSourceSync(path, (n) => pick(n, asked++));
  // A slice of the file (a stored member of a zip archive) is read at its offset.
  const at = slice?.start ?? 0;
  const source = sourceOf({
    name,
    size: slice ? Math.max(0, Math.min(slice.size, file.size - at)) : file.size,
    place: { kind: 'file', path: resolve(path), start: at },
    async readAt(start, n, before) {
      const bytes = await file.read(at + start, n);
      if ((before + 1) % READS_A_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
      return bytes;
    },
    close: async () => {},
  });
  try {
    return await fn(source);
  } finally {
    await file.close();
  }
}

/**
 * Hands `fn` the source to read in this thread: bytes of a file on disk (a path, opened as
 * the inspectors open it, a source of a whole file, or a stored member of a zip archive)
 * go into two buffers that take turns (readThroughTurns), under the source's own name; any
 * other source (compressed, or in memory) as it is. A stored 1 GB TDMS member of 100,000
 * segments took 12.3 s to check (sampled) with awaited reads.
 * For readers that hold one window at a time (the TDMS and ULog walks): a new
 * zeroed 1 MiB buffer a read cost its zeroing and the kernel's mapping of its pages, about
 * a fifth of a one-job full check of bench/ulog's 1 GB (6.07 to 6.26 s, against 4.92 to
 * 5.07 s through turns, alternated).
 */
export function throughTurns<R>(
  data: string | ByteSource,
  fn: (source: ByteSource) => Promise<R>,
): Promise<R> {
  return throughSource(data, (source) => {
    const place = source.place;
    if (place?.kind !== 'file') return fn(source);
    const slice = { start: place.start, size: source.size };
    return readThroughTurns(place.path, fn, undefined, source.name, slice);
  });
}

/**
 * The buffer read `reads` (counted from 0) reads `n` bytes into: with `reuse`, one of two
 * that take turns (kept in `reuse` when it is a list) once `n` is `least` or more; else a
 * new one.
 */
function turnsOf(
  reuse: boolean | Uint8Array[],
  least: number,
): (n: number, reads: number) => Uint8Array {
  const turns: Uint8Array[] = Array.isArray(reuse) ? reuse : [];
  return (n, reads) => {
    if (!reuse || n === 0 || n < least) return fresh(n);
    const k = reads % 2;
    if ((turns[k]?.byteLength ?? 0) < n) turns[k] = fresh(n);
    return (turns[k] as Uint8Array).subarray(0, n);
  };
}

/**
 * `n` bytes to read into: a large buffer is not zero-filled first (every byte is read into
 * it), which saves the kernel mapping fresh zeroed pages for each block read.
 */
function fresh(n: number): Uint8Array {
  if (n < 64 * 1024) return new Uint8Array(n);
  const b = Buffer.allocUnsafeSlow(n);
  return new Uint8Array(b.buffer, b.byteOffset, n);
}
