import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import h5wasm from 'h5wasm/node';
import { afterAll, expect, test } from 'vitest';
import { checkConfig } from '../../src/check/index.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-h5-full-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `--full` on HDF5 reads the whole time dataset in slices: a step back in the middle is found. */
test('check --full finds where an HDF5 time dataset goes backwards', async () => {
  await h5wasm.ready;
  const path = join(dir, 'backwards.h5');
  const t = BigInt64Array.from(
    { length: 50 },
    (_, i) => 1_735_689_600_000_000_000n + BigInt(i) * 1_000_000n,
  );
  t[30] = 1_735_689_600_000_000_000n; // index 30 goes back to the start
  const f = new h5wasm.File(path, 'w');
  f.create_dataset({ name: 'timestamp', data: t });
  f.create_dataset({ name: 'v', data: Float64Array.from({ length: 50 }, (_, i) => i / 2) });
  f.close();
  const doc = {
    hdf5Config: {
      timeFormat: 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS' as const,
      data: [
        {
          timeDataset: '/timestamp',
          valueDataset: '/v',
          channelConfig: { name: 'v', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' as const },
        },
      ],
    },
  };
  // The first and last rows alone go forward: only the full read sees the step back.
  expect(await checkConfig(doc, path)).toEqual([]);
  expect(await checkConfig(doc, path, { full: true })).toEqual([
    {
      code: 'time_decreasing',
      severity: 'warning',
      path: '/hdf5Config/data/0/timeDataset',
      message: "the time of '/timestamp' goes backwards 1 time; first at index 30",
      source: { file: path, dataset: '/timestamp', row: 30 },
    },
  ]);
});

test('check --full reads the named column of an [N, k] time dataset', async () => {
  await h5wasm.ready;
  const path = join(dir, 'two-d.h5');
  const n = 40;
  // Column 0 goes forward; column 1 steps back at row 17 (and only there).
  const rows = Float64Array.from({ length: n * 2 }, (_, i) => {
    const row = Math.floor(i / 2);
    return i % 2 === 0 ? 1_735_689_600 + row : 1_735_689_600 + (row === 17 ? 0 : row);
  });
  const f = new h5wasm.File(path, 'w');
  f.create_dataset({ name: 'pairs', data: rows, shape: [n, 2] });
  f.create_dataset({ name: 'v', data: Float64Array.from({ length: n }, (_, i) => i) });
  f.close();
  const doc = (timeIndex: string) => ({
    hdf5Config: {
      timeFormat: 'TIME_FORMAT_ABSOLUTE_UNIX_SECONDS' as const,
      data: [
        {
          timeDataset: '/pairs',
          timeIndex,
          valueDataset: '/v',
          channelConfig: { name: 'v', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' as const },
        },
      ],
    },
  });
  expect(await checkConfig(doc('0'), path, { full: true })).toEqual([]);
  expect(await checkConfig(doc('1'), path, { full: true })).toEqual([
    {
      code: 'time_decreasing',
      severity: 'warning',
      path: '/hdf5Config/data/0/timeDataset',
      message: "the time of '/pairs' goes backwards 1 time; first at index 17",
      source: { file: path, dataset: '/pairs', row: 17 },
    },
  ]);
});

/**
 * A time dataset of text under RFC 3339 is read as the import reads it: a value that is no
 * time (or has no zone) is found with its index and text, and a step back among the
 * others, with one job and with the values' ranges in threads.
 */
test('check --full reads an HDF5 time dataset of RFC 3339 text', async () => {
  await h5wasm.ready;
  const path = join(dir, 'text-times.h5');
  const n = 60;
  const times = Array.from({ length: n }, (_, i) =>
    new Date(Date.UTC(2024, 2, 1, 0, 0, i)).toISOString(),
  );
  times[20] = '2024-03-01T00:00:05Z'; // back
  times[41] = 'soon';
  times[50] = '2024-03-01 00:00:50'; // no zone
  const f = new h5wasm.File(path, 'w');
  f.create_dataset({ name: 'time', data: times });
  f.create_dataset({ name: 'v', data: Float64Array.from({ length: n }, (_, i) => i) });
  f.close();
  const doc = {
    hdf5Config: {
      timeFormat: 'TIME_FORMAT_ABSOLUTE_RFC3339' as const,
      data: [
        {
          timeDataset: '/time',
          valueDataset: '/v',
          channelConfig: { name: 'v', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' as const },
        },
      ],
    },
  };
  for (const jobs of [1, 2]) {
    const found = await checkConfig(doc, path, { full: true, jobs, rangeBytes: 16 });
    expect(found.map((i) => [i.code, i.message])).toEqual([
      [
        'time_not_parseable',
        "the time of '/time' does not parse as ABSOLUTE_RFC3339 in 2 rows; first at index 41: 'soon'",
      ],
      ['time_decreasing', "the time of '/time' goes backwards 1 time; first at index 20"],
    ]);
  }
});

test('text times outside 1971-2100 are time_out_of_range, as a CSV check says', async () => {
  await h5wasm.ready;
  const path = join(dir, 'text-1970.h5');
  const f = new h5wasm.File(path, 'w');
  f.create_dataset({ name: 'time', data: ['1970-01-01T00:00:01Z', '1970-01-01T00:00:02Z'] });
  f.create_dataset({ name: 'v', data: new Float64Array([1, 2]) });
  f.close();
  const doc = (timeFormat: 'TIME_FORMAT_ABSOLUTE_RFC3339' | 'TIME_FORMAT_ABSOLUTE_DATETIME') => ({
    hdf5Config: {
      timeFormat,
      data: [
        {
          timeDataset: '/time',
          valueDataset: '/v',
          channelConfig: { name: 'v', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' as const },
        },
      ],
    },
  });
  for (const full of [false, true]) {
    const found = await checkConfig(doc('TIME_FORMAT_ABSOLUTE_RFC3339'), path, { full });
    expect(found.map((i) => [i.code, i.message])).toEqual([
      [
        'time_out_of_range',
        "the times of '/time' fall between 1970-01-01 and 1970-01-01: outside 1971-2100",
      ],
    ]);
  }
  // Read as date-times, the times have a zone: not parseable, and no range is judged.
  const found = await checkConfig(doc('TIME_FORMAT_ABSOLUTE_DATETIME'), path, { full: true });
  expect(found.map((i) => i.code)).toEqual(['time_not_parseable']);
});
