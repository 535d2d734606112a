import fs, { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import h5wasm from 'h5wasm/node';
import { afterAll, describe, expect, test } from 'vitest';
import { checkConfig } from '../../src/check/index.js';
import { InspectError } from '../../src/inspect/profile.js';
import { writeLoopingHdf5 } from '../helpers/hdf5.js';
import { platformExamples as corpus } from '../helpers/paths.js';

const tmp = mkdtempSync(join(tmpdir(), 'importkit-check-h5-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const doc = {
  hdf5Config: {
    timeFormat: 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS' as const,
    data: [
      {
        timeDataset: '/timestamp',
        valueDataset: '/channel_0',
        channelConfig: { name: 'channel_0', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' as const },
      },
    ],
  },
};

describe('check on a file on which the HDF5 library never finishes', () => {
  const file = join(tmp, 'loops.h5');
  writeLoopingHdf5(file);

  for (const full of [false, true]) {
    test(`${full ? '--full' : 'sampled'}: stopped at the time limit with hdf5_unreadable`, async () => {
      const started = performance.now();
      const err = await checkConfig(doc, file, { full, timeoutMs: 1500 }).catch((e: unknown) => e);
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(err).toBeInstanceOf(InspectError);
      expect((err as InspectError).issue).toMatchObject({
        code: 'hdf5_unreadable',
        severity: 'error',
        source: { file },
      });
      expect((err as InspectError).message).toBe(
        `${file}: the HDF5 library cannot read the file (the HDF5 library did not finish reading it within 2 s)`,
      );
      // The next check (a fresh worker) still reads the undamaged file.
      const good = join(corpus, 'hdf5-one-d.h5');
      // A limit this check never reaches on a loaded machine: it tests the fresh worker.
      const issues = await checkConfig(doc, good, { full, timeoutMs: 30_000 });
      expect(issues.map((i) => i.code)).toEqual(['column_not_in_config', 'column_not_in_config']);
    });
  }
});

test('--full: a time dataset on which the library loops in the middle is stopped at the limit', async () => {
  // Variable-length strings long enough for three global heap collections: the head and
  // the tail (sampled by every check) live in the first and the last, so only the full read
  // reaches the middle one, where one byte of an object's size makes the library loop.
  await h5wasm.ready;
  const path = join(tmp, 'loops-in-the-middle.h5');
  const n = 600;
  const f = new h5wasm.File(path, 'w');
  f.create_dataset({
    name: 'time',
    data: Array.from({ length: n }, (_, i) => String(1_735_689_600 + i).padEnd(300, ' ')),
  });
  f.create_dataset({ name: 'v', data: Float64Array.from({ length: n }, (_, i) => i) });
  f.close();
  const bytes = readFileSync(path);
  const collections: number[] = [];
  for (let i = bytes.indexOf('GCOL'); i >= 0; i = bytes.indexOf('GCOL', i + 4)) collections.push(i);
  expect(collections).toHaveLength(3);
  bytes[(collections[1] as number) + 25] = 0xff;
  writeFileSync(path, bytes);
  const config = {
    hdf5Config: {
      timeFormat: 'TIME_FORMAT_ABSOLUTE_UNIX_SECONDS' as const,
      data: [{ timeDataset: '/time', valueDataset: '/v', channelConfig: { name: 'v' } }],
    },
  };
  const sampled = await checkConfig(config, path, { timeoutMs: 30_000 });
  expect(sampled.map((i) => i.code)).toEqual(['time_not_parseable']);
  const started = performance.now();
  const err = await checkConfig(config, path, { full: true, timeoutMs: 1500 }).catch(
    (e: unknown) => e,
  );
  expect(performance.now() - started).toBeLessThan(10_000);
  expect(err).toBeInstanceOf(InspectError);
  expect((err as InspectError).issue.code).toBe('hdf5_unreadable');
  expect((err as InspectError).message).toBe(
    `${path}: the HDF5 library cannot read the file (the HDF5 library did not finish reading a slice of '/time' within 2 s)`,
  );
  // With 2 jobs (ranges of a few rows in two HDF5 threads): stopped the same way. (The
  // sampled check first starts the stopped thread again: its loading is not timed.)
  await checkConfig(config, path, { timeoutMs: 30_000 });
  const again = performance.now();
  const o = { full: true, jobs: 2, rangeBytes: 1024, timeoutMs: 1500 };
  const err2 = await checkConfig(config, path, o).catch((e: unknown) => e);
  expect(performance.now() - again).toBeLessThan(10_000);
  expect(err2).toBeInstanceOf(InspectError);
  expect((err2 as InspectError).message).toBe((err as InspectError).message);
});

test('--full reports progress in rows of the time datasets, up to their total', async () => {
  await h5wasm.ready;
  const path = join(tmp, 'progress.h5');
  const n = 70;
  const f = new h5wasm.File(path, 'w');
  f.create_dataset({
    name: 'timestamp',
    data: BigInt64Array.from({ length: n }, (_, i) => 1_735_689_600_000_000_000n + BigInt(i)),
  });
  f.create_dataset({ name: 'v', data: Float64Array.from({ length: n }, (_, i) => i) });
  f.close();
  const calls: Array<[number, number]> = [];
  const issues = await checkConfig(
    {
      hdf5Config: {
        ...doc.hdf5Config,
        data: [{ ...doc.hdf5Config.data[0], timeDataset: '/timestamp', valueDataset: '/v' }],
      },
    },
    path,
    { full: true, onProgress: (done, total) => calls.push([done, total]) },
  );
  expect(issues).toEqual([]);
  expect(calls.length).toBeGreaterThan(0);
  expect(calls.at(-1)).toEqual([n, n]);
  expect(calls.every(([done, total], i) => total === n && done >= (calls[i - 1]?.[0] ?? 0))).toBe(
    true,
  );
});
