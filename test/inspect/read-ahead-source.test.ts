/**
 * readAheadSource (inspect/byte-source.ts): small reads served from a window read at the
 * first of them. Whatever the reads, each returns the bytes the source holds there; reads
 * going forward in small steps make few reads of the source; a large read goes to the
 * source as it is.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { countingSource, memorySource, readAheadSource } from '../../src/inspect/byte-source.js';

const bytesOf = (n: number) =>
  Uint8Array.from({ length: n }, (_, i) => (i * 131 + (i >> 8)) & 0xff);

test('every read returns the bytes at its offset, up to the end of the source', async () => {
  const read = fc.record({ at: fc.nat({ max: 70_000 }), n: fc.integer({ min: 1, max: 9_000 }) });
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 60_000 }),
      fc.array(read, { maxLength: 40 }),
      fc.integer({ min: 1, max: 4_096 }),
      async (size, reads, small) => {
        const bytes = bytesOf(size);
        const source = readAheadSource(memorySource(bytes, 'm.bin'), small, 4 * small);
        for (const { at, n } of reads) {
          const got = await source.read(at, n);
          const from = Math.min(at, size);
          expect(Buffer.from(got).equals(bytes.subarray(from, Math.min(size, from + n)))).toBe(
            true,
          );
        }
      },
    ),
    { numRuns: 200 },
  );
});

test('small reads going forward: the windows grow, and the source is read a few times', async () => {
  const bytes = bytesOf(4 << 20);
  const inner = countingSource(memorySource(bytes, 'm.bin'));
  const source = readAheadSource(inner, 64 * 1024, 1 << 20);
  // A segment's lead-in (28 bytes), then its raw data (9 KiB), 400 times.
  let at = 0;
  for (let k = 0; k < 400; k++) {
    expect(Buffer.from(await source.read(at, 28)).equals(bytes.subarray(at, at + 28))).toBe(true);
    at += 28;
    const raw = await source.read(at, 9_216);
    expect(Buffer.from(raw).equals(bytes.subarray(at, at + 9_216))).toBe(true);
    at += 9_216;
  }
  expect(source.reads).toBe(800);
  // 3.5 MiB in windows of 64 KiB doubling to 1 MiB: a handful of reads, not 800.
  expect(inner.log.length).toBeLessThan(12);
  expect(inner.log.at(-1)?.[1]).toBe(1 << 20);
});

test('a large read goes to the source as it is; lead-ins far apart keep the windows small', async () => {
  const bytes = bytesOf(8 << 20);
  const inner = countingSource(memorySource(bytes, 'm.bin'));
  const source = readAheadSource(inner, 64 * 1024, 1 << 20);
  const segment = 1 << 20;
  for (let k = 0; k < 8; k++) {
    await source.read(k * segment, 28);
    await source.read(k * segment + 28, segment - 28);
  }
  // Each lead-in a window of 64 KiB (each served one read: it does not grow), each raw data
  // one read of its own.
  expect(inner.log).toEqual(
    Array.from({ length: 8 }, (_, k) => [
      [k * segment, 64 * 1024],
      [k * segment + 28, segment - 28],
    ]).flat(),
  );
});
