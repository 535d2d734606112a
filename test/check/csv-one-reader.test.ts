import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { checkConfig, readConfigRows } from '../../src/check/index.js';
import { inspectCsv } from '../../src/formats/csv/inspect.js';
import { InspectError } from '../../src/inspect/index.js';
import type { ImportDocument } from '../../src/model/document.js';
import type { Issue } from '../../src/model/issue.js';

/**
 * Check reads a CSV file through the inspector: an unreadable head is refused once, in one
 * wording, by inspect, the sampled and full checks and the row reader alike; a column past
 * the end names the column whose header is the channel's name, or nearly.
 */

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-check-one-reader-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const doc = (dataColumns: Record<string, { name: string }> = { '2': { name: 'v' } }) =>
  ({
    csvConfig: {
      assetName: 'a',
      firstDataRow: 2,
      timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_UNIX_SECONDS' },
      dataColumns: Object.fromEntries(
        Object.entries(dataColumns).map(([k, c]) => [
          k,
          { ...c, dataType: 'CHANNEL_DATA_TYPE_DOUBLE' as const },
        ]),
      ),
    },
  }) satisfies ImportDocument;

async function refusal(fn: () => Promise<unknown>): Promise<Issue | string> {
  try {
    await fn();
    return 'not refused';
  } catch (err) {
    return err instanceof InspectError ? err.issue : String(err);
  }
}

// (A binary file is told apart earlier, by format detection: data_format_mismatch.)
test('a UTF-16 file: one refusal from inspect, check, check --full and the row reader', async () => {
  const code = 'csv_encoding_utf16';
  const bytes = Buffer.from('\ufefftime,v\n1700000000,1\n', 'utf16le');
  const path = join(dir, `${code}.csv`);
  await writeFile(path, bytes);
  const inspected = await refusal(() => inspectCsv(path));
  expect(inspected).toMatchObject({ code, severity: 'error', source: { file: path } });
  expect(await refusal(() => checkConfig(doc(), path))).toEqual(inspected);
  expect(await refusal(() => checkConfig(doc(), path, { full: true }))).toEqual(inspected);
  const rows = await readConfigRows(doc(), path, {});
  expect(await refusal(async () => rows?.read(() => {}))).toEqual(inspected);
});

test('a column past the end: the column named (or nearly) as the channel, else the range', async () => {
  const path = join(dir, 'names.csv');
  await writeFile(
    path,
    'time,temperature,pressure\n1700000000,20.5,1013.2\n1700000001,20.6,1012.8\n',
  );
  const issues = await checkConfig(
    doc({
      '2': { name: 'temperature' },
      '3': { name: 'pressure' },
      '4': { name: 'pressure' },
      '5': { name: 'temprature' },
      '6': { name: 'humidity' },
    }),
    path,
  );
  expect(issues.map((i) => [i.code, i.path, i.hint])).toEqual([
    ['column_not_in_file', '/csvConfig/dataColumns/4', "Did you mean column 3 ('pressure')?"],
    ['column_not_in_file', '/csvConfig/dataColumns/5', "Did you mean column 2 ('temperature')?"],
    [
      'column_not_in_file',
      '/csvConfig/dataColumns/6',
      'Column numbers count from 1 and go up to 3.',
    ],
  ]);
});
