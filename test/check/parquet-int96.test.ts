/**
 * Legacy INT96 timestamps (Spark, Impala, Hive): infer drafts ABSOLUTE_UNIX_NANOSECONDS with
 * a deprecation warning, and the check, sampled and `--full`, and the preview read the
 * column as the platform does, through Arrow: nanoseconds since the epoch (8 bytes of
 * nanoseconds of the day, then the Julian day). The fixture is fixtures/parquet/int96-spark.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { int96Bytes } from '../../scripts/fixtures/parquet.js';
import { checkConfig, readConfigRows } from '../../src/check/index.js';
import { scanParquetValues } from '../../src/formats/parquet/values.js';
import { inferConfig } from '../../src/infer/index.js';
import type { ImportDocument } from '../../src/model/index.js';
import { repoRoot } from '../helpers/paths.js';

const file = join(repoRoot, 'fixtures', 'parquet', 'int96-spark.parquet');
const DAY = 86_400_000_000_000n;
const FIRST = BigInt(Date.UTC(2024, 2, 1, 12)) * 1_000_000n + 123n;
/** 24 rows in two row groups, a day apart. */
const LAST = FIRST + 23n * DAY;

const withFormat = (document: ImportDocument, format: string): ImportDocument => {
  const config = structuredClone(document.parquetConfig);
  if (config?.flatDataset?.timeColumn) config.flatDataset.timeColumn.format = format as never;
  return { parquetConfig: config };
};

test('the fixture writes INT96 as Spark does', () => {
  const bytes = int96Bytes(0n);
  expect([...bytes.subarray(8)]).toEqual([0x8c, 0x3d, 0x25, 0x00]); // Julian day 2440588
  expect(int96Bytes(DAY + 5n)).toEqual(
    Uint8Array.of(5, 0, 0, 0, 0, 0, 0, 0, 0x8d, 0x3d, 0x25, 0x00),
  );
});

describe('a draft of an INT96 time column', () => {
  test('infer: unix nanoseconds, with the deprecation warning', async () => {
    const draft = await inferConfig(file);
    expect(draft.document.parquetConfig?.flatDataset?.timeColumn).toEqual({
      path: 'timestamp_col',
      format: 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS',
    });
    expect(draft.issues.map((i) => [i.severity, i.code])).toEqual([
      ['warning', 'parquet_time_int96'],
    ]);
  });

  test('check, sampled and --full: the draft fits', async () => {
    const { document } = await inferConfig(file);
    expect(await checkConfig(document, file)).toEqual([]);
    expect(await checkConfig(document, file, { full: true })).toEqual([]);
  });

  test('check: another unit is the wrong unit, a text format does not read it', async () => {
    const { document } = await inferConfig(file);
    const micros = await checkConfig(
      withFormat(document, 'TIME_FORMAT_ABSOLUTE_UNIX_MICROSECONDS'),
      file,
    );
    expect(micros.map((i) => [i.code, i.path, i.hint])).toEqual([
      [
        'time_wrong_unit',
        '/parquetConfig/flatDataset/timeColumn/format',
        'Use format: TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS.',
      ],
    ]);
    const text = await checkConfig(withFormat(document, 'TIME_FORMAT_ABSOLUTE_RFC3339'), file);
    expect(text.map((i) => i.code)).toEqual(['time_not_parseable']);
  });

  test('--full decodes every INT96 value, with either decoder', async () => {
    for (const decoder of ['parquet-wasm', 'hyparquet'] as const) {
      const t = await scanParquetValues(file, 'timestamp_col', [], { decoder });
      expect({ rows: t.rows, ...t.time }, decoder).toEqual({
        rows: 24,
        decreases: 0,
        repeats: 0,
        nulls: 0,
        min: FIRST,
        max: LAST,
      });
    }
  });

  test('preview: the rows on their time axis, to the millisecond', async () => {
    const { document } = await inferConfig(file);
    const rows = await readConfigRows(document, file, { full: true });
    const times: number[] = [];
    await rows?.read((b) => times.push(...b.times.subarray(0, b.length)));
    expect(times.length).toBe(24);
    expect(times[0]).toBe(Number(FIRST / 1_000_000n));
    expect(times.at(-1)).toBe(Number(LAST / 1_000_000n));
  });
});
