/**
 * Workers start only once they pay for their start: this thread works alone, warms up,
 * measures its speed, and says whether what is left would take it three starts alone.
 */
import { afterEach, expect, test, vi } from 'vitest';
import { PayingStart, WORKER_START_MS, workersPay } from '../../src/values/index.js';

afterEach(() => {
  vi.restoreAllMocks();
});

test('workers pay when what is left would take three starts alone, and only with a worker', () => {
  expect(workersPay(3 * WORKER_START_MS, 1)).toBe(false);
  expect(workersPay(3 * WORKER_START_MS + 1, 1)).toBe(true);
  expect(workersPay(1e9, 0)).toBe(false);
});

/** Runs of `items` items at `msPerItem` each, after a first run that took `firstMs`. */
function decideAt(msPerItem: number, items: number, total: number, firstMs = 40) {
  let clock = 1_000;
  vi.spyOn(performance, 'now').mockImplementation(() => clock);
  const paying = new PayingStart(1);
  let done = 0;
  const calls: Array<boolean | undefined> = [];
  for (let ms = firstMs; done < total; ms = items * msPerItem) {
    clock += ms;
    const run = Math.min(items, total - done);
    done += run;
    const said = paying.after(run, total - done);
    calls.push(said);
    if (said !== undefined) return { said, done, calls };
  }
  return { said: undefined, done, calls };
}

test('undecided while warming up and measuring, then decided on the measured speed', () => {
  // 0.05 ms an item: 40,000 items leave about 1.6 s after the warm-up and the measure,
  // 10,000 about 0.1 s (a start is 0.35 s).
  const many = decideAt(0.05, 32, 40_000);
  expect(many.said).toBe(true);
  // Warm-up (300 ms) and measure (100 ms) at 1.6 ms a run: about 250 runs before deciding.
  expect(many.calls.filter((c) => c === undefined).length).toBeGreaterThan(240);
  expect(decideAt(0.05, 32, 10_000).said).toBe(false);
  // About 0.6 s left: more than one start, less than three.
  expect(decideAt(0.05, 32, 20_000).said).toBe(false);
  // Slower items: 10,000 leave more than three starts.
  expect(decideAt(0.2, 32, 10_000).said).toBe(true);
});

test('no item left, or no worker to start: decided against at once', () => {
  vi.spyOn(performance, 'now').mockImplementation(() => 5);
  expect(new PayingStart(1).after(32, 0)).toBe(false);
  expect(new PayingStart(0).after(32, 1_000_000)).toBe(false);
});
