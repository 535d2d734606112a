import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, expect, test } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'importkit-pq-full-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

import { checkConfig } from '../../src/check/index.js';

/** A config of the time column 't' in `format` and the DOUBLE channel 'v'. */
function docOf(format: 'TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS' | 'TIME_FORMAT_ABSOLUTE_RFC3339') {
  return {
    parquetConfig: {
      flatDataset: {
        timeColumn: { path: 't', format },
        dataColumns: [
          {
            path: 'v',
            channelConfig: { name: 'v', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' as const },
          },
        ],
      },
    },
  };
}

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
  const doc = docOf('TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS');
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

/**
 * Text times are judged against the window of plausible dates as a CSV's are: from the
 * footer's statistics when they are whole times, and from every time read with `--full`
 * (the statistics are the least and greatest text: with zones that differ, not the
 * earliest and latest time, and a writer may cut them short).
 */
test('RFC 3339 text times outside 1971-2100 are time_out_of_range, from the statistics and from --full', async () => {
  const write = (name: string, times: string[], statisticsTruncateLength = 64) => {
    const bytes = parquetWriteBuffer({
      columnData: [
        { name: 't', data: times, type: 'STRING' },
        { name: 'v', data: times.map((_, i) => i), type: 'DOUBLE' },
      ],
      statisticsTruncateLength,
    });
    const path = join(dir, name);
    writeFileSync(path, new Uint8Array(bytes));
    return path;
  };
  const doc = docOf('TIME_FORMAT_ABSOLUTE_RFC3339');
  const messages = async (path: string, full: boolean) =>
    (await checkConfig(doc, path, { full })).map((i) => `${i.code}: ${i.message}`);
  const early = ['1970-01-01T00:00:01Z', '1970-01-01T00:00:02Z'];
  const warned =
    "time_out_of_range: the times of 't' fall between 1970-01-01 and 1970-01-01: outside 1971-2100";
  for (const full of [false, true])
    expect(await messages(write('1970.parquet', early), full)).toEqual([warned]);
  // Statistics cut to 16 bytes ('1970-01-01T00:00', no zone) are no RFC 3339 time.
  const cut = write('1970-cut.parquet', early, 16);
  expect(await messages(cut, false)).toEqual([]);
  expect(await messages(cut, true)).toEqual([warned]);
  // The least text is the latest time: '2100-12-31T20:00:00-05:00' is in 2101.
  const zones = write('zones.parquet', ['2100-12-31T23:00:00Z', '2100-12-31T20:00:00-05:00']);
  for (const full of [false, true]) {
    expect(await messages(zones, full)).toEqual([
      "time_out_of_range: the times of 't' fall between 2100-12-31 and 2101-01-01: outside 1971-2100",
    ]);
  }
  const fine = write('2024.parquet', ['2024-03-01T00:00:00Z', '2024-03-01T01:00:01+01:00']);
  for (const full of [false, true]) expect(await messages(fine, full)).toEqual([]);
});
