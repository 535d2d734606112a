/**
 * The ordered pool (values/ordered-pool.ts): results come back in the parts' order, whatever
 * the parts a worker is given at once (`depth`); a worker gets parts even when this thread
 * reads its own with no wait on the event loop (blocking reads), when the worker's "loaded"
 * message could otherwise never be seen; the parts of a worker that ends are read here.
 */
import { describe, expect, test } from 'vitest';
import { runOrdered, startWorkers } from '../../src/values/index.js';

const WORKER = new URL('../helpers/parts-worker.js', import.meta.url);

/** Keeps this thread busy for `ms` without yielding, as blocking reads of small files do. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // spin
  }
}

async function run(count: number, depth: number, input: { tag: string; dieAt?: number }) {
  const parts = Array.from({ length: count }, (_, k) => k);
  const got: Array<{ part: number; by: string }> = [];
  await runOrdered({
    pool: startWorkers(WORKER, 1),
    input,
    parts,
    depth,
    here: async (part: number) => {
      busy(4);
      return { part, by: 'here' };
    },
    onResult: (result: { part: number; by: string }) => {
      got.push(result);
    },
  });
  expect(got.map((r) => r.part)).toEqual(parts);
  return got;
}

describe('runOrdered', () => {
  for (const depth of [1, 2]) {
    test(`depth ${depth}: a worker gets parts while this thread reads its own without yielding`, async () => {
      // The worker loads in a few hundred milliseconds; the parts take two seconds here alone.
      const got = await run(500, depth, { tag: 'a' });
      expect(got.filter((r) => r.by === 'worker a').length).toBeGreaterThan(0);
      expect(got.filter((r) => r.by === 'here').length).toBeGreaterThan(0);
    }, 30_000);
  }

  test('depth 2: a worker that ends with parts in its queue leaves them to this thread', async () => {
    // It ends at its fifth part: every part still comes back once, in order (run() checks).
    const got = await run(300, 2, { tag: 'b', dieAt: 5 });
    expect(got.filter((r) => r.by === 'worker b').length).toBe(4);
  }, 30_000);
});
