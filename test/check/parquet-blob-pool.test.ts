/**
 * A file's Blob reads into pooled buffers (formats/parquet/arrow.ts): a pool passed from one
 * Blob to the next (the runs a thread reads one after another) serves the next Blob's reads
 * with the buffers the last one gave back, and each read still holds its own range's bytes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { type BlobPool, openFileBlob } from '../../src/formats/parquet/arrow.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-parquet-blob-pool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const turn = () => new Promise((resolve) => setImmediate(resolve));

test('a pool kept from one Blob to the next serves its reads, each with its own bytes', async () => {
  const path = join(dir, 'bytes.bin');
  const bytes = Uint8Array.from({ length: 4096 }, (_, i) => (i * 31) & 255);
  writeFileSync(path, bytes);
  const pool: BlobPool = [];
  const first = await openFileBlob(path, pool);
  const a = await first.blob.slice(100, 1100).arrayBuffer();
  expect(new Uint8Array(a)).toEqual(bytes.subarray(100, 1100));
  await turn();
  await first.close();
  // Given back once parquet-wasm has copied it (the next turn of the event loop).
  expect(pool).toContain(a);
  const second = await openFileBlob(path, pool);
  const b = await second.blob.slice(2000, 2600).arrayBuffer();
  expect(b).toBe(a);
  expect(new Uint8Array(b)).toEqual(bytes.subarray(2000, 2600));
  await second.close();
  // Without a pool passed, a Blob starts with none: its first read is a new buffer.
  const third = await openFileBlob(path);
  const c = await third.blob.slice(0, 10).arrayBuffer();
  expect(c).not.toBe(a);
  await third.close();
});
