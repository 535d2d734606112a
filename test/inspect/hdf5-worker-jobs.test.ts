/**
 * The HDF5 thread's jobs (src/formats/hdf5/worker.ts): two are sent to the worker at a
 * time, never more, each answered in the order given; a job sent behind one that runs out of
 * time never ran, and is run again on a new worker with its own time limit, before the jobs
 * given after it; an answer taken is not kept by the thread.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as tick } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import h5wasm from 'h5wasm/node';
import { afterAll, expect, test } from 'vitest';
import {
  closeThreads,
  hdf5Threads,
  readSliceInWorker,
  readTreeInWorker,
} from '../../src/formats/hdf5/worker.js';
import { writeLoopingHdf5 } from '../helpers/hdf5.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-h5-jobs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ROWS = 100;
const SETS = 5;

/** A file of SETS datasets `/v0`..., ROWS floats each, `/vK` holding K * 1000 + row. */
async function write(path: string): Promise<void> {
  await h5wasm.ready;
  const f = new h5wasm.File(path, 'w');
  try {
    for (let k = 0; k < SETS; k++) {
      const data = Float64Array.from({ length: ROWS }, (_, i) => k * 1000 + i);
      f.create_dataset({ name: `v${k}`, data });
    }
  } finally {
    f.close();
  }
}

const sliceOf = (k: number) => ({
  dataset: `/v${k}`,
  column: null,
  member: null,
  start: 0,
  end: ROWS,
});

const expected = (k: number) => Array.from({ length: ROWS }, (_, i) => k * 1000 + i);

test('two jobs are with the worker at a time, and each gets its own answer', async () => {
  const path = join(dir, 'sets.h5');
  await write(path);
  const [thread] = hdf5Threads(1);
  if (!thread) throw new Error('no thread');
  const reads = Array.from({ length: SETS }, (_, k) =>
    readSliceInWorker({ target: path }, sliceOf(k), 30_000),
  );
  await tick();
  expect(thread.sentJobs.size).toBe(2);
  const got = await Promise.all(reads);
  for (const [k, r] of got.entries()) {
    if (!r.ok) throw new Error(r.reason);
    expect(Array.from(r.value.values as Float64Array)).toEqual(expected(k));
  }
  expect(thread.sentJobs.size).toBe(0);
  await closeThreads([thread]);
});

/**
 * A file of SETS datasets (`good`), and the tree job of a file the library loops on, given
 * to the shared thread with a limit of 1.5 s (`stuck`): the jobs given next are sent behind it.
 */
async function behindAStuckJob(name: string) {
  const good = join(dir, `good-${name}.h5`);
  await write(good);
  const loops = join(dir, `loops-${name}.h5`);
  writeLoopingHdf5(loops);
  const options = { sample: [], sampleRows: 3, maxColumns: 16 };
  return { good, stuck: readTreeInWorker({ target: loops }, options, 1500) };
}

test('a job sent behind one that runs out of time is run on a new worker', async () => {
  const { good, stuck } = await behindAStuckJob('behind');
  const behind = readSliceInWorker({ target: good }, sliceOf(3), 30_000);
  const [a, b] = await Promise.all([stuck, behind]);
  expect(a).toMatchObject({ ok: false, timedOut: true });
  if (!b.ok) throw new Error(b.reason);
  expect(Array.from(b.value.values as Float64Array)).toEqual(expected(3));
});

test('the job sent behind one that runs out of time runs before the jobs given after it', async () => {
  const { good, stuck } = await behindAStuckJob('order');
  const answered: string[] = [];
  // Sent with the stuck job, so it never ran; the next is sent once the stuck one is stopped.
  const behind = readSliceInWorker({ target: good }, sliceOf(1), 30_000).then((r) => {
    answered.push('behind');
    return r;
  });
  const after = readSliceInWorker({ target: good }, sliceOf(2), 30_000).then((r) => {
    answered.push('after');
    return r;
  });
  const [a, b, c] = await Promise.all([stuck, behind, after]);
  expect(a).toMatchObject({ ok: false, timedOut: true });
  for (const [k, r] of [
    [1, b],
    [2, c],
  ] as const) {
    if (!r.ok) throw new Error(r.reason);
    expect(Array.from(r.value.values as Float64Array)).toEqual(expected(k));
  }
  // In the order given: the worker that replaces the stopped one takes them in turn.
  expect(answered).toEqual(['behind', 'after']);
});

test('an answer taken is not kept by the thread: its values can be collected', async () => {
  const path = join(dir, 'collected.h5');
  await write(path);
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const collected: number[] = [];
  const registry = new FinalizationRegistry((k: number) => collected.push(k));
  // Each answer in a function of its own: a variable of this one would keep the last.
  const read = async (k: number) => {
    const r = await readSliceInWorker({ target: path }, sliceOf(k), 30_000);
    if (!r.ok) throw new Error(r.reason);
    registry.register(r.value.values as object, k);
  };
  // The last two answers: nothing the thread keeps for later jobs may reach them.
  for (let k = 0; k < 2; k++) await read(k);
  for (let i = 0; i < 10 && collected.length < 2; i++) {
    gc();
    await tick();
  }
  expect(collected.sort()).toEqual([0, 1]);
});
