/**
 * The ULog walks' window (formats/ulog/reader.ts) reads the bytes after it while a walk goes
 * through it. Whatever the gets (forward in small steps, across a window's end, jumping back
 * or far ahead, bounded by `until`), each gives exactly the file's bytes, and so does the
 * window at the place asked, even from a source whose two buffers take turns (a read
 * overwrites the buffer of the read before last); a walk from start to end reads each byte
 * once.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { CHUNK, ChunkReader } from '../../src/formats/ulog/reader.js';
import { type ByteSource, sourceOf } from '../../src/inspect/shared.js';

/** A source over `bytes` whose reads go into two buffers that take turns, after a pause. */
function turnsSource(bytes: Uint8Array): ByteSource & { read_: number } {
  const turns = [new Uint8Array(0), new Uint8Array(0)];
  let read_ = 0;
  const source = sourceOf({
    name: 'turns.ulg',
    size: bytes.byteLength,
    async readAt(start, n, reads) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      const k = reads % 2;
      if ((turns[k] as Uint8Array).byteLength < n) turns[k] = new Uint8Array(n);
      const out = (turns[k] as Uint8Array).subarray(0, n);
      out.set(bytes.subarray(start, start + n));
      read_ += n;
      return out;
    },
    close: async () => {},
  });
  return Object.assign(source, {
    get read_() {
      return read_;
    },
  });
}

/** Whether two byte ranges hold the same bytes (a deep equality of 64 KiB is slow). */
function same(a: Uint8Array | undefined, b: Uint8Array): boolean {
  return a !== undefined && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
}

function fileOf(size: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let x = seed | 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

/** One get: a step from the last place (or a jump back), its length, a bound or none. */
const stepArb = fc.record({
  move: fc.oneof(
    { weight: 12, arbitrary: fc.integer({ min: 0, max: 70_000 }) },
    { weight: 1, arbitrary: fc.integer({ min: -3 * CHUNK, max: 3 * CHUNK }) },
  ),
  n: fc.oneof(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 65_538 })),
  bounded: fc.boolean(),
});

test('the window reads ahead: every get and the window give the file bytes asked for', async () => {
  const bytes = fileOf(4 * CHUNK + 12_345, 7);
  await fc.assert(
    fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 120 }), async (steps) => {
      const reader = new ChunkReader(turnsSource(bytes));
      let pos = 0;
      for (const { move, n, bounded } of steps) {
        pos = Math.max(0, Math.min(bytes.byteLength - 1, pos + move));
        const want = Math.min(n, bytes.byteLength - pos);
        const until = bounded ? Math.min(bytes.byteLength, pos + want + 1000) : undefined;
        const got = await reader.get(pos, want, until);
        const file = bytes.subarray(pos, pos + want);
        expect(same(got, file), `get(${pos}, ${want})`).toBe(true);
        const at = pos - reader.windowStart;
        expect(at).toBeGreaterThanOrEqual(0);
        expect(same(reader.window.subarray(at, at + want), file), `window at ${pos}`).toBe(true);
      }
    }),
    { numRuns: 40 },
  );
});

test('a walk from start to end reads each byte once, and its reads are at most CHUNK bytes', async () => {
  const bytes = fileOf(3 * CHUNK + 999, 3);
  const source = turnsSource(bytes);
  const reader = new ChunkReader(source);
  let pos = 0;
  let size = 1;
  while (pos + size <= bytes.byteLength) {
    const got = await reader.get(pos, size);
    expect(got?.[0]).toBe(bytes[pos]);
    expect(got?.[size - 1]).toBe(bytes[pos + size - 1]);
    pos += size;
    size = (size * 7 + 3) % 60_000 || 1;
  }
  expect(source.read_).toBeLessThanOrEqual(bytes.byteLength);
  expect(source.reads).toBeLessThanOrEqual(Math.ceil(bytes.byteLength / CHUNK) + 1);
});

test("a get across the window's end, from each of its last bytes, or just after it", async () => {
  const bytes = fileOf(2 * CHUNK + 100, 11);
  for (const back of [16, 9, 8, 5, 3, 1, 0, -1, -7]) {
    const reader = new ChunkReader(turnsSource(bytes));
    await reader.get(0, 1);
    const end = reader.windowStart + reader.window.byteLength;
    expect(end).toBe(CHUNK);
    const at = end - back;
    const got = await reader.get(at, 16);
    expect(same(got, bytes.subarray(at, at + 16)), `get at the end - ${back}`).toBe(true);
    const w = at - reader.windowStart;
    expect(same(reader.window.subarray(w, w + 16), bytes.subarray(at, at + 16))).toBe(true);
  }
});
