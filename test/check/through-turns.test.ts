/**
 * The TDMS, ULog and CH10 walks read a file on disk into two buffers that take turns
 * (values/ordered-pool.ts `throughTurns`): the source they get reads the same bytes under
 * the name the caller's source has (issues name it), a slice of a file (a stored zip
 * member) its own bytes only, a source of bytes in memory is handed over as it is, and a
 * long read of blocking reads lets timers run between them.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { memorySource, openFileSource, sourceOf } from '../../src/inspect/shared.js';
import { throughTurns } from '../../src/values/index.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-through-turns-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('a whole file: the same bytes, under the caller’s name, two buffers taking turns', async () => {
  const bytes = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 31) & 0xff);
  const path = join(dir, 'data.bin');
  await writeFile(path, bytes);
  const file = await openFileSource(path);
  const shown = sourceOf({
    name: 'shown name.ulg',
    size: file.size,
    place: file.place,
    readAt: (start, n) => file.read(start, n),
    close: () => file.close(),
  });
  try {
    const seen = await throughTurns(shown, async (s) => {
      expect(s).not.toBe(shown);
      expect(s.name).toBe('shown name.ulg');
      expect(s.size).toBe(bytes.byteLength);
      const a = await s.read(0, 100_000);
      const first = Buffer.from(a).equals(bytes.subarray(0, 100_000));
      const b = await s.read(100_000, 100_000);
      // The third read goes into the first one's buffer: it is not a new one a read.
      const c = await s.read(200_000, 100_000);
      const turned = c.buffer === a.buffer && b.buffer !== a.buffer;
      return { first, last: Buffer.from(c).equals(bytes.subarray(200_000)), turned };
    });
    expect(seen).toEqual({ first: true, last: true, turned: true });
    // Read through a source of its own: the caller's source read nothing.
    expect(shown.bytesRead).toBe(0);
  } finally {
    await shown.close();
  }
});

test('a slice of a file (a stored zip member): its bytes at its offset, no further, under its name', async () => {
  const bytes = Uint8Array.from({ length: 200_000 }, (_, i) => (i * 17 + (i >> 9)) & 0xff);
  const path = join(dir, 'archive.zip');
  await writeFile(path, bytes);
  const file = await openFileSource(path);
  const start = 30_000;
  const size = 150_000;
  const member = sourceOf({
    name: 'archive.zip!/run.tdms',
    size,
    place: { kind: 'file', path: file.place?.kind === 'file' ? file.place.path : path, start },
    readAt: (at, n) => file.read(start + at, n),
    close: async () => {},
  });
  try {
    const seen = await throughTurns(member, async (s) => {
      const head = await s.read(0, 70_000);
      const tail = await s.read(size - 100, 1_000);
      return {
        own: s !== member,
        name: s.name,
        size: s.size,
        place: s.place,
        head: Buffer.from(head).equals(bytes.subarray(start, start + 70_000)),
        // Cut at the member's end, not the file's.
        tail: Buffer.from(tail).equals(bytes.subarray(start + size - 100, start + size)),
      };
    });
    expect(seen).toEqual({
      own: true,
      name: 'archive.zip!/run.tdms',
      size,
      place: member.place,
      head: true,
      tail: true,
    });
    expect(member.bytesRead).toBe(0);
  } finally {
    await file.close();
  }
});

test('a source in memory is handed over as it is', async () => {
  const source = memorySource(new Uint8Array(10), 'memory.ulg');
  expect(await throughTurns(source, async (s) => s)).toBe(source);
});

test('one read at a time: a read started before the last one settled waits for it', async () => {
  const bytes = Uint8Array.from({ length: 3 << 20 }, (_, i) => (i * 7 + (i >> 12)) & 0xff);
  const path = join(dir, 'reads.bin');
  await writeFile(path, bytes);
  const file = await openFileSource(path);
  try {
    for (let round = 0; round < 60; round++) {
      await throughTurns(file, async (s) => {
        // Read 0 is large and not awaited (a read ahead left under way); read 2 goes into
        // its buffer. Were they under way together, read 0 could land on read 2's bytes.
        const first = s.read(0, 2 << 20);
        const second = s.read(2 << 20, 64 << 10);
        const third = await s.read((2 << 20) + (64 << 10), 64 << 10);
        const at = (2 << 20) + (64 << 10);
        expect(Buffer.from(third).equals(bytes.subarray(at, at + (64 << 10)))).toBe(true);
        await Promise.all([first, second]);
      });
    }
  } finally {
    await file.close();
  }
});

test('a long read takes turns of the event loop: a timer set before it runs during it', async () => {
  const bytes = Uint8Array.from({ length: 64 * 4096 }, (_, i) => (i * 13) & 0xff);
  const path = join(dir, 'turns.bin');
  await writeFile(path, bytes);
  const firedAt = await throughTurns(path, async (s) => {
    let fired = -1;
    let k = 0;
    setTimeout(() => {
      fired = k;
    }, 1);
    // The timer is due before the first read: it runs at the first turn the reads take,
    // however fast they are (a fast machine did 47 reads within its first millisecond).
    const due = performance.now() + 5;
    while (performance.now() < due) {}
    for (; k < 64; k++) {
      const got = await s.read(k * 4096, 4096);
      expect(Buffer.from(got).equals(bytes.subarray(k * 4096, (k + 1) * 4096))).toBe(true);
    }
    return fired;
  });
  // Blocking reads resolve at once: without a turn every few reads, the timer would wait
  // for all 64, and run after them (firedAt -1).
  expect(firedAt).toBeGreaterThanOrEqual(0);
  expect(firedAt).toBeLessThan(64);
});
