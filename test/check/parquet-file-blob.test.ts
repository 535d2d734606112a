/**
 * A file's Blob (formats/parquet/file-blob.ts) reads into the buffers parquet-wasm gave back,
 * and each read still holds its own range's bytes. Reads that follow each other in the file are read ahead; whatever the reads, each
 * gets exactly its range's bytes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, expect, test } from 'vitest';
import { openFileBlob } from '../../src/formats/parquet/file-blob.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-parquet-file-blob-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const turn = () => new Promise((resolve) => setImmediate(resolve));

test('a buffer parquet-wasm is done with holds the next read, each read with its own bytes', async () => {
  const path = join(dir, 'bytes.bin');
  const bytes = Uint8Array.from({ length: 4096 }, (_, i) => (i * 31) & 255);
  writeFileSync(path, bytes);
  const { blob, close } = await openFileBlob(path);
  const a = await blob.slice(100, 1100).arrayBuffer();
  expect(new Uint8Array(a)).toEqual(bytes.subarray(100, 1100));
  // Given back once parquet-wasm has copied it (the next turn of the event loop).
  await turn();
  const b = await blob.slice(2000, 2600).arrayBuffer();
  expect(b).toBe(a);
  expect(new Uint8Array(b)).toEqual(bytes.subarray(2000, 2600));
  // Not before: a read in the same turn gets a buffer of its own.
  const c = await blob.slice(0, 10).arrayBuffer();
  expect(c).not.toBe(b);
  expect(new Uint8Array(c)).toEqual(bytes.subarray(0, 10));
  await close();
});

/**
 * A file of 10,000 bytes read through its Blob range by range, each read checked, then
 * changed on disk (every byte flipped) once a read ahead would be done: a range read ahead
 * still holds the old bytes.
 */
async function readThenChange(name: string, ranges: ReadonlyArray<readonly [number, number]>) {
  const path = join(dir, name);
  const bytes = Uint8Array.from({ length: 10_000 }, (_, i) => (i * 7 + (i >> 8)) & 255);
  writeFileSync(path, bytes);
  const { blob, close } = await openFileBlob(path);
  for (const [from, to] of ranges)
    expect(new Uint8Array(await blob.slice(from, to).arrayBuffer())).toEqual(
      bytes.subarray(from, to),
    );
  // A read ahead is one small positioned read, long done by then.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const changed = bytes.map((b) => b ^ 0xff);
  writeFileSync(path, changed);
  return { bytes, changed, blob, close };
}

test('reads that follow each other are read ahead: the next range was read before it was asked for', async () => {
  const { bytes, changed, blob, close } = await readThenChange('onward.bin', [
    [0, 1000],
    [1000, 2000],
    [2000, 3000],
  ]);
  // The fourth range, read ahead, holds the old bytes (its first 1000; the 10 more it asks
  // for are read when asked, and are new).
  const fourth = new Uint8Array(await blob.slice(3000, 4010).arrayBuffer());
  expect(fourth.subarray(0, 1000)).toEqual(bytes.subarray(3000, 4000));
  expect(fourth.subarray(1000)).toEqual(changed.subarray(4000, 4010));
  await close();
});

test('reads that jump over bytes are not read ahead, nor one step onward after a jump', async () => {
  // Two of three columns of a row group, then the first of the next (which the last one
  // ends at, as a group's last column ends where the next group begins).
  const { changed, blob, close } = await readThenChange('jumps.bin', [
    [0, 500],
    [900, 1200],
    [1200, 1300],
  ]);
  expect(new Uint8Array(await blob.slice(1300, 1400).arrayBuffer())).toEqual(
    changed.subarray(1300, 1400),
  );
  await close();
});

test('whatever ranges are asked for, in whatever order, each read holds its own bytes', async () => {
  const path = join(dir, 'any.bin');
  const size = 20_000;
  const bytes = Uint8Array.from({ length: size }, (_, i) => (i * 151 + (i >> 8)) & 255);
  writeFileSync(path, bytes);
  // Runs of reads, each a range starting where the last ended or anywhere, of any length
  // (longer or shorter than the last, up to the file's end).
  const step = fc.record({
    onward: fc.boolean(),
    at: fc.nat({ max: size - 1 }),
    length: fc.integer({ min: 1, max: 3000 }),
  });
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
      const { blob, close } = await openFileBlob(path);
      try {
        let last = 0;
        for (const s of steps) {
          const from = s.onward ? Math.min(last, size - 1) : s.at;
          const to = Math.min(size, from + s.length);
          const got = new Uint8Array(await blob.slice(from, to).arrayBuffer());
          expect(got).toEqual(bytes.subarray(from, to));
          last = to;
          if (s.length % 2 === 0) await turn();
        }
      } finally {
        await close();
      }
    }),
    { numRuns: 60 },
  );
});
