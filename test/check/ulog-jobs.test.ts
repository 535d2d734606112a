import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import { afterAll, expect, test } from 'vitest';
import { type FormatSpec, UlogWriter } from '../../scripts/fixtures/ulog-writer.js';
import { checkConfig } from '../../src/check/index.js';
import { readUlogPart } from '../../src/formats/ulog/check-values.js';
import { inspectUlog } from '../../src/formats/ulog/inspect.js';
import { openFileSource } from '../../src/inspect/byte-source.js';
import type { ImportDocument } from '../../src/model/document.js';
import type { UlogConfig } from '../../src/model/index.js';
import { blockingFileSource, readThroughTurns } from '../../src/values/ordered-pool.js';
import { settle, threads } from '../helpers/threads.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-ulog-jobs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

const A: FormatSpec = {
  name: 'a',
  fields: [
    { type: 'uint64_t', name: 'timestamp' },
    { type: 'float', name: 'x' },
    { type: 'int64_t', name: 'n' },
  ],
};
const B: FormatSpec = {
  name: 'b',
  fields: [
    { type: 'uint64_t', name: 'timestamp' },
    { type: 'double', name: 'y' },
  ],
};

/** What the log holds, in order: data of a (instances 0 and 1) and b, dropouts, logged text, damage. */
const eventArb = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      msgId: fc.constantFrom(0, 1, 2),
      time: fc.integer({ min: 0, max: 5 }),
      value: fc.constantFrom(0, 1.5, -2, Number.NaN, Number.NEGATIVE_INFINITY),
      n: fc.constantFrom(0n, 3n, 2n ** 33n),
    }),
  },
  { weight: 1, arbitrary: fc.record({ dropout: fc.integer({ min: 1, max: 50 }) }) },
  { weight: 1, arbitrary: fc.record({ log: fc.integer({ min: 0, max: 5 }) }) },
  { weight: 1, arbitrary: fc.record({ damage: fc.uint8Array({ minLength: 1, maxLength: 6 }) }) },
);

function fileOf(events: ReadonlyArray<typeof eventArb extends fc.Arbitrary<infer T> ? T : never>) {
  const w = new UlogWriter();
  w.format(A).format(B).subscribe(0, 0, 'a').subscribe(0, 1, 'b').subscribe(1, 2, 'a');
  for (const e of events) {
    if ('dropout' in e) w.dropout(e.dropout);
    else if ('log' in e) w.log(6, BigInt(e.log) * 1000n, 'note');
    else if ('damage' in e) w.raw(e.damage);
    else {
      const body = new Uint8Array(e.msgId === 1 ? 16 : 20);
      const v = new DataView(body.buffer);
      v.setBigUint64(0, 1_000_000n + BigInt(e.time) * 1000n, true);
      if (e.msgId === 1) v.setFloat64(8, e.value, true);
      else {
        v.setFloat32(8, e.value, true);
        v.setBigInt64(12, e.n, true);
      }
      w.data(e.msgId, body);
    }
  }
  const path = join(dir, `l${n++}.ulg`);
  writeFileSync(path, w.bytes());
  return path;
}

const entry = (messageName: string, instance: string, fieldName: string, dataType: string) => ({
  messageName,
  instance,
  fieldName,
  channelConfig: { name: `${messageName}.${fieldName}`, dataType },
});
const DOC = {
  ulogConfig: {
    relativeStartTime: '2024-05-01T12:00:00Z',
    parseErrorPolicy: 'ULOG_PARSE_ERROR_POLICY_IGNORE_ERROR',
    data: [
      entry('a', '0', 'x', 'CHANNEL_DATA_TYPE_FLOAT'),
      entry('a', '0', 'n', 'CHANNEL_DATA_TYPE_INT_32'),
      entry('a', '1', 'x', 'CHANNEL_DATA_TYPE_FLOAT'),
      entry('b', '0', 'y', 'CHANNEL_DATA_TYPE_DOUBLE'),
      {
        messageName: 'log_messages',
        channelConfig: { name: 'log', dataType: 'CHANNEL_DATA_TYPE_STRING' },
      },
    ],
  },
} as ImportDocument;

/** `check --full` of `path` with 2, 3 and 4 jobs finds what it finds with one. */
async function expectSameWithJobs(doc: ImportDocument, path: string, rangeBytes: number) {
  const one = await checkConfig(doc, path, { full: true, jobs: 1 });
  for (const jobs of [2, 3, 4]) {
    expect(await checkConfig(doc, path, { full: true, jobs, rangeBytes })).toEqual(one);
  }
}

test('check --full finds the same, first messages and all, with 1, 2, 3 or 4 jobs (ranges of messages)', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(eventArb, { minLength: 1, maxLength: 60 }),
      fc.integer({ min: 8, max: 200 }),
      (events, rangeBytes) => expectSameWithJobs(DOC, fileOf(events), rangeBytes),
    ),
    { numRuns: 25 },
  );
});

test('a worker walks a range of messages as this thread does', async () => {
  const data = (time: number) => ({ msgId: 0 as const, time, value: Number.NaN, n: 2n ** 33n });
  const path = fileOf([data(1), data(0), { dropout: 5 }, data(0), data(4), data(2), data(2)]);
  const profile = await inspectUlog(path);
  const [start, end] = profile.sections.data;
  const input = { path, config: DOC.ulogConfig as UlogConfig, key: 'ulogConfig', profile };
  // From the dropout (after two data messages of 3 + 2 + 20 bytes) to the end of the data.
  const range = { partStart: start, partEnd: end, start: start + 2 * 25, end };
  const source = await openFileSource(path);
  try {
    const here = await readUlogPart(source, input, range);
    expect([here.start, here.reached]).toEqual([range.start, end]);
    expect(here.axes[0]?.fed).toBe(4);
    const worker = new Worker(new URL('../../src/formats/ulog/check-worker.js', import.meta.url));
    try {
      const result = await new Promise((resolve, reject) => {
        worker.on('message', (m: { ready?: true; k?: number; result?: unknown }) => {
          // As the pool does: the input once, before the parts.
          if (m.ready) {
            worker.postMessage({ input });
            worker.postMessage({ k: 3, part: range });
          } else if (m.k === 3) resolve(m.result);
        });
        worker.on('error', reject);
      });
      expect(result).toEqual(here);
    } finally {
      await worker.terminate();
    }
  } finally {
    await source.close();
  }
});

test('ranges walked one after another through two buffers reused for every read (as a worker walks its parts) are the ranges walked in fresh buffers', async () => {
  // Every read of the reusing sources overwrites the buffer of the read before last, and
  // the second range's source starts on the buffers the first one left.
  await fc.assert(
    fc.asyncProperty(
      fc.array(eventArb, { minLength: 1, maxLength: 60 }),
      fc.integer({ min: 0, max: 400 }),
      async (events, cut) => {
        const path = fileOf(events);
        const profile = await inspectUlog(path);
        const [start, end] = profile.sections.data;
        const input = { path, config: DOC.ulogConfig as UlogConfig, key: 'ulogConfig', profile };
        const at = Math.min(end, start + cut);
        const ranges = [
          { partStart: start, partEnd: end, start, end: at },
          { partStart: start, partEnd: end, start: at, end },
        ];
        const turns: Uint8Array[] = [];
        for (const range of ranges) {
          const fresh = await openFileSource(path);
          const reused = blockingFileSource(path, turns, 0);
          try {
            const want = await readUlogPart(fresh, input, range);
            expect(await readUlogPart(reused, input, range)).toEqual(want);
            // As this thread walks a range beside the workers: awaited reads, two turns.
            const here = await readThroughTurns(path, (s) => readUlogPart(s, input, range), 0);
            expect(here).toEqual(want);
          } finally {
            await fresh.close();
            await reused.close();
          }
        }
        expect(turns.length).toBeGreaterThan(0);
      },
    ),
    { numRuns: 25 },
  );
});

test('workers started before the inspection are stopped however the check ends', async () => {
  const o = { full: true, jobs: 2, rangeBytes: 8 };
  const data = (time: number) => ({ msgId: 0 as const, time, value: 1.5, n: 3n });
  const path = fileOf(Array.from({ length: 40 }, (_, i) => data(i)));
  // The thread pool and the modules, in place before counting.
  await checkConfig(DOC, path, o);
  await settle();
  const before = threads();
  expect(await checkConfig(DOC, path, o)).toEqual(await checkConfig(DOC, path, { full: true }));
  // Not a ULog file: the inspection fails.
  const notUlog = join(dir, 'not.ulg');
  writeFileSync(notUlog, 'time,a\n1,2\n');
  const refused = await checkConfig(DOC, notUlog, o).catch((e: unknown) => e);
  expect(JSON.stringify(refused)).toContain('ulog_bad_magic');
  // A config that names nothing the log has: no value is read.
  const none = {
    ulogConfig: { ...DOC.ulogConfig, data: [entry('c', '0', 'x', 'CHANNEL_DATA_TYPE_FLOAT')] },
  } as ImportDocument;
  const missing = await checkConfig(none, path, o);
  expect(missing.map((i) => i.code)).toContain('ulog_message_not_in_file');
  await settle();
  if (before !== undefined) expect(threads()).toBe(before);
});

const GPS: FormatSpec = {
  name: 'sensor_gps',
  fields: [
    { type: 'uint64_t', name: 'timestamp' },
    { type: 'uint64_t', name: 'time_utc_usec' },
  ],
};

/** The log placed in time by its GPS (no relativeStartTime), subscribed late or never. */
const GPS_DOC = {
  ulogConfig: {
    parseErrorPolicy: 'ULOG_PARSE_ERROR_POLICY_IGNORE_ERROR',
    data: [
      entry('a', '0', 'x', 'CHANNEL_DATA_TYPE_FLOAT'),
      entry('sensor_gps', '0', 'time_utc_usec', 'CHANNEL_DATA_TYPE_UINT_64'),
    ],
  },
} as ImportDocument;

type GpsEvent =
  | { kind: 'a'; time: number }
  | { kind: 'gps'; utc: bigint }
  | { kind: 'subscribe'; msgId: number }
  | { kind: 'damage'; bytes: Uint8Array };

const gpsEventArb: fc.Arbitrary<GpsEvent> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('a' as const), time: fc.nat(5) }) },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('gps' as const),
      utc: fc.constantFrom(0n, 0n, 1_700_000_000_000_000n, 1_700_000_000_250_000n),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('subscribe' as const), msgId: fc.constantFrom(1, 2) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('damage' as const),
      bytes: fc.uint8Array({ minLength: 1, maxLength: 6 }),
    }),
  },
);

/** Data of a (msg_id 0) from the start; GPS data on msg_id 1 (and 2), subscribed where the events say. */
function gpsLogOf(events: readonly GpsEvent[]): string {
  const w = new UlogWriter();
  w.format(A).format(GPS).subscribe(0, 0, 'a');
  let gpsId = 9;
  for (const [i, e] of events.entries()) {
    const t = 1_000_000n + BigInt(i) * 1000n;
    if (e.kind === 'a') {
      const body = new Uint8Array(20);
      new DataView(body.buffer).setBigUint64(0, t + BigInt(e.time), true);
      w.data(0, body);
    } else if (e.kind === 'gps') {
      const body = new Uint8Array(16);
      const v = new DataView(body.buffer);
      v.setBigUint64(0, t, true);
      v.setBigUint64(8, e.utc, true);
      w.data(gpsId, body);
    } else if (e.kind === 'subscribe') {
      w.subscribe(0, e.msgId, 'sensor_gps');
      gpsId = e.msgId;
    } else w.raw(e.bytes);
  }
  const path = join(dir, `g${n++}.ulg`);
  writeFileSync(path, w.bytes());
  return path;
}

test('check --full places the log in time by the same GPS message with 1, 2, 3 or 4 jobs (the inspection walk shared too)', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(gpsEventArb, { minLength: 20, maxLength: 120 }),
      fc.integer({ min: 8, max: 120 }),
      (events, rangeBytes) => expectSameWithJobs(GPS_DOC, gpsLogOf(events), rangeBytes),
    ),
    { numRuns: 25 },
  );
});
