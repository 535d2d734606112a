/**
 * The inspection walk shared by threads (`check --full --jobs`, scan-jobs.ts) finds what one
 * walk finds: the same profile, whatever the jobs and however small the ranges, on logs with
 * subscriptions in the data (late, again to another message, to GPS messages, to a message
 * without a format), GPS messages without and with a time, data of no subscription and of
 * sizes the format does not allow, messages too short for their msg_id, definitions in the
 * data (a format sends the walk back to one walk), logged text, damage and appended data.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { body, type FormatSpec, UlogWriter } from '../../scripts/fixtures/ulog-writer.js';
import { startUlogWorkers } from '../../src/formats/ulog/check-jobs.js';
import {
  inspectUlog,
  inspectUlogSource,
  type UlogProfile,
} from '../../src/formats/ulog/inspect.js';
import { CHUNK } from '../../src/formats/ulog/reader.js';
import { memorySource } from '../../src/inspect/byte-source.js';
import { readThroughTurns, type WorkerPool } from '../../src/values/ordered-pool.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-ulog-shared-'));
let n = 0;

const u64 = (name: string) => ({ type: 'uint64_t', name });
const FORMATS: FormatSpec[] = [
  { name: 'a', fields: [u64('timestamp'), { type: 'float', name: 'x' }] },
  { name: 'sensor_gps', fields: [u64('timestamp'), u64('time_utc_usec')] },
  {
    name: 'vehicle_gps_position',
    fields: [u64('timestamp'), { type: 'int32_t', name: 'lat' }, u64('time_utc_usec')],
  },
];
const NAMES = ['a', 'sensor_gps', 'vehicle_gps_position', 'ghost'];

type Event =
  /** A data message of `size` bytes after the msg_id, a GPS time at 8 and 12 when it fits. */
  | { kind: 'data'; msgId: number; size: number; time: bigint }
  | { kind: 'subscribe'; msgId: number; name: number; multiId: number }
  | { kind: 'short' | 'log' | 'dropout' | 'sync' | 'remove' | 'info' | 'format' | 'append' }
  | { kind: 'tagged'; tag: number }
  | { kind: 'damage'; bytes: Uint8Array };

const eventArb: fc.Arbitrary<Event> = fc.oneof(
  {
    weight: 20,
    arbitrary: fc.record({
      kind: fc.constant('data' as const),
      msgId: fc.integer({ min: 0, max: 4 }),
      size: fc.constantFrom(12, 12, 14, 16, 18, 20, 5, 30),
      time: fc.constantFrom(0n, 0n, 1_700_000_000_000_000n, 1_700_000_000_500_000n),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('subscribe' as const),
      msgId: fc.integer({ min: 0, max: 4 }),
      name: fc.integer({ min: 0, max: NAMES.length - 1 }),
      multiId: fc.integer({ min: 0, max: 2 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.constantFrom<Event>(
      { kind: 'short' },
      { kind: 'log' },
      { kind: 'dropout' },
      { kind: 'sync' },
      { kind: 'remove' },
      { kind: 'info' },
      { kind: 'append' },
    ),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('tagged' as const), tag: fc.nat(2) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('damage' as const),
      bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }),
    }),
  },
);

/** The log: flag bits, the formats, one subscription, then the events (the first `append` starts appended data). */
function logOf(events: readonly Event[]): string {
  const w = new UlogWriter();
  const appended = events.some((e) => e.kind === 'append');
  const offsets = w.flagBits([], appended ? [0x01] : [], appended ? [1n] : []);
  for (const f of FORMATS) w.format(f);
  w.subscribe(0, 0, 'a');
  let split = 0;
  for (const [i, e] of events.entries()) {
    const t = BigInt(i);
    if (e.kind === 'data') {
      const at = ([8, 12] as const).filter((o) => o + 8 <= e.size);
      w.data(
        e.msgId,
        body(
          e.size,
          t,
          at.map((o) => [o, e.time]),
        ),
      );
    } else if (e.kind === 'subscribe') w.subscribe(e.multiId, e.msgId, NAMES[e.name] as string);
    else if (e.kind === 'short') w.message('D', new Uint8Array(1));
    else if (e.kind === 'log') w.log(6, t, 'text');
    else if (e.kind === 'tagged') w.taggedLog(6, e.tag, t, 'tagged');
    else if (e.kind === 'dropout') w.dropout(5);
    else if (e.kind === 'sync') w.sync();
    else if (e.kind === 'remove') w.message('R', Uint8Array.from([0, 0, 0]));
    else if (e.kind === 'info') w.infoText('sys_name', 'late');
    else if (e.kind === 'format') w.format({ name: 'late', fields: [u64('timestamp')] });
    else if (e.kind === 'append') split ||= w.length;
    else if (e.kind === 'damage') w.raw(e.bytes);
  }
  const bytes = w.bytes();
  if (appended) new DataView(bytes.buffer).setBigUint64(offsets, BigInt(split), true);
  const path = join(dir, `l${n++}.ulg`);
  writeFileSync(path, bytes);
  return path;
}

/** A profile without what depends on how the file was read (its bytes read). */
function comparable(p: UlogProfile): unknown {
  return { ...p, bytesRead: 0 };
}

const pools = new Map<number, WorkerPool>();
beforeAll(() => {
  for (const jobs of [2, 3, 4]) pools.set(jobs, startUlogWorkers(jobs));
});
afterAll(async () => {
  for (const pool of pools.values()) await pool.close();
  rmSync(dir, { recursive: true, force: true });
});

function sharedWalk(
  path: string,
  jobs: number,
  least: number,
  onProgress?: (done: number) => void,
): Promise<UlogProfile> {
  const pool = pools.get(jobs) as WorkerPool;
  const shared = { pool, path, jobs, least };
  return readThroughTurns(path, (s) =>
    inspectUlogSource(s, { shared, ...(onProgress ? { onProgress } : {}) }),
  );
}

describe('the inspection walk shared by threads', () => {
  test('finds the profile one walk finds, with 2, 3 or 4 jobs and ranges of any size', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(eventArb, { minLength: 20, maxLength: 150 }),
        fc.integer({ min: 8, max: 96 }),
        // A format in the data, in one log of five: the walk goes back to one walk.
        fc.tuple(fc.nat(4), fc.nat()),
        async (events, least, [lateFormat, at]) => {
          if (lateFormat === 0) events.splice(at % (events.length + 1), 0, { kind: 'format' });
          const path = logOf(events);
          const one = comparable(await inspectUlog(path));
          for (const jobs of [2, 3, 4]) {
            expect(comparable(await sharedWalk(path, jobs, least))).toEqual(one);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  test('finds the first GPS time after a late subscription, past messages without one', async () => {
    const events: Event[] = [];
    for (let i = 0; i < 200; i++) events.push({ kind: 'data', msgId: 0, size: 12, time: 0n });
    events.push({ kind: 'subscribe', msgId: 3, name: 1, multiId: 1 });
    for (let i = 0; i < 100; i++) {
      events.push({ kind: 'data', msgId: 3, size: 16, time: i < 60 ? 0n : BigInt(1e15 + i) });
      events.push({ kind: 'data', msgId: 0, size: 12, time: 0n });
    }
    const path = logOf(events);
    const one = await inspectUlog(path);
    expect(one.gps).toMatchObject({ messageName: 'sensor_gps', multiId: 1 });
    expect(one.gps?.timeUtcUsec).toBe(String(1e15 + 60));
    const done: number[] = [];
    const shared = await sharedWalk(path, 2, 64, (d) => done.push(d));
    expect(comparable(shared)).toEqual(comparable(one));
    // Progress as each range is joined (16 ranges), never back, up to the file's end.
    expect(done.length).toBeGreaterThan(8);
    expect(done).toEqual([...done].sort((a, b) => a - b));
    expect(done.at(-1)).toBe(shared.file.size);
  });

  test("reads a GPS time in a message across a window's end, in one walk and after shared ranges", async () => {
    const TIME = 1_700_000_000_000_000n;
    // A zero time first (a time is still wanted), logged text up to `target`, the time there.
    const logWithGpsAt = (target: (subscribedAt: number) => number) => {
      const w = new UlogWriter();
      w.format(FORMATS[1] as FormatSpec);
      const subscribedAt = w.length;
      w.subscribe(0, 0, 'sensor_gps').data(0, body(16, 1n, [[8, 0n]]));
      const at = target(subscribedAt);
      while (w.length < at) {
        const left = at - w.length;
        // Texts of 4 KiB: a range's cut looks for 16 messages in a row, which texts of 60 KB
        // (the most a message holds) put megabytes apart, past the file's end.
        w.log(6, 2n, 'x'.repeat((left > 4_024 ? 4_012 : left) - 12));
      }
      w.data(0, body(16, 3n, [[8, TIME]])).log(6, 4n, 'after');
      for (let i = 0; i < 2; i++) w.log(6, 5n, 'y'.repeat(30_000));
      return w.bytes();
    };
    // Across the header (3 bytes), the msg_id (to 5), the time (13 to 21) and at the end (21).
    for (const k of [0, 1, 3, 4, 5, 6, 12, 13, 14, 20, 21, 22]) {
      // One walk's first window is the file's first CHUNK bytes.
      const walked = logWithGpsAt(() => CHUNK - k);
      const one = await inspectUlogSource(memorySource(walked, 'x.ulg'));
      expect([one.gps?.offset, one.gps?.timeUtcUsec]).toEqual([CHUNK - k, String(TIME)]);
      // After shared ranges, the time is looked for in windows from the GPS subscription on.
      const bytes = logWithGpsAt((from) => from + CHUNK - k);
      const path = join(dir, `gps-${k}.ulg`);
      writeFileSync(path, bytes);
      const shared = await sharedWalk(path, 2, 65_536);
      expect(comparable(shared)).toEqual(comparable(await inspectUlog(path)));
      expect(shared.gps?.timeUtcUsec).toBe(String(TIME));
    }
  });
});
