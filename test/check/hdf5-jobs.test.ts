/**
 * `check --full` of an HDF5 file with several jobs: the parts (datasets, a column, a member)
 * and ranges of rows of each are read in several HDF5 threads and their tallies joined in
 * order: the findings, counts and first places, are those of one job.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, expect, test } from 'vitest';
import { type DatasetSpec, writeHdf5 } from '../../scripts/fixtures/hdf5.js';
import { checkConfig } from '../../src/check/index.js';
import { type Hdf5Dataset, inspectHdf5 } from '../../src/formats/hdf5/inspect.js';
import { hdf5FullValueIssues, planRanges } from '../../src/formats/hdf5/jobs.js';
import { groupStates, type ReadGroup } from '../../src/formats/hdf5/values.js';
import { closeThreads, hdf5Threads } from '../../src/formats/hdf5/worker.js';
import type { ImportDocument } from '../../src/model/document.js';
import { readGroupOf } from '../helpers/hdf5.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-h5-jobs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

const T0 = 1_735_689_600_000_000_000n;
/** Times that step forward, repeat or step back; values NaN, ±inf, past INT_32, unknown keys. */
const rowArb = fc.record({
  dt: fc.constantFrom(-3n, 0n, 1n, 1n, 2n),
  dt2: fc.constantFrom(-1n, 0n, 1n, 1n),
  speed: fc.constantFrom(0, 1.5, -2, Number.NaN, Number.POSITIVE_INFINITY),
  count: fc.constantFrom(0n, 7n, -3n, 2n ** 40n, -(2n ** 35n)),
  state: fc.constantFrom(0, 1, 1, 2, 3),
  level: fc.constantFrom(0.5, 3, Number.NEGATIVE_INFINITY, Number.NaN),
});
const fileArb = fc.record({
  rows: fc.array(rowArb, { minLength: 1, maxLength: 30 }),
  /** Rows a chunk of the chunked datasets (0: contiguous). */
  chunk: fc.integer({ min: 0, max: 5 }),
  /** The most bytes a range holds: a few rows each, so datasets split in several. */
  rangeBytes: fc.integer({ min: 8, max: 80 }),
});

const entry = (timeDataset: string, valueDataset: string, dataType: string, extra = {}) => ({
  timeDataset,
  valueDataset,
  ...extra,
  channelConfig: { name: valueDataset.slice(1).replace('/', '_'), dataType },
});

const DOC = {
  hdf5Config: {
    assetName: 'jobs',
    timeFormat: 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS',
    data: [
      entry('/time', '/speed', 'CHANNEL_DATA_TYPE_DOUBLE'),
      entry('/time', '/count', 'CHANNEL_DATA_TYPE_INT_32'),
      {
        ...entry('/time', '/state', 'CHANNEL_DATA_TYPE_ENUM'),
        channelConfig: {
          name: 'state',
          dataType: 'CHANNEL_DATA_TYPE_ENUM',
          enumTypes: [
            { name: 'IDLE', key: 0 },
            { name: 'RUN', key: 1 },
          ],
        },
      },
      entry('/time', '/pair', 'CHANNEL_DATA_TYPE_INT_32', { valueIndex: '1' }),
      entry('/other/time', '/other/level', 'CHANNEL_DATA_TYPE_DOUBLE'),
    ],
  },
} as ImportDocument;

type File = typeof fileArb extends fc.Arbitrary<infer T> ? T : never;

async function fileOf(f: File): Promise<string> {
  // A chunk holds no more rows than the dataset (HDF5 refuses it).
  const chunk = Math.min(f.chunk, f.rows.length);
  const chunks = (width?: number) =>
    chunk > 0 ? { chunks: width ? [chunk, width] : [chunk] } : {};
  let t = T0;
  let t2 = T0;
  const rows = f.rows;
  const datasets: DatasetSpec[] = [
    { path: '/time', kind: 'int64', values: rows.map((r) => (t += r.dt)), ...chunks() },
    { path: '/speed', kind: 'float64', values: rows.map((r) => r.speed), ...chunks() },
    { path: '/count', kind: 'int64', values: rows.map((r) => r.count) },
    { path: '/state', kind: 'int32', values: rows.map((r) => r.state), ...chunks() },
    {
      path: '/pair',
      kind: 'int64',
      values: rows.flatMap((r, i) => [BigInt(i), r.count]),
      shape: [rows.length, 2],
      ...chunks(2),
    },
    { path: '/other/time', kind: 'int64', values: rows.map((r) => (t2 += r.dt2)) },
    { path: '/other/level', kind: 'float64', values: rows.map((r) => r.level), ...chunks() },
  ];
  const path = join(dir, `f${n++}.h5`);
  await writeHdf5(path, datasets);
  return path;
}

test('check --full finds the same, first places and all, with 1, 2, 3 or 4 jobs (parts and ranges of rows)', async () => {
  await fc.assert(
    fc.asyncProperty(fileArb, async (f) => {
      const path = await fileOf(f);
      const one = await checkConfig(DOC, path, { full: true, jobs: 1 });
      for (const jobs of [2, 3, 4]) {
        const o = { full: true, jobs, rangeBytes: f.rangeBytes };
        expect(await checkConfig(DOC, path, o)).toEqual(one);
      }
    }),
    { numRuns: 8 },
  );
}, 60_000);

test('datasets cut in ranges of 2 rows: the findings of one job, first places and all', async () => {
  const r = (dt: bigint, speed: number, count: bigint, state: number) =>
    ({ dt, dt2: 1n, speed, count, state, level: 1 }) as File['rows'][number];
  const path = await fileOf({
    rows: [
      r(1n, 0, 0n, 0),
      r(1n, 0, 0n, 1),
      r(1n, Number.NaN, 0n, 3),
      r(0n, 0, 2n ** 40n, 2),
      r(-1n, 0, 0n, 3),
      r(1n, Number.NaN, 0n, 2),
      r(-1n, 0, 2n ** 40n, 0),
    ],
    chunk: 2,
    rangeBytes: 16,
  });
  const one = await checkConfig(DOC, path, { full: true, jobs: 1 });
  const two = await checkConfig(DOC, path, { full: true, jobs: 2, rangeBytes: 16 });
  expect(two).toEqual(one);
  // Ranges of 2 rows: the step back at index 4 is the first row of a range, compared
  // with the last of the range before; each first place is past the first range.
  expect(one.map((i) => [i.code, i.message])).toEqual([
    ['time_decreasing', "the time of '/time' goes backwards 2 times; first at index 4"],
    ['time_repeated', '1 row repeats the time of the row before; first at index 3'],
    ['value_not_finite', "dataset '/speed' holds 2 NaN; first at index 2"],
    [
      'value_outside_type',
      "dataset '/count' holds 2 values outside INT_32 (-2147483648 to 2147483647), from 1099511627776 to 1099511627776; first at index 3",
    ],
    [
      'enum_value_unknown',
      "dataset '/state' holds 4 values not in enumTypes: '3' (2 rows) and '2' (2 rows); first at index 2",
    ],
    [
      'value_outside_type',
      "column 1 of '/pair' holds 2 values outside INT_32 (-2147483648 to 2147483647), from 1099511627776 to 1099511627776; first at index 3",
    ],
  ]);
});

test('with 2 jobs, a long chunked dataset is cut into ranges that start on its chunks, in reading order', () => {
  const dataset = (path: string, size: number) =>
    ({
      path,
      name: path.slice(1),
      type: { class: size === 8 ? 'integer' : 'float', size },
      shape: [4_200_000],
      chunks: [65_536],
      attributes: [],
    }) as unknown as Hdf5Dataset;
  const group: ReadGroup = {
    time: { dataset: dataset('/time', 8), column: undefined, ptr: '/t' },
    channels: [
      {
        dataset: dataset('/v', 4),
        column: undefined,
        ptr: '/v',
        channel: { dataType: 'CHANNEL_DATA_TYPE_FLOAT' },
        storedType: 'CHANNEL_DATA_TYPE_FLOAT',
      },
    ],
  };
  const ranges = planRanges([group], [groupStates(group)], 2, {});
  const cut = ranges.map((r) => [
    r.request.slice.dataset,
    r.request.slice.start,
    r.request.slice.end,
  ]);
  // 50 MB of values, 4 ranges a job: about 6.3 MB a range, rounded up to whole chunks.
  const time = [0, 1, 2, 3, 4, 5].map((k) => [
    '/time',
    k * 720_896,
    Math.min(4_200_000, (k + 1) * 720_896),
  ]);
  const v = [0, 1, 2].map((k) => ['/v', k * 1_441_792, Math.min(4_200_000, (k + 1) * 1_441_792)]);
  expect(cut).toEqual([...time, ...v]);
  expect(ranges.map((r) => 'time' in r.request.judge)).toEqual([
    ...time.map(() => true),
    ...v.map(() => false),
  ]);
});

test('with 2 jobs, each thread is sent its next range while it reads one, never more', async () => {
  const row = {
    dt: 1n,
    dt2: 1n,
    speed: 1.5,
    count: 7n,
    state: 1,
    level: 3,
  } as File['rows'][number];
  const rows = Array.from({ length: 30 }, () => row);
  const path = await fileOf({ rows, chunk: 2, rangeBytes: 16 });
  const group = readGroupOf(await inspectHdf5(path), '/time', [
    ['/speed', '/s', 'CHANNEL_DATA_TYPE_DOUBLE', 'CHANNEL_DATA_TYPE_DOUBLE'],
  ]);
  const threads = hdf5Threads(2);
  // The most jobs each thread had with its worker at once (its `sentJobs`, watched).
  const most = threads.map(() => 0);
  threads.forEach((t, i) => {
    const add = t.sentJobs.add;
    t.sentJobs.add = function (this: typeof t.sentJobs, job) {
      add.call(this, job);
      most[i] = Math.max(most[i] as number, this.size);
      return this;
    };
  });
  try {
    const issues = await hdf5FullValueIssues(path, [group], { jobs: 2, rangeBytes: 16 }, threads);
    expect(issues).toEqual([]);
  } finally {
    // The set's own `add` again (the property set above shadows it).
    for (const t of threads) delete (t.sentJobs as { add?: unknown }).add;
    await closeThreads(threads);
  }
  expect(most).toEqual([2, 2]);
});
