/**
 * The ordered pool (values/ordered-pool.ts): results come back in the parts' order, whatever
 * the parts a worker is given at once (`depth`); a worker gets parts even when this thread
 * reads its own with no wait on the event loop (blocking reads), when the worker's "loaded"
 * message could otherwise never be seen; the parts of a worker that ends are read here;
 * with more results allowed ahead (`ahead`), this thread reads on past a slow worker; a
 * pool kept open after a read (`close: false`) gives its loaded workers to the next read;
 * a pool grown during a read gives its new workers that read's input and parts.
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

async function run(
  count: number,
  depth: number,
  input: { tag: string; dieAt?: number; waitMs?: number },
  o: { ahead?: number; hereMs?: number; afterLoad?: boolean } = {},
) {
  const parts = Array.from({ length: count }, (_, k) => k);
  const got: Array<{ part: number; by: string }> = [];
  const pool = startWorkers(WORKER, 1);
  // With `afterLoad`, this thread reads nothing before the worker has loaded.
  const loaded = new Promise<void>((resolve) => {
    pool.slots[0]?.worker.on('message', (m: object) => {
      if ('ready' in m) resolve();
    });
  });
  await runOrdered({
    pool,
    input,
    parts,
    depth,
    ...(o.ahead ? { ahead: o.ahead } : {}),
    here: async (part: number) => {
      if (o.afterLoad) await loaded;
      busy(o.hereMs ?? 4);
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

  test('ahead: this thread reads on while a slow worker holds the part the join waits for', async () => {
    // The worker takes 20 ms a part, this thread 4 ms: the join waits for the worker's.
    const here = async (ahead: number) => {
      const o = { ahead, hereMs: 4, afterLoad: true };
      const got = await run(100, 2, { tag: 'c', waitMs: 20 }, o);
      return got.filter((r) => r.by === 'here').length;
    };
    const two = await here(2);
    const eight = await here(8);
    // With 2 results ahead a thread, this thread reads a part for each of the worker's (50
    // of 100 in trials); with 8, more (73 to 82), whatever the load.
    expect(eight).toBeGreaterThan(two + 15);
  }, 30_000);

  test('depth 2: a worker that ends with parts in its queue leaves them to this thread', async () => {
    // It ends at its fifth part: every part still comes back once, in order (run() checks).
    const got = await run(300, 2, { tag: 'b', dieAt: 5 });
    expect(got.filter((r) => r.by === 'worker b').length).toBe(4);
  }, 30_000);

  test("a pool kept open (close: false) serves the next read, its workers with that read's input", async () => {
    const pool = startWorkers(WORKER, 1);
    const loaded = new Promise<void>((resolve) => {
      pool.slots[0]?.worker.on('message', (m: object) => {
        if ('ready' in m) resolve();
      });
    });
    const read = async (tag: string, close: boolean) => {
      const got: Array<{ part: number; by: string }> = [];
      await runOrdered({
        pool,
        input: { tag },
        parts: Array.from({ length: 200 }, (_, k) => k),
        ...(close ? {} : { close }),
        here: async (part: number) => {
          await loaded;
          busy(4);
          return { part, by: 'here' };
        },
        onResult: (r: { part: number; by: string }) => {
          got.push(r);
        },
      });
      expect(got.map((r) => r.part)).toEqual(Array.from({ length: 200 }, (_, k) => k));
      return got;
    };
    const first = await read('d', false);
    expect(first.some((r) => r.by === 'worker d')).toBe(true);
    // The ULog check's pool: the inspection walk, then the values, with other inputs.
    const second = await read('e', true);
    expect(second.some((r) => r.by === 'worker e')).toBe(true);
    expect(second.some((r) => r.by === 'worker d')).toBe(false);
    expect(pool.slots.every((slot) => slot.dead)).toBe(true);
  }, 30_000);

  test("a pool grown during a read: its new worker gets the read's input, then parts", async () => {
    const pool = startWorkers(WORKER, 0);
    const got: Array<{ part: number; by: string }> = [];
    const parts = Array.from({ length: 400 }, (_, k) => k);
    await runOrdered({
      pool,
      input: { tag: 'g' },
      parts,
      here: async (part: number) => {
        // As a read whose workers start once they pay (values/paying-start.ts).
        if (part === 20) pool.grow(1);
        busy(4);
        return { part, by: 'here' };
      },
      onResult: (r: { part: number; by: string }) => {
        got.push(r);
      },
    });
    expect(got.map((r) => r.part)).toEqual(parts);
    expect(pool.slots.length).toBe(1);
    const byWorker = got.filter((r) => r.by === 'worker g');
    expect(byWorker.length).toBeGreaterThan(0);
    expect(Math.min(...byWorker.map((r) => r.part))).toBeGreaterThan(20);
    expect(got.slice(0, 21).every((r) => r.by === 'here')).toBe(true);
  }, 30_000);

  test('a pool closed starts no worker when asked to grow', async () => {
    const pool = startWorkers(WORKER, 0);
    await pool.close();
    pool.grow(1);
    expect(pool.slots.length).toBe(0);
  });
});
