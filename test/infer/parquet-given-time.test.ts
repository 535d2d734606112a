/**
 * A time column or time format given to Parquet infer is judged as check judges it
 * (formats/parquet/time-issues.ts): a format that does not read the column, a unix unit
 * that puts its times outside the plausible years, a column that holds no times, each an
 * error of the draft, the one check gives it. One that fits says nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SchemaElement } from 'hyparquet';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import { afterAll, describe, expect, test } from 'vitest';
import { checkConfig } from '../../src/check/index.js';
import { inferConfig } from '../../src/infer/index.js';
import type { ImportDocument } from '../../src/model/index.js';
import { repoRoot } from '../helpers/paths.js';

const fixture = (name: string) => join(repoRoot, 'fixtures', 'parquet', name);

const errorsOf = (issues: ReadonlyArray<{ code: string; severity: string; path: string }>) =>
  issues.filter((i) => i.severity === 'error').map((i) => `${i.code} ${i.path}`);

/** Infer's errors and check's, of the draft infer writes. */
async function loop(path: string, options: Parameters<typeof inferConfig>[1]) {
  const draft = await inferConfig(path, options);
  const checked = await checkConfig(draft.document as ImportDocument, path);
  return { infer: errorsOf(draft.issues), check: errorsOf(checked) };
}

const FORMAT = '/parquetConfig/flatDataset/timeColumn/format';
/** Where a full read's findings on the time values go. */
const VALUES = '/parquetConfig/flatDataset/timeColumn/path';

describe('a time format given to infer', () => {
  const path = fixture('unix-ms-row-groups.parquet');

  test('that cannot read the column: the error check gives', async () => {
    expect(await loop(path, { timeFormat: 'ABSOLUTE_RFC3339' })).toEqual({
      infer: [`time_not_parseable ${FORMAT}`],
      check: [`time_not_parseable ${FORMAT}`],
    });
  });

  test('of another unit: the error check gives', async () => {
    expect(await loop(path, { timeFormat: 'ABSOLUTE_UNIX_SECONDS' })).toEqual({
      infer: [`time_wrong_unit ${FORMAT}`],
      check: [`time_wrong_unit ${FORMAT}`],
    });
  });

  test('that fits: nothing', async () => {
    const fits = await loop(path, { timeFormat: 'ABSOLUTE_UNIX_MILLISECONDS' });
    expect(fits).toEqual({ infer: [], check: [] });
  });
});

test('a time column given that holds no times (BOOLEAN): the error check gives', async () => {
  const path = fixture('all-types.parquet');
  const given = await loop(path, { timeColumn: 'flag', relativeStartTime: '2024-03-01T12:00:00Z' });
  expect(given.check).toEqual([`time_not_parseable ${FORMAT}`]);
  expect(given.infer).toEqual(given.check);
});

describe('a text time column given: its first page is read, by infer and by a sampled check alike', () => {
  const dir = mkdtempSync(join(tmpdir(), 'importkit-parquet-text-time-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A file of a TIMESTAMP column and a text column `c0` of `values`, one row group. */
  function textFile(name: string, values: string[]): string {
    const writer = new ByteWriter();
    const schema: SchemaElement[] = [
      { name: 'root', num_children: 2 },
      {
        name: 'recorded',
        type: 'INT64',
        repetition_type: 'REQUIRED',
        logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' },
      },
      {
        name: 'c0',
        type: 'BYTE_ARRAY',
        logical_type: { type: 'STRING' },
        repetition_type: 'REQUIRED',
      },
    ];
    const pw = new ParquetWriter({ writer, schema });
    const recorded = values.map((_, i) => BigInt(Date.UTC(2024, 2, 1, 12) + i * 1000));
    pw.write({
      rowGroupSize: values.length,
      columnData: [
        { name: 'recorded', data: recorded },
        { name: 'c0', data: values },
      ],
    });
    pw.finish();
    const path = join(dir, name);
    writeFileSync(path, writer.getBytes());
    return path;
  }

  /** Infer's errors, and those of a sampled and a full check of its draft. */
  async function loops(path: string, options: Parameters<typeof inferConfig>[1]) {
    const draft = await inferConfig(path, options);
    const document = draft.document as ImportDocument;
    return {
      infer: errorsOf(draft.issues),
      check: errorsOf(await checkConfig(document, path)),
      full: errorsOf(await checkConfig(document, path, { full: true })),
    };
  }

  const times = Array.from({ length: 8 }, (_, i) => `2024-03-01T12:00:0${i}Z`);

  test('text that is no time: the error of the full read, from its first values', async () => {
    const path = textFile('words.parquet', ['v0-0', 'v0-1']);
    const found = await loops(path, { timeColumn: 'c0' });
    expect(found).toEqual({
      infer: [`time_not_parseable ${FORMAT}`],
      check: [`time_not_parseable ${FORMAT}`],
      full: [`time_not_parseable ${VALUES}`],
    });
  });

  test('one value of the first page that is no time is found wherever it is', async () => {
    const path = textFile('late.parquet', [...times, 'later']);
    expect(await loops(path, { timeColumn: 'c0' })).toEqual({
      infer: [`time_not_parseable ${FORMAT}`],
      check: [`time_not_parseable ${FORMAT}`],
      full: [`time_not_parseable ${VALUES}`],
    });
  });

  test('RFC 3339 times: nothing', async () => {
    const path = textFile('times.parquet', times);
    expect(await loops(path, { timeColumn: 'c0' })).toEqual({ infer: [], check: [], full: [] });
  });

  test('date-times without a zone declared RFC 3339: the sampled check reads them as the full read does', async () => {
    const path = textFile(
      'datetimes.parquet',
      times.map((t) => t.replace('T', ' ').slice(0, -1)),
    );
    const draft = await inferConfig(path, { timeColumn: 'c0' });
    const document = structuredClone(draft.document) as ImportDocument;
    const flat = document.parquetConfig?.flatDataset;
    if (flat?.timeColumn) flat.timeColumn.format = 'TIME_FORMAT_ABSOLUTE_RFC3339';
    expect(errorsOf(await checkConfig(document, path))).toEqual([`time_not_parseable ${FORMAT}`]);
    expect(errorsOf(await checkConfig(document, path, { full: true }))).toEqual([
      `time_not_parseable ${VALUES}`,
    ]);
  });
});
