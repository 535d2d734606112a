/**
 * The ordered pool (values/ordered-pool.ts): results come back in the parts' order, and a
 * worker gets parts even when this thread reads its own with no wait on the event loop
 * (blocking reads), when the worker's "loaded" message could otherwise never be seen.
 */
import { expect, test } from 'vitest';
import { runOrdered, startWorkers } from '../../src/values/index.js';

/** Keeps this thread busy for `ms` without yielding, as blocking reads of small files do. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // spin
  }
}

test('a worker gets parts while this thread reads its own without yielding; results in order', async () => {
  const pool = startWorkers(new URL('../helpers/parts-worker.js', import.meta.url), 1);
  const parts = Array.from({ length: 500 }, (_, k) => k);
  const got: Array<{ part: number; by: string }> = [];
  await runOrdered({
    pool,
    input: { tag: 'a' },
    parts,
    here: async (part: number) => {
      busy(4);
      return { part, by: 'here' };
    },
    onResult: (result: { part: number; by: string }) => {
      got.push(result);
    },
  });
  expect(got.map((r) => r.part)).toEqual(parts);
  // The worker loads in a few hundred milliseconds; the parts take two seconds here alone.
  expect(got.filter((r) => r.by === 'worker a').length).toBeGreaterThan(0);
  expect(got.filter((r) => r.by === 'here').length).toBeGreaterThan(0);
}, 30_000);
