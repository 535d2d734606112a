import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import h5wasm from 'h5wasm/node';
import { expect, test } from 'vitest';
import { checkConfig } from '../../src/check/index.js';

/** `--full` on HDF5 reads the whole time dataset in slices: a step back in the middle is found. */
test('check --full finds where an HDF5 time dataset goes backwards', async () => {
  await h5wasm.ready;
  const path = join(mkdtempSync(join(tmpdir(), 'h5-full-')), 'backwards.h5');
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
