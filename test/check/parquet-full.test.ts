import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, expect, test } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'importkit-pq-full-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

import { checkConfig } from '../../src/check/index.js';

/**
 * `--full` on Parquet reads the time column one row group at a time: a time that goes
 * backwards in the third group is found, with its row, and progress is reported per group.
 */
test('check --full finds where a Parquet time column goes backwards', async () => {
  const t = Array.from({ length: 30 }, (_, i) => BigInt(1_709_294_400_000 + i * 10));
  t[24] = 1_709_294_400_005n; // row 25 is earlier than row 24
  const bytes = parquetWriteBuffer({
    columnData: [
      { name: 't', data: t, type: 'INT64' },
      { name: 'v', data: t.map((_, i) => i / 2), type: 'DOUBLE' },
    ],
    rowGroupSize: 10,
  });
  const path = join(dir, 'backwards.parquet');
  writeFileSync(path, new Uint8Array(bytes));
  const doc = {
    parquetConfig: {
      flatDataset: {
        timeColumn: { path: 't', format: 'TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS' as const },
        dataColumns: [
          {
            path: 'v',
            channelConfig: { name: 'v', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' as const },
          },
        ],
      },
    },
  };
  expect(await checkConfig(doc, path)).toEqual([]);
  const progress: number[] = [];
  const full = await checkConfig(doc, path, {
    full: true,
    onProgress: (done) => progress.push(done),
  });
  expect(full).toEqual([
    {
      code: 'time_decreasing',
      severity: 'warning',
      path: '/parquetConfig/flatDataset/timeColumn/path',
      message: 'time goes backwards 1 time; first at row 25',
      source: { file: path, column: 't', row: 25 },
    },
  ]);
  expect(progress).toEqual([10, 20, 30]);
});
