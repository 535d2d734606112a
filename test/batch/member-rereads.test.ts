/**
 * Members of compressed archives are re-readable in place: a deflated zip member and a
 * tar.gz member answer any read, forward or backward, with the member's bytes (one live
 * stream, continued forward and restarted from the member's start for a read behind it),
 * and a tar.gz member read outside what the walk kept streams the archive again.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { zipBytes } from '../../scripts/fixtures/zip-writer.js';
import { openContainer } from '../../src/inspect/archive/container.js';
import { forwardReads, keptSource } from '../../src/inspect/archive/member-source.js';
import { TAR_KEEP_WHOLE } from '../../src/inspect/archive/tar.js';
import type { ByteSource } from '../../src/inspect/byte-source.js';
import { tarOf } from '../helpers/archives.js';

/** Bytes that compress a little but repeat nowhere near (so an offset mistake shows). */
function member(size: number, seed: number): Uint8Array {
  const out = new Uint8Array(size);
  let x = seed * 2654435761 + 1;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = i % 4 === 0 ? x >>> 24 : (i >> 8) & 0xff;
  }
  return out;
}

/** A stream of `bytes` in chunks of the given sizes (cycled), counting the passes opened. */
function chunked(bytes: Uint8Array, sizes: readonly number[], passes: { n: number }) {
  return async () => {
    passes.n += 1;
    return (async function* () {
      let i = 0;
      for (let at = 0; at < bytes.byteLength; i++) {
        const n = Math.max(1, sizes[i % sizes.length] ?? 1);
        yield bytes.subarray(at, at + n);
        at += n;
      }
    })();
  };
}

const readsArb = fc.array(
  fc.record({
    offset: fc.integer({ min: 0, max: 70_000 }),
    length: fc.integer({ min: 0, max: 9_000 }),
  }),
  { minLength: 1, maxLength: 16 },
);

/** Each read of `source` answers the bytes of `bytes` there. */
async function readsMatch(
  source: ByteSource,
  bytes: Uint8Array,
  reads: ReadonlyArray<{ offset: number; length: number }>,
) {
  for (const { offset, length } of reads) {
    const at = Math.min(offset, bytes.byteLength);
    const want = bytes.subarray(at, Math.min(bytes.byteLength, at + length));
    const got = await source.read(offset, length);
    expect(Buffer.from(got).equals(Buffer.from(want))).toBe(true);
  }
}

describe('forwardReads', () => {
  test('answers any read order over any chunking; a read behind the stream restarts it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 60_000 }),
        fc.array(fc.integer({ min: 1, max: 5_000 }), { minLength: 1, maxLength: 5 }),
        readsArb,
        async (size, sizes, reads) => {
          const bytes = member(size, size);
          const passes = { n: 0 };
          const stream = forwardReads(chunked(bytes, sizes, passes));
          const source = { read: stream.read } as ByteSource;
          // Reads inside the member (the member sources clamp the others before this).
          const inside = reads
            .map(({ offset, length }) => ({ offset, length: Math.min(length, size - offset) }))
            .filter(({ offset, length }) => offset < size && length > 0);
          await readsMatch(source, bytes, inside);
          // A new pass starts only for the first read and a read that starts behind where
          // the read before it ended.
          let behind = 0;
          let end = 0;
          for (const { offset, length } of inside) {
            if (offset < end) behind += 1;
            end = offset + length;
          }
          expect(passes.n).toBeLessThanOrEqual(Math.min(1, inside.length) + behind);
          await stream.close();
        },
      ),
      { numRuns: 150 },
    );
  });

  test('a read a little behind the stream is answered from what it kept, far behind restarts', async () => {
    const bytes = member(3 * 1024 * 1024, 9);
    const passes = { n: 0 };
    const stream = forwardReads(chunked(bytes, [16 * 1024], passes));
    const source = { read: stream.read } as ByteSource;
    await readsMatch(source, bytes, [
      { offset: 2_000_000, length: 100 },
      { offset: 1_500_000, length: 600_000 },
    ]);
    expect(passes.n).toBe(1);
    await readsMatch(source, bytes, [{ offset: 10, length: 100 }]);
    expect(passes.n).toBe(2);
    await stream.close();
  });

  test('a stream of many small chunks: what is kept behind is still answered as pieces are dropped', async () => {
    // 12,288 chunks of 256 bytes: thousands are dropped behind the stream, in batches.
    const bytes = member(3 * 1024 * 1024, 5);
    const passes = { n: 0 };
    const stream = forwardReads(chunked(bytes, [256], passes));
    const source = { read: stream.read } as ByteSource;
    const reads = [];
    for (let at = 0; at + 5000 <= bytes.byteLength; at += 250_007) {
      // Each read forward, then two behind it within what is kept: the last 1 MiB the
      // stream passed (it stands at the end of the chunk the read ended in), from its start.
      reads.push({ offset: at, length: 5000 });
      const streamEnd = Math.ceil((at + 5000) / 256) * 256;
      reads.push({ offset: Math.max(0, streamEnd - 1024 * 1024), length: 3000 });
      reads.push({ offset: Math.max(0, at - 1000), length: 6000 });
    }
    await readsMatch(source, bytes, reads);
    expect(passes.n).toBe(1);
    await stream.close();
  });

  test('reads asked for at once are answered one after another, each with its bytes', async () => {
    const bytes = member(50_000, 3);
    const stream = forwardReads(chunked(bytes, [777], { n: 0 }));
    const asked = [40_000, 10, 30_000, 0, 49_990].map((o) => stream.read(o, 100));
    const got = await Promise.all(asked);
    for (const [i, o] of [40_000, 10, 30_000, 0, 49_990].entries())
      expect(Buffer.from(got[i] as Uint8Array)).toEqual(
        Buffer.from(bytes.subarray(o, Math.min(50_000, o + 100))),
      );
    await stream.close();
  });
});

describe('keptSource (a tar.gz member)', () => {
  test('answers reads from its kept ends, else from a new stream of the member', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 60_000 }),
        fc.integer({ min: 0, max: 20_000 }),
        fc.integer({ min: 0, max: 20_000 }),
        readsArb,
        async (size, headLength, tailLength, reads) => {
          const bytes = member(size, 7);
          const head = Math.min(size, headLength);
          const tail = Math.min(size - head, tailLength);
          const kept = [
            { offset: 0, bytes: bytes.subarray(0, head) },
            { offset: size - tail, bytes: bytes.subarray(size - tail) },
          ];
          const passes = { n: 0 };
          const fail = (err: unknown) => err as Error;
          const source = keptSource('m', size, kept, chunked(bytes, [4096], passes), fail);
          await readsMatch(source, bytes, reads);
          // Kept whole (a small member): the archive is never streamed again.
          if (head === size) expect(passes.n).toBe(0);
          await source.close();
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('archive members read in place, forward and backward', () => {
  let tmp: string;
  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'importkit-member-rereads-'));
  });
  afterAll(() => rm(tmp, { recursive: true, force: true }));

  /**
   * The source of the member named `name` in the archive at `path`, used inside `use`;
   * answers the bytes the walk read from the archive file.
   */
  async function withMember(
    path: string,
    kind: 'zip' | 'tar.gz',
    name: string,
    use: (source: ByteSource) => Promise<void>,
  ): Promise<number> {
    const container = await openContainer(path, kind);
    let seen = false;
    try {
      await container.walk(async (m, open) => {
        if (m.path !== name) return;
        seen = true;
        const source = await open();
        try {
          await use(source);
        } finally {
          await source.close();
        }
      }, 1);
    } finally {
      await container.close();
    }
    expect(seen).toBe(true);
    return container.bytesRead;
  }

  test('a deflated zip member: random reads equal the original bytes', async () => {
    const bytes = member(70_000, 11);
    const path = join(tmp, 'set.zip');
    await writeFile(
      path,
      zipBytes([
        { name: 'a.bin', data: member(1000, 1), method: 8 },
        { name: 'b.bin', data: bytes, method: 8 },
      ]),
    );
    await withMember(path, 'zip', 'b.bin', async (source) => {
      expect(source.size).toBe(bytes.byteLength);
      await fc.assert(
        fc.asyncProperty(readsArb, (reads) => readsMatch(source, bytes, reads)),
        { numRuns: 100 },
      );
      expect(source.bytesRead).toBeGreaterThan(0);
    });
  });

  test('a tar.gz member larger than what is kept: read once, in archive order, then anywhere', async () => {
    // Over the size kept whole: the walk inflates it once into a private temp file, and
    // reads in its middle, back and forth, never stream the archive again (each such read
    // streamed it again from its start: 20 members of 40 MiB took infer 36.8 s).
    const size = TAR_KEEP_WHOLE + 3 * 1024 * 1024;
    // Compressible, yet every KiB differs (its index): the archive stays small.
    const bytes = Buffer.alloc(size);
    for (let at = 0; at + 4 <= size; at += 1024) bytes.writeUInt32LE(at / 1024, at);
    const path = join(tmp, 'set.tar.gz');
    const archive = gzipSync(
      await tarOf([
        ['first.bin', member(3000, 2)],
        ['big.bin', bytes],
      ]),
      { level: 1 },
    );
    await writeFile(path, archive);
    const middle = 9 * 1024 * 1024;
    const read = await withMember(path, 'tar.gz', 'big.bin', async (source) => {
      await readsMatch(source, bytes, [
        { offset: 0, length: 100 },
        { offset: size - 100, length: 100 },
        { offset: middle, length: 70_000 },
        { offset: middle + 5_000_000, length: 70_000 },
        { offset: middle + 70_000, length: 10 },
        { offset: 50, length: 100 },
      ]);
    });
    expect(read).toBe(archive.byteLength);
  });
});
