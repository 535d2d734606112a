/**
 * The synchronous reader of a place (what the HDF5 worker reads an archive member through):
 * whatever the order of reads, forward, backward or at random, it answers the place's bytes
 * exactly, for a file's range, raw deflate data in a file, and a member of a (multi-member)
 * gzip stream; a place up to IN_MEMORY bytes is inflated once, a larger one's read behind
 * what its cache keeps inflates again from the start.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import type { Place } from '../../src/inspect/byte-source.js';
import {
  BLOCK,
  CACHED_BLOCKS,
  HEAD_BLOCKS,
  IN_MEMORY,
  openPlaceReader,
  type PlaceReader,
} from '../../src/inspect/place-reader.js';

const tmp = mkdtempSync(join(tmpdir(), 'importkit-place-reader-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Bytes that compress a little but not to nothing (a counter with noise). */
function bytesOf(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = ((i >> 4) & 0xff) ^ (x & 0x03);
  }
  return out;
}

let files = 0;
function write(bytes: Uint8Array): string {
  files += 1;
  const path = join(tmp, `f${files}`);
  writeFileSync(path, bytes);
  return path;
}

/** The member `data` at each kind of place, behind some bytes that are not its own. */
function places(data: Uint8Array): Array<[string, Place]> {
  const before = bytesOf(777, 9);
  const after = bytesOf(333, 5);
  const raw = deflateRawSync(data, { level: 1 });
  const tarLike = Buffer.concat([before, data, after]);
  return [
    ['file range', { kind: 'file', path: write(tarLike), start: before.byteLength }],
    [
      'deflate',
      {
        kind: 'deflate',
        path: write(Buffer.concat([before, raw, after])),
        start: before.byteLength,
        compressedSize: raw.byteLength,
      },
    ],
    // Two gzip members, as `cat a.gz b.gz` makes: the member spans their boundary.
    [
      'gzip (two members)',
      {
        kind: 'gzip',
        path: write(
          Buffer.concat([
            gzipSync(tarLike.subarray(0, 1000)),
            gzipSync(tarLike.subarray(1000), { level: 1 }),
          ]),
        ),
        skip: before.byteLength,
      },
    ],
  ];
}

function readAt(reader: PlaceReader, position: number, length: number): Uint8Array {
  const into = new Uint8Array(length + 4);
  const n = reader.read(into, 2, length, position);
  return into.subarray(2, 2 + n);
}

describe('a place reader', () => {
  test('random reads at random offsets answer the bytes of the original', () => {
    const size = HEAD_BLOCKS * BLOCK + 300_001;
    const data = bytesOf(size, 1);
    for (const [kind, place] of places(data)) {
      const reader = openPlaceReader(place, size);
      try {
        fc.assert(
          fc.property(
            fc.array(
              fc.tuple(
                fc.integer({ min: 0, max: size + 10 }),
                fc.integer({ min: 0, max: 200_000 }),
              ),
              { minLength: 1, maxLength: 12 },
            ),
            (reads) => {
              for (const [at, length] of reads) {
                const got = readAt(reader, at, length);
                const want = data.subarray(Math.min(at, size), Math.min(size, at + length));
                expect(got.byteLength, kind).toBe(want.byteLength);
                expect(Buffer.compare(got, want), `${kind} at ${at}`).toBe(0);
              }
            },
          ),
          { numRuns: 10 },
        );
      } finally {
        reader.close();
      }
    }
  });

  test('a place up to IN_MEMORY bytes is inflated once, whatever the order of reads', () => {
    const blocks = HEAD_BLOCKS + CACHED_BLOCKS + 8;
    const size = blocks * BLOCK;
    const data = bytesOf(size, 2);
    for (const [kind, place] of places(data).slice(1)) {
      const reader = openPlaceReader(place, size);
      try {
        for (let at = 0; at < size; at += BLOCK) readAt(reader, at, 100);
        // Behind what the cache of a larger place keeps: kept all the same.
        for (let at = size - BLOCK; at >= 0; at -= 3 * BLOCK) {
          const got = readAt(reader, at + 7, 1000);
          expect(Buffer.compare(got, data.subarray(at + 7, at + 1007)), `${kind} at ${at}`).toBe(0);
        }
        expect(reader.restarts, kind).toBe(0);
      } finally {
        reader.close();
      }
    }
  });

  test('a larger place: a backward read from the cache, else inflated again', () => {
    const size = IN_MEMORY + 8 * BLOCK;
    // A pattern that does not repeat at a block's size, repeated (cheap to make and deflate).
    const data = Buffer.alloc(size, bytesOf(3 * BLOCK + 5, 2));
    const raw = deflateRawSync(data, { level: 1 });
    const kind = 'deflate';
    const place: Place = { kind, path: write(raw), start: 0, compressedSize: raw.byteLength };
    const reader = openPlaceReader(place, size);
    try {
      // Forward to the end: the head stays, only the last CACHED_BLOCKS others do.
      for (let at = 0; at < size; at += 16 * BLOCK) readAt(reader, at, 100);
      readAt(reader, size - 3 * BLOCK, 100);
      expect(reader.restarts, kind).toBe(0);
      // In the head, and among the recent blocks: no inflating again.
      expect(Buffer.compare(readAt(reader, 5, 70_000), data.subarray(5, 70_005))).toBe(0);
      const recent = size - 3 * BLOCK + 17;
      expect(Buffer.compare(readAt(reader, recent, 10), data.subarray(recent, recent + 10))).toBe(
        0,
      );
      expect(reader.restarts, kind).toBe(0);
      // Behind the cache: inflated again from the start, and right.
      const behind = (HEAD_BLOCKS + 2) * BLOCK + 3;
      expect(Buffer.compare(readAt(reader, behind, 9), data.subarray(behind, behind + 9))).toBe(0);
      expect(reader.restarts, kind).toBe(1);
    } finally {
      reader.close();
    }
  });

  test('damaged or cut compressed data fails the read with a reason, never a wrong byte', () => {
    const size = 400_000;
    const data = bytesOf(size, 3);
    const raw = deflateRawSync(data, { level: 1 });
    const cut = openPlaceReader(
      { kind: 'deflate', path: write(raw), start: 0, compressedSize: raw.byteLength >> 1 },
      size,
    );
    try {
      expect(() => readAt(cut, size - 10, 10)).toThrow(/compressed data/);
    } finally {
      cut.close();
    }
    const garbage = openPlaceReader({ kind: 'gzip', path: write(bytesOf(5000, 4)), skip: 0 }, size);
    try {
      expect(() => readAt(garbage, 0, 10)).toThrow(/compressed data is damaged/);
    } finally {
      garbage.close();
    }
  });
});
