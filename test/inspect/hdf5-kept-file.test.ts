/**
 * The HDF5 worker keeps the file its last job read open for its next job on the same file
 * (src/formats/hdf5/kept-file.ts): seen in this process's open files (the worker is a
 * thread of it), closed once no job comes, and never read in place of a file written again
 * under the same path since.
 */
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import h5wasm from 'h5wasm/node';
import { afterAll, expect, test } from 'vitest';
import { inspectHdf5, readHdf5Slice } from '../../src/formats/hdf5/inspect.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-h5-kept-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ROWS = 200;

/**
 * A chunked dataset `/value` of `rows` floats, `at(i)` each, written at `path`, after a
 * dataset `/pad` of `pad` rows (so that `/value` lies elsewhere in the file).
 */
async function write(path: string, at: (i: number) => number, rows = ROWS, pad = 0) {
  await h5wasm.ready;
  const f = new h5wasm.File(path, 'w');
  try {
    if (pad > 0) f.create_dataset({ name: 'pad', data: new Float64Array(pad) });
    const data = Float64Array.from({ length: rows }, (_, i) => at(i));
    f.create_dataset({ name: 'value', data, chunks: [50] });
  } finally {
    f.close();
  }
}

const slice = { dataset: '/value', column: null, member: null, start: 0, end: ROWS };

/** Whether a file descriptor of this process is open on `path`. */
function openHere(path: string): boolean {
  return readdirSync('/proc/self/fd').some((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false;
    }
  });
}

test.runIf(process.platform === 'linux')(
  'the file stays open after a job for the next one, and is closed once none comes',
  async () => {
    const path = join(dir, 'kept.h5');
    await write(path, (i) => i);
    const first = await readHdf5Slice(path, slice);
    expect(Array.from(first.values as Float64Array).slice(0, 3)).toEqual([0, 1, 2]);
    expect(openHere(path)).toBe(true);
    const second = await readHdf5Slice(path, { ...slice, start: 100 });
    expect((second.values as Float64Array)[0]).toBe(100);
    await sleep(400);
    expect(openHere(path)).toBe(false);
  },
);

test('a file written again under the same path is read anew, not from the file kept open', async () => {
  const path = join(dir, 'rewritten.h5');
  for (let round = 0; round < 4; round++) {
    // Each round moves `/value` and changes its length: a library reading the file it kept
    // open would find the dataset where the file before had it.
    const rows = ROWS + round * 37;
    await write(path, (i) => i * 10 + round, rows, round * 300);
    const got = await readHdf5Slice(path, { ...slice, end: rows });
    expect(Array.from(got.values as Float64Array)).toEqual(
      Array.from({ length: rows }, (_, i) => i * 10 + round),
    );
  }
});

test('an inspection reads the same bytes whatever job read the file just before', async () => {
  const path = join(dir, 'tree.h5');
  await write(path, (i) => i, ROWS, 500);
  const alone = (await inspectHdf5(path)).bytesRead;
  await sleep(200);
  await readHdf5Slice(path, slice);
  // The file the slice read is still open: the inspection opens it anew all the same.
  expect((await inspectHdf5(path)).bytesRead).toBe(alone);
});
