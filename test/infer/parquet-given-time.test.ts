/**
 * A time column or time format given to Parquet infer is judged as check judges it
 * (formats/parquet/time-issues.ts): a format that does not read the column, a unix unit
 * that puts its times outside the plausible years, a column that holds no times, each an
 * error of the draft, the one check gives it. One that fits says nothing.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
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
