/**
 * The parts of Emscripten's FS (h5wasm's MEMFS build) that the HDF5 worker relies on to
 * read an archive member in place (src/formats/hdf5/file-node.ts): a file node made by
 * `FS.createFile` whose `stream_ops` are replaced before it is opened routes every read to
 * us, `usedBytes` is the size `stat` reports, and an `FS.ErrnoError` thrown by a read fails
 * the library's call. An upgrade of h5wasm that changes any of these fails here first.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { beforeAll, expect, test } from 'vitest';
import { type EmFs, placeFile } from '../../src/formats/hdf5/file-node.js';
import type { PlaceReader } from '../../src/inspect/place-reader.js';
import { repoRoot } from '../helpers/paths.js';

type H5 = typeof import('h5wasm')['default'];
let h5: H5;
let FS: EmFs & {
  stat(path: string): { size: number };
  open(path: string, flags: string): unknown;
  read(stream: unknown, buffer: Uint8Array, offset: number, length: number, at: number): number;
  close(stream: unknown): void;
};

beforeAll(async () => {
  const mod = await import('h5wasm');
  await mod.default.ready;
  h5 = mod.default;
  FS = mod.FS as unknown as typeof FS;
});

const bytes = readFileSync(join(repoRoot, 'fixtures', 'hdf5', 'one-d-root.h5'));

/** A reader over bytes in memory that logs its reads (and fails when told to). */
function memoryReader(data: Uint8Array, fail = false): PlaceReader & { log: number[][] } {
  const log: number[][] = [];
  return {
    size: data.byteLength,
    restarts: 0,
    log,
    read(into, offset, length, position) {
      if (fail) throw new Error('the compressed data is damaged (invalid block type)');
      log.push([position, length]);
      const part = data.subarray(position, Math.min(data.byteLength, position + length));
      into.set(part, offset);
      return part.byteLength;
    },
    close() {},
  };
}

test('stat reports usedBytes, and reads of an opened stream go to the reader', () => {
  const reader = memoryReader(bytes);
  const file = placeFile(FS, reader);
  try {
    expect(FS.stat(file.path).size).toBe(bytes.byteLength);
    const stream = FS.open(file.path, 'r');
    const into = new Uint8Array(16);
    expect(FS.read(stream, into, 0, 8, 100)).toBe(8);
    FS.close(stream);
    expect(reader.log).toEqual([[100, 8]]);
    expect(Buffer.compare(into.subarray(0, 8), bytes.subarray(100, 108))).toBe(0);
  } finally {
    file.remove();
  }
  expect(FS.analyzePath(file.path).exists).toBe(false);
});

test('the HDF5 library opens the node and reads the file through the reader only', () => {
  const reader = memoryReader(bytes);
  const file = placeFile(FS, reader);
  try {
    const f = new h5.File(file.path, 'r');
    try {
      expect(f.keys().sort()).toEqual(['channel_0', 'channel_1', 'timestamp']);
      const time = f.get('timestamp');
      expect(time instanceof h5.Dataset).toBe(true);
      expect((time as InstanceType<H5['Dataset']>).shape?.length).toBe(1);
    } finally {
      f.close();
    }
    expect(reader.log.length).toBeGreaterThan(0);
  } finally {
    file.remove();
  }
});

test('a read that throws fails the library call; its reason is kept, its stack printed', () => {
  const file = placeFile(FS, memoryReader(bytes, true));
  // The runtime prints the library's error stack with the console.error it bound when it
  // loaded (the worker's writes to process.stderr, where reader.ts takes the reason from):
  // caught here at the console's stream.
  const console_ = console as unknown as { _stderr: NodeJS.WritableStream };
  const stream = console_._stderr;
  let printed = '';
  console_._stderr = new Writable({
    write(chunk, _encoding, done) {
      printed += String(chunk);
      done();
    },
  });
  try {
    let opened: InstanceType<H5['File']> | undefined;
    try {
      opened = new h5.File(file.path, 'r');
    } catch {
      // The library refuses the file: what we want.
    }
    expect(opened === undefined || opened.file_id < 0n).toBe(true);
    expect(file.failure()).toBe('the compressed data is damaged (invalid block type)');
    expect(printed).toMatch(/minor: Read failed/);
  } finally {
    console_._stderr = stream;
    file.remove();
  }
});
