/**
 * When worker threads pay for their start, for work made of many small items (`lint` of
 * many configs, `check` of a folder of many members): this thread works alone for a while,
 * measures how fast it goes, and starts the workers only when what is left would take it
 * long enough alone. A worker's start (its thread, its modules, its first items in code not
 * yet compiled) costs as much as thousands of configs linted, or hundreds of small CSVs
 * checked, and below that a worker started at once makes the whole slower.
 */

/**
 * What a worker costs before its first results, in wall time. Measured on 2 cores: a lint
 * worker's first run of 32 configs came back 350 ms after it was started (10,000 configs of
 * bench/many-files).
 */
export const WORKER_START_MS = 350;

/**
 * How long this thread works before it measures how fast it goes (its code is still being
 * compiled: 50 ms into a lint, a config took 0.16 to 0.26 ms, against about 0.05 ms
 * later), and how long it then measures before it decides. A lint of 10,000 configs
 * (bench/many-files, 2 cores), its speed taken every 50 ms: 0.11 ms a config from 100 ms,
 * 0.1 to 0.25 ms between 200 and 300 ms (the engine's collections and optimizing
 * compiles), 0.06 ms from 350 ms on. Measured from 100 ms for 50 ms, the speed of that
 * warming code started the worker: 0.86 times as fast as `--jobs 1` (0.7 s with one job,
 * 0.85 to 1.0 s with two). Measured from 300 ms for 100 ms, it is near the steady one.
 */
const WARM_MS = 300;
const MEASURE_MS = 100;

/**
 * Whether `workers` more threads shorten work that would take this thread `leftMs` alone.
 * While a worker starts, this thread works on alone, and what is left after the start is
 * shared: in theory workers pay once what is left would take this thread longer than a
 * start. In practice less is gained: the speed measured early is still that of code being
 * compiled, and two threads each slow the other down (together they do about 1.3 to 1.5
 * times one, on 2 cores). So they start when what is left would take three starts.
 */
export function workersPay(leftMs: number, workers: number): boolean {
  return workers > 0 && leftMs > 3 * WORKER_START_MS;
}

/** This thread's work timed item by item, until it says whether workers pay. */
export class PayingStart {
  readonly #workers: number;
  #start = 0;
  #from = 0;
  #items = 0;

  constructor(workers: number) {
    this.#workers = workers;
  }

  /**
   * After `done` more items in this thread, with `left` items after them: whether the
   * workers pay (workersPay), at the speed this thread works at for MEASURE_MS once it has
   * worked for WARM_MS; undefined until then (false at once when no item is left).
   */
  after(done: number, left: number): boolean | undefined {
    if (left <= 0 || this.#workers <= 0) return false;
    const now = performance.now();
    if (this.#start === 0) this.#start = now;
    if (now - this.#start < WARM_MS) return undefined;
    if (this.#from === 0) {
      this.#from = now;
      return undefined;
    }
    this.#items += done;
    const spent = now - this.#from;
    if (spent < MEASURE_MS) return undefined;
    return workersPay((left * spent) / this.#items, this.#workers);
  }
}
