import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, describe, expect, test } from 'vitest';
import { checkConfig } from '../../src/check/index.js';
import {
  type FromParquetWorker,
  type Lane,
  planRuns,
  type RunTally,
  scanRun,
  sharedRuns,
} from '../../src/formats/parquet/jobs.js';
import { openWithParquetWasm } from '../../src/formats/parquet/values.js';
import type { ImportDocument } from '../../src/model/document.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-pq-parallel-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

const MiB = 1024 * 1024;

/** One row: a time (maybe repeated, earlier, null or NaN), a double, an integer, an ENUM name. */
const rowArb = fc.record({
  t: fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 0, max: 40 }) },
    { weight: 1, arbitrary: fc.constantFrom(null, Number.NaN) },
  ),
  v: fc.oneof(
    { weight: 5, arbitrary: fc.double({ min: -10, max: 10, noNaN: true }) },
    { weight: 1, arbitrary: fc.constantFrom(Number.NaN, Infinity, -Infinity, null) },
  ),
  i: fc.oneof(
    { weight: 5, arbitrary: fc.integer({ min: -5, max: 5 }) },
    { weight: 1, arbitrary: fc.constantFrom(3_000_000_000, -3_000_000_000, 2 ** 40, null) },
  ),
  s: fc.constantFrom('IDLE', 'RUN', 'RUN', 'IDLE', 'STOP', 'WAIT', 'x', null),
});

/**
 * A file of rows in row groups of `group` rows; the time a float column, INT64, or RFC 3339
 * text (a NaN time is text that is no time; every seventh a time without a zone).
 */
const fileArb = fc.record({
  rows: fc.array(rowArb, { minLength: 1, maxLength: 40 }),
  group: fc.integer({ min: 1, max: 7 }),
  time: fc.constantFrom<TimeKind>('float', 'int64', 'text'),
});

type TimeKind = 'float' | 'int64' | 'text';

/** A time `t` (seconds past a start) as RFC 3339 text; row `k`'s. */
function timeText(t: number, k: number): string {
  if (Number.isNaN(t)) return 'soon';
  const iso = new Date(Date.UTC(2024, 2, 1, 0, 0, t)).toISOString();
  return k % 7 === 6 ? iso.replace('Z', '') : iso;
}

function timeColumn(rows: FileSpec['rows'], kind: TimeKind) {
  if (kind === 'float') return { name: 't', data: rows.map((r) => r.t), type: 'DOUBLE' as const };
  if (kind === 'text') {
    const data = rows.map((r, k) => (r.t === null ? null : timeText(r.t, k)));
    return { name: 't', data, type: 'STRING' as const };
  }
  const data = rows.map((r) =>
    r.t === null || Number.isNaN(r.t) ? null : BigInt(1_700_000_000_000 + r.t * 10),
  );
  return { name: 't', data, type: 'INT64' as const };
}

function writeFile(f: FileSpec): string {
  const { rows, group } = f;
  const bytes = parquetWriteBuffer({
    columnData: [
      timeColumn(rows, f.time),
      { name: 'v', data: rows.map((r) => r.v), type: 'DOUBLE' },
      { name: 'i', data: rows.map((r) => (r.i === null ? null : BigInt(r.i))), type: 'INT64' },
      { name: 's', data: rows.map((r) => r.s), type: 'STRING' },
    ],
    rowGroupSize: group,
  });
  const path = join(dir, `g${n++}.parquet`);
  writeFileSync(path, new Uint8Array(bytes));
  return path;
}

type FileSpec = {
  rows: Array<{ t: number | null; v: number | null; i: number | null; s: string | null }>;
  group: number;
  time: TimeKind;
};

const channel = (name: string, dataType: string) => ({
  path: name,
  channelConfig: { name, dataType },
});

/** The config, its time format that of the time column's kind. */
const docOf = (kind: TimeKind): ImportDocument => {
  const format =
    kind === 'text' ? 'TIME_FORMAT_ABSOLUTE_RFC3339' : 'TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS';
  const doc = structuredClone(DOC);
  (doc.parquetConfig?.flatDataset?.timeColumn as { format: string }).format = format;
  return doc;
};

const DOC = {
  parquetConfig: {
    flatDataset: {
      timeColumn: { path: 't', format: 'TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS' },
      dataColumns: [
        channel('v', 'CHANNEL_DATA_TYPE_DOUBLE'),
        channel('i', 'CHANNEL_DATA_TYPE_INT_32'),
        {
          path: 's',
          channelConfig: {
            name: 's',
            dataType: 'CHANNEL_DATA_TYPE_ENUM',
            enumTypes: [
              { name: 'IDLE', key: 0 },
              { name: 'RUN', key: 1 },
            ],
          },
        },
      ],
    },
  },
} as ImportDocument;

describe('check --full of a Parquet file with several jobs', () => {
  test('jobs 1 to 4, a run a row group: the findings and places of one pass', async () => {
    await fc.assert(
      fc.asyncProperty(fileArb, async (spec) => {
        const path = writeFile(spec);
        const doc = docOf(spec.time);
        const one = await checkConfig(doc, path, { full: true, jobs: 1 });
        for (const jobs of [2, 3, 4]) {
          // rangeBytes 1: every row group is a run of its own.
          const many = await checkConfig(doc, path, { full: true, jobs, rangeBytes: 1 });
          expect(many).toEqual(one);
        }
      }),
      { numRuns: 25 },
    );
  });

  test('a time going backwards where two runs meet, and enum values first seen in a later run', async () => {
    const rows: FileSpec['rows'] = [
      { t: 1, v: 1, i: 1, s: 'IDLE' },
      { t: 2, v: 1, i: 1, s: 'IDLE' },
      { t: 1, v: 1, i: 1, s: 'STOP' },
      { t: 1, v: Number.NaN, i: 3_000_000_000, s: 'WAIT' },
      { t: 5, v: 1, i: 1, s: 'STOP' },
    ];
    const path = writeFile({ rows, group: 2, time: 'int64' });
    const one = await checkConfig(DOC, path, { full: true, jobs: 1 });
    expect(one.map((i) => [i.code, i.message])).toEqual([
      ['time_decreasing', 'time goes backwards 1 time; first at row 3'],
      ['time_repeated', '1 row repeats the time of the row before; first at row 4'],
      ['value_type_mismatch', "column 's' stores BYTE_ARRAY (UTF8), which does not fit ENUM"],
      ['value_not_finite', "column 'v' holds 1 NaN; first at row 4"],
      [
        'value_outside_type',
        "column 'i' holds 1 value outside INT_32 (-2147483648 to 2147483647), from 3000000000 to 3000000000; first at row 4",
      ],
      [
        'enum_value_unknown',
        "column 's' holds 3 values not in enumTypes: 'STOP' (2 rows) and 'WAIT' (1 row); first at row 3",
      ],
    ]);
    expect(await checkConfig(DOC, path, { full: true, jobs: 2, rangeBytes: 1 })).toEqual(one);
  });
});

test('RFC 3339 text times: those that are no time, and a step back where two runs meet', async () => {
  const rows: FileSpec['rows'] = [0, 1, 2, 1, Number.NaN, 5, 6, 7].map((t) => ({
    t,
    v: 1,
    i: 1,
    s: 'IDLE',
  }));
  // Row 7 (k = 6) is written without a zone: no RFC 3339 time either.
  const path = writeFile({ rows, group: 3, time: 'text' });
  const doc = docOf('text');
  const one = await checkConfig(doc, path, { full: true, jobs: 1 });
  expect(one.filter((i) => i.code.startsWith('time_')).map((i) => [i.code, i.message])).toEqual([
    [
      'time_not_parseable',
      "time does not parse as ABSOLUTE_RFC3339 in 2 rows; first at row 5: 'soon'",
    ],
    ['time_decreasing', 'time goes backwards 1 time; first at row 4'],
  ]);
  expect(await checkConfig(doc, path, { full: true, jobs: 2, rangeBytes: 1 })).toEqual(one);
});

describe('the threads of a Parquet scan', () => {
  test('a worker waits for the first batch, then claims every run left and posts what this thread reads in it', async () => {
    const rows = Array.from({ length: 40 }, (_, k) => ({
      t: k % 9 === 0 ? k - 3 : k,
      v: k % 11 === 0 ? Number.NaN : k / 2,
      i: k % 13 === 0 ? 2 ** 40 : k,
      s: k % 7 === 0 ? `S${k % 3}` : 'RUN',
    }));
    const path = writeFile({ rows, group: 4, time: 'int64' });
    const groups = Array.from({ length: 10 }, () => ({ rows: 4, bytes: 1 }));
    const lane: Lane = {
      path,
      time: 't',
      channels: [
        { column: 'v', ptr: '/v', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' },
        { column: 'i', ptr: '/i', dataType: 'CHANNEL_DATA_TYPE_INT_32' },
        {
          column: 's',
          ptr: '/s',
          dataType: 'CHANNEL_DATA_TYPE_ENUM',
          enumTypes: [{ name: 'RUN', key: 1 }],
        },
      ],
      runs: planRuns(groups, 2, 1),
      next: new SharedArrayBuffer(4),
      warm: new SharedArrayBuffer(4),
    };
    expect(lane.runs.length).toBe(10);
    // This thread has claimed the first run: the worker takes the rest.
    const next = new Int32Array(lane.next);
    Atomics.store(next, 0, 1);
    const posted: Array<[number, RunTally]> = [];
    const worker = new Worker(new URL('../../src/formats/parquet/worker.js', import.meta.url), {
      workerData: lane,
    });
    try {
      // Until this thread says its code is compiled (its first batch read), the worker
      // claims nothing: after a second it has loaded, and waits.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(Atomics.load(next, 0)).toBe(1);
      const warm = new Int32Array(lane.warm);
      Atomics.store(warm, 0, 1);
      Atomics.notify(warm, 0);
      await new Promise<void>((resolve, reject) => {
        worker.on('message', (m: FromParquetWorker) => {
          if (!('end' in m)) posted.push([m.k, m.result]);
          else if (m.error) reject(new Error(m.error));
          else resolve();
        });
        worker.on('error', reject);
      });
    } finally {
      await worker.terminate();
    }
    const here: Array<[number, RunTally]> = [];
    const opened = await openWithParquetWasm(lane.path);
    for (let k = 1; k < lane.runs.length; k++) here.push([k, await scanRun(lane, k, opened)]);
    await opened.close();
    expect(posted).toEqual(here);
  });

  test('runs are whole row groups in order, shrinking towards the end, from the largest to 4 MiB', () => {
    const groups = Array.from({ length: 300 }, (_, g) => ({ rows: 1000 + g, bytes: 2 * MiB }));
    const runs = planRuns(groups, 2, 64 * MiB);
    expect(runs.flatMap((r) => r.groups)).toEqual(groups.map((_, g) => g));
    let base = 0;
    for (const r of runs) {
      expect(r.base).toBe(base);
      expect(r.rows).toBe(r.groups.reduce((s, g) => s + (groups[g]?.rows ?? 0), 0));
      base += r.rows;
    }
    const sizes = runs.map((r) => r.groups.length * 2 * MiB);
    expect(Math.max(...sizes)).toBe(64 * MiB);
    expect(sizes.slice(0, -1).every((s, k) => k === 0 || s <= (sizes[k - 1] as number))).toBe(true);
    expect(sizes.at(-2)).toBe(4 * MiB);
    // A small file is one run: it is read in the calling thread.
    expect(planRuns(groups.slice(0, 2), 2, 64 * MiB)).toHaveLength(1);
  });

  test('a read is shared from 6 of its largest runs of the columns it reads, one thread under that', () => {
    // 100 row groups, each of a time column, a small column and a wide one.
    const chunk = (name: string, bytes: number) => ({
      meta_data: { path_in_schema: [name], total_compressed_size: BigInt(bytes) },
    });
    const metadata = {
      row_groups: Array.from({ length: 100 }, () => ({
        num_rows: 1000n,
        columns: [chunk('t', MiB), chunk('small', 2 * MiB), chunk('wide', 5 * MiB)],
      })),
    } as unknown as Parameters<typeof sharedRuns>[0];
    // t and small: 300 MiB read, under 6 × 64 MiB; the wide column is not read, not counted.
    expect(sharedRuns(metadata, ['t', 'small'], 2)).toBeUndefined();
    // t and wide: 600 MiB.
    const wide = sharedRuns(metadata, ['t', 'wide'], 2);
    expect(wide?.bytes).toBe(600 * MiB);
    expect(wide?.runs.flatMap((r) => r.groups)).toEqual(metadata.row_groups.map((_, g) => g));
    expect(Math.max(...(wide?.runs ?? []).map((r) => r.groups.length))).toBe(Math.ceil(64 / 6));
    // Smaller runs share smaller reads (the tests force runs of a row group so).
    expect(sharedRuns(metadata, ['t', 'small'], 2, 16 * MiB)?.bytes).toBe(300 * MiB);
    // One job reads in this thread, however large the read.
    expect(sharedRuns(metadata, ['t', 'small', 'wide'], 1)).toBeUndefined();
  });
});
