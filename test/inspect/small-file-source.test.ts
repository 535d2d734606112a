/**
 * A folder member's source (`openSmallFileSource`): a file of at most SMALL_FILE_BYTES read
 * with blocking calls, a larger one as `openFileSource` reads it; either way every read
 * gives what `openFileSource` gives, the source names its place on disk, and a read after
 * `close` is refused.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import {
  openFileSource,
  openSmallFileSource,
  SMALL_FILE_BYTES,
} from '../../src/inspect/byte-source.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-small-source-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

function fileOf(size: number, seed: number): string {
  const path = join(dir, `f${n++}.bin`);
  writeFileSync(
    path,
    Uint8Array.from({ length: size }, (_, i) => (i * 131 + seed) & 0xff),
  );
  return path;
}

describe('openSmallFileSource', () => {
  test('property: every read gives what openFileSource gives, small file or not', async () => {
    const reads = fc.array(fc.tuple(fc.nat(), fc.nat({ max: 5000 })), { maxLength: 6 });
    const size = fc.oneof(
      fc.nat({ max: 5000 }),
      fc.constantFrom(SMALL_FILE_BYTES, SMALL_FILE_BYTES + 1),
    );
    await fc.assert(
      fc.asyncProperty(size, fc.nat({ max: 255 }), reads, async (bytes, seed, wanted) => {
        const path = fileOf(bytes, seed);
        const small = await openSmallFileSource(path);
        const plain = await openFileSource(path);
        try {
          expect(small.size).toBe(bytes);
          expect(small.place).toEqual({ kind: 'file', path: resolve(path), start: 0 });
          for (const [at, length] of wanted) {
            const offset = bytes === 0 ? 0 : at % (bytes + 10);
            expect(await small.read(offset, length)).toEqual(await plain.read(offset, length));
          }
        } finally {
          await small.close();
          await plain.close();
          rmSync(path);
        }
      }),
      { numRuns: 25 },
    );
  });

  test('a read after close is refused; close twice is nothing', async () => {
    const source = await openSmallFileSource(fileOf(100, 1));
    await source.close();
    await source.close();
    await expect(source.read(0, 10)).rejects.toThrow(/read after close/);
  });
});
