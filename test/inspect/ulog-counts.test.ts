/**
 * The walk's counts against the messages written: every message, data message (by
 * subscription, unknown msg_id, size the format does not allow), untagged and tagged log
 * and dropout, in logs larger than the reader's window (CHUNK), so that messages run across
 * its ends, and with a GPS message whose time the walk reads on the way; and a file on
 * disk, read into two buffers that take turns, inspected as the same bytes from memory.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { body, UlogWriter } from '../../scripts/fixtures/ulog-writer.js';
import { inspectUlog, inspectUlogSource } from '../../src/formats/ulog/inspect.js';
import { CHUNK } from '../../src/formats/ulog/reader.js';
import { memorySource, sourceOf } from '../../src/inspect/byte-source.js';

const SMALL = {
  name: 'small',
  fields: [
    { type: 'uint64_t', name: 'timestamp' },
    { type: 'uint8_t', name: 'x', array: 4 },
  ],
};
/** About 30 KB a message: a few dozen take the log past the window. */
const BIG = {
  name: 'big',
  fields: [
    { type: 'uint64_t', name: 'timestamp' },
    { type: 'uint8_t', name: 'y', array: 30_000 },
  ],
};
const GPS = {
  name: 'sensor_gps',
  fields: [
    { type: 'uint64_t', name: 'timestamp' },
    { type: 'uint64_t', name: 'time_utc_usec' },
  ],
};

type Event =
  | { kind: 'small' | 'big' | 'gps' }
  | { kind: 'badSize'; size: number }
  | { kind: 'unknown'; size: number }
  | { kind: 'log' | 'dropout' | 'sync' }
  | { kind: 'tagged'; tag: number };

const eventArb: fc.Arbitrary<Event> = fc.oneof(
  fc.constantFrom<Event>(
    { kind: 'small' },
    { kind: 'big' },
    { kind: 'gps' },
    { kind: 'log' },
    { kind: 'dropout' },
    { kind: 'sync' },
  ),
  fc.record({
    kind: fc.constant('badSize' as const),
    size: fc.integer({ min: 0, max: 40 }).filter((n) => n !== 12),
  }),
  fc.record({ kind: fc.constant('unknown' as const), size: fc.integer({ min: 0, max: 60_000 }) }),
  fc.record({ kind: fc.constant('tagged' as const), tag: fc.integer({ min: 0, max: 2 }) }),
);

/** The log: definitions, three subscriptions, then `lead` big messages and the events. */
function logOf(lead: number, events: readonly Event[], gpsTime: bigint): Uint8Array {
  const w = new UlogWriter();
  w.flagBits();
  w.format(SMALL).format(BIG).format(GPS);
  w.subscribe(0, 0, 'small').subscribe(0, 1, 'big').subscribe(0, 2, 'sensor_gps');
  for (let i = 0; i < lead; i++) w.data(1, body(30_008, BigInt(i)));
  for (const [i, e] of events.entries()) {
    const t = BigInt(lead + i);
    if (e.kind === 'small') w.data(0, body(12, t));
    else if (e.kind === 'big') w.data(1, body(30_008, t));
    else if (e.kind === 'gps') w.data(2, body(16, t, [[8, gpsTime]]));
    else if (e.kind === 'badSize') w.data(0, body(e.size, t));
    else if (e.kind === 'unknown') w.data(9, new Uint8Array(e.size));
    else if (e.kind === 'log') w.log(6, t, 'text');
    else if (e.kind === 'tagged') w.taggedLog(6, e.tag, t, 'tagged');
    else if (e.kind === 'dropout') w.dropout(5);
    else w.sync();
  }
  return w.bytes();
}

describe('the walk counts what was written', () => {
  test('across the window ends, with and without a GPS time to read', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 70 }),
        fc.array(eventArb, { maxLength: 120 }),
        fc.constantFrom(0n, 1_700_000_000_000_000n),
        async (lead, events, gpsTime) => {
          const bytes = logOf(lead, events, gpsTime);
          const profile = await inspectUlogSource(memorySource(bytes, 'x.ulg'));
          const count = (kind: Event['kind']) => events.filter((e) => e.kind === kind).length;
          const data =
            lead +
            count('small') +
            count('big') +
            count('gps') +
            count('badSize') +
            count('unknown');
          // Flag bits, three formats and three subscriptions before the events.
          expect(profile.counts).toEqual({
            messages: 7 + lead + events.length,
            data,
            dropouts: count('dropout'),
          });
          const bySub = Object.fromEntries(
            profile.subscriptions.map((s) => [s.messageName, s.messages]),
          );
          expect(bySub).toEqual({
            small: count('small') + count('badSize'),
            big: lead + count('big'),
            sensor_gps: count('gps'),
          });
          const tagged = [0, 1, 2]
            .map((tag) => ({
              tag,
              count: events.filter((e) => e.kind === 'tagged' && e.tag === tag).length,
            }))
            .filter((t) => t.count > 0);
          expect(profile.logs.untagged).toBe(count('log'));
          expect([...profile.logs.tagged].sort((a, b) => a.tag - b.tag)).toEqual(tagged);
          const gpsAt = events.findIndex((e) => e.kind === 'gps');
          expect(profile.gps?.timeUtcUsec).toBe(
            gpsTime > 0n && gpsAt >= 0 ? String(gpsTime) : undefined,
          );
          const messages = profile.issues.map((i) => i.message).join('\n');
          expect(messages.includes('which no subscription announced')).toBe(count('unknown') > 0);
          if (count('unknown') > 0)
            expect(messages).toContain(`${count('unknown')} data message(s) with msg_id 9`);
          expect(
            messages.includes('a size their format does not allow') || /small.*size/.test(messages),
          ).toBe(count('badSize') > 0);
          if (lead > 40) expect(bytes.byteLength).toBeGreaterThan(CHUNK);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('a data message whose header ends the window', () => {
  test.each([1, 2, 3, 4, 5, 6, 7])('starting %i bytes before the first window ends', async (k) => {
    const w = new UlogWriter();
    // msg_id 259: both its bytes count (bytes past the window would read as 0).
    w.format(SMALL).subscribe(0, 259, 'small');
    // Fillers of an unannounced msg_id, up to CHUNK - k (each at most 65,535 bytes whole).
    let fillers = 0;
    while (w.length < CHUNK - k) {
      const room = CHUNK - k - w.length;
      const size = room > 60_000 + 8 ? 60_000 : room - 5;
      w.data(9, new Uint8Array(Math.max(0, size)));
      fillers += 1;
    }
    expect(w.length).toBe(CHUNK - k);
    w.data(259, body(12, 1n)).data(259, body(12, 2n));
    const profile = await inspectUlogSource(memorySource(w.bytes(), 'x.ulg'));
    expect(profile.subscriptions.map((s) => s.messages)).toEqual([2]);
    expect(profile.counts.data).toBe(fillers + 2);
    expect(profile.issues.map((i) => i.message).join('\n')).toContain(
      `${fillers} data message(s) with msg_id 9`,
    );
  });
});

describe('a file on disk', () => {
  const dir = mkdtempSync(join(tmpdir(), 'importkit-ulog-counts-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('inspected by its path (two read buffers that take turns) as from memory', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 70, max: 110 }),
        fc.array(eventArb, { maxLength: 80 }),
        async (lead, events) => {
          // 2.1 to 3.3 MiB: three windows or more, each read into the buffer of the one before last.
          const bytes = logOf(lead, events, 1_700_000_000_000_000n);
          const path = join(dir, 'log.ulg');
          writeFileSync(path, bytes);
          const fromDisk = await inspectUlog(path);
          const fromMemory = await inspectUlogSource(memorySource(bytes, path));
          expect(fromDisk).toEqual(fromMemory);
        },
      ),
      { numRuns: 8 },
    );
  });

  test('bytes read ahead and skipped are counted as from memory, however late their read settles', async () => {
    // The last big message ends past the second window: the inspection skips its body,
    // which the read ahead has already asked for.
    const bytes = logOf(70, [], 1_700_000_000_000_000n);
    const late = sourceOf({
      name: 'late.ulg',
      size: bytes.byteLength,
      readAt: async (start, n) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return bytes.subarray(start, start + n);
      },
      close: async () => {},
    });
    const fromMemory = await inspectUlogSource(memorySource(bytes, 'late.ulg'));
    expect(fromMemory.bytesRead).toBe(bytes.byteLength);
    expect(await inspectUlogSource(late)).toEqual(fromMemory);
  });
});
