import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkConfig } from '../../src/check/index.js';
import { inferCsv } from '../../src/formats/csv/infer.js';
import { scoreTimeColumns } from '../../src/formats/csv/infer-time.js';
import { inspectCsv } from '../../src/formats/csv/inspect.js';
import { inferConfig } from '../../src/infer/index.js';
import { InspectError } from '../../src/inspect/profile.js';
import { platformExamples as corpus } from '../helpers/paths.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-infer-csv-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
async function write(name: string, content: string | Uint8Array): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}
const codes = (issues: ReadonlyArray<{ code: string }>) => issues.map((i) => i.code).sort();

describe('the platform example', () => {
  test('csv-absolute-datetime.csv: row 2, time column 1 ABSOLUTE_DATETIME, columns 2-11 DOUBLE', async () => {
    const draft = await inferConfig(join(corpus, 'csv-absolute-datetime.csv'));
    const dataColumns: Record<string, unknown> = {};
    for (let c = 2; c <= 11; c++)
      dataColumns[String(c)] = { name: `channel_${c - 2}`, dataType: 'CHANNEL_DATA_TYPE_DOUBLE' };
    expect(draft.document).toEqual({
      csvConfig: {
        assetName: 'csv-absolute-datetime',
        firstDataRow: 2,
        timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_DATETIME' },
        dataColumns,
      },
    });
    expect(draft.issues.map((i) => [i.code, i.severity])).toEqual([
      ['infer_time_zone_assumed_utc', 'info'],
    ]);
  });
});

describe('options override every choice', () => {
  const table = [
    'start_time;end_time;n;v',
    ...Array.from({ length: 30 }, (_, i) => {
      const t = new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString();
      const e = new Date(Date.UTC(2024, 0, 1) + i * 1000 + 500).toISOString();
      return `${t};${e};${i};${(i * 1.5).toFixed(1)}`;
    }),
  ].join('\n');

  test('two equally good time columns: the first, with a warning', async () => {
    const draft = await inferCsv(await write('two-times.csv', table));
    expect(draft.document.csvConfig?.timeColumn).toEqual({
      columnNumber: 1,
      format: 'TIME_FORMAT_ABSOLUTE_RFC3339',
    });
    expect(codes(draft.issues)).toEqual(['csv_delimiter_not_comma', 'infer_time_column_ambiguous']);
    const ev = draft.evidence.find((e) => e.path === '/csvConfig/timeColumn/columnNumber');
    expect(ev?.confidence).toBe('low');
    expect(ev?.alternatives?.[0]).toMatch(/^column 2 \(end_time\)/);
  });

  test('time column by number, delimiter, header row, asset, run', async () => {
    const path = await write('opts.csv', table);
    const draft = await inferCsv(path, {
      timeColumn: 2,
      delimiter: ';',
      headerRow: 1,
      assetName: 'rig-7',
      runName: 'run 12',
    });
    const cfg = draft.document.csvConfig;
    expect(cfg?.assetName).toBe('rig-7');
    expect(cfg?.runName).toBe('run 12');
    expect(cfg?.timeColumn?.columnNumber).toBe(2);
    expect(Object.keys(cfg?.dataColumns ?? {})).toEqual(['1', '3', '4']);
    expect(
      draft.evidence.find((e) => e.path === '/csvConfig/timeColumn/columnNumber')?.reason,
    ).toBe('as given');
  });

  test('no header (header row 0): the first row becomes data', async () => {
    const path = await write('nohead.csv', table);
    const draft = await inferCsv(path, { headerRow: 0, timeColumn: 1 });
    expect(draft.document.csvConfig?.firstDataRow).toBe(1);
    // The header line read as data is one odd row: the column keeps its type, the row is named.
    expect(draft.document.csvConfig?.dataColumns?.['3']).toEqual({
      name: 'column_3',
      dataType: 'CHANNEL_DATA_TYPE_INT_32',
    });
    expect(
      draft.issues.filter((i) => i.code === 'csv_value_stray').map((i) => [i.path, i.source?.row]),
    ).toEqual([
      ['/csvConfig/dataColumns/2/dataType', 1],
      ['/csvConfig/dataColumns/3/dataType', 1],
      ['/csvConfig/dataColumns/4/dataType', 1],
    ]);
  });

  test('a time column that is not in the file is an error naming the columns', async () => {
    const draft = await inferCsv(await write('missing.csv', table), { timeColumn: 'clock' });
    const issue = draft.issues.find((i) => i.code === 'infer_time_column_unknown');
    expect(issue?.severity).toBe('error');
    expect(issue?.message).toContain('1 start_time');
    expect(draft.document.csvConfig?.timeColumn).toBeUndefined();
  });

  test('a time format that cannot read the values is kept, with the error check gives', async () => {
    const draft = await inferCsv(await write('fmt.csv', table), {
      timeFormat: 'ABSOLUTE_UNIX_SECONDS',
    });
    expect(draft.document.csvConfig?.timeColumn?.format).toBe('TIME_FORMAT_ABSOLUTE_UNIX_SECONDS');
    const found = draft.issues.find((i) => i.code === 'time_not_parseable');
    expect(found).toMatchObject({ severity: 'error', path: '/csvConfig/timeColumn/format' });
  });

  test('a time format given for text that is no time (a line read whole under another delimiter) gets the error check gives', async () => {
    const rows = Array.from({ length: 10 }, (_, i) => `2024-03-01T12:00:0${i}Z,${i % 2 === 0}`);
    const path = await write('whole-lines.csv', `time,ok\n${rows.join('\n')}\n`);
    for (const timeFormat of [
      'ABSOLUTE_UNIX_MILLISECONDS',
      'RELATIVE_SECONDS',
      'ABSOLUTE_RFC3339',
    ]) {
      const options = {
        delimiter: '\t',
        timeColumn: 1,
        timeFormat,
        relativeStartTime: '2024-03-01T12:00:00Z',
      };
      const draft = await inferCsv(path, options);
      const found = draft.issues.find((i) => i.code === 'time_not_parseable');
      expect(found, timeFormat).toMatchObject({
        severity: 'error',
        path: '/csvConfig/timeColumn/format',
      });
      expect(found?.message).toContain("'2024-03-01T12:00:00Z,true'");
      // What check finds of the draft on the same file, read with the same delimiter.
      const checked = await checkConfig(draft.document, path, { delimiter: '\t' });
      expect(checked.filter((i) => i.code === 'time_not_parseable').map((i) => i.path)).toEqual([
        '/csvConfig/timeColumn/format',
      ]);
    }
  });

  test('a text format given for text times check does not read in it gets the error check gives', async () => {
    const cases = [
      // The other text format: RFC 3339 needs a zone, a date-time has none.
      { time: (i: number) => `2024-03-01 12:00:0${i}`, given: 'ABSOLUTE_RFC3339' },
      { time: (i: number) => `2024-03-01 12:00:0${i}Z`, given: 'ABSOLUTE_DATETIME' },
      // Dates written day-first: the text formats read year-first dates only.
      { time: (i: number) => `30.03.2024 12:00:0${i}`, given: 'ABSOLUTE_DATETIME' },
      { time: (i: number) => `30.03.2024 12:00:0${i}`, given: 'ABSOLUTE_RFC3339' },
    ];
    for (const [k, { time, given }] of cases.entries()) {
      const rows = Array.from({ length: 6 }, (_, i) => `${time(i)},${i}`);
      const path = await write(`text-times-${k}.csv`, `time,v\n${rows.join('\n')}\n`);
      const draft = await inferCsv(path, { timeFormat: given });
      const found = draft.issues.filter((i) => i.severity === 'error').map((i) => i.code);
      expect(found, `${time(0)} as ${given}`).toEqual(['time_not_parseable']);
      const checked = await checkConfig(draft.document, path);
      expect(checked.filter((i) => i.severity === 'error').map((i) => i.code)).toEqual(found);
    }
  });

  test('a unix unit that puts the values outside the plausible years is kept, with the error check gives', async () => {
    const rows = ['ts,v', ...Array.from({ length: 10 }, (_, i) => `${1_700_000_000_000 + i},${i}`)];
    const draft = await inferCsv(await write('unit.csv', rows.join('\n')), {
      timeFormat: 'ABSOLUTE_UNIX_SECONDS',
    });
    expect(draft.document.csvConfig?.timeColumn?.format).toBe('TIME_FORMAT_ABSOLUTE_UNIX_SECONDS');
    expect(codes(draft.issues)).toEqual(['time_wrong_unit']);
    expect(draft.issues[0]?.hint).toBe('Use format: TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS.');
  });

  test('a start time with an absolute format is left out, with a warning', async () => {
    const draft = await inferCsv(await write('start.csv', table), {
      relativeStartTime: '2024-01-01T00:00:00Z',
    });
    expect(draft.document.csvConfig?.timeColumn?.relativeStartTime).toBeUndefined();
    expect(codes(draft.issues)).toContain('infer_start_time_ignored');
  });

  test('relative format given, with its start time', async () => {
    const rows = ['t,v', ...Array.from({ length: 20 }, (_, i) => `${i * 10},${i}`)].join('\n');
    const draft = await inferCsv(await write('rel.csv', rows), {
      timeFormat: 'TIME_FORMAT_RELATIVE_MILLISECONDS',
      relativeStartTime: '2024-05-01T10:00:00Z',
    });
    expect(draft.document.csvConfig?.timeColumn).toEqual({
      columnNumber: 1,
      format: 'TIME_FORMAT_RELATIVE_MILLISECONDS',
      relativeStartTime: '2024-05-01T10:00:00Z',
    });
    expect(draft.issues).toEqual([]);
  });
});

describe('the time column is never guessed wrongly', () => {
  test('an index counting from 0 with no time name is not time', async () => {
    const rows = ['index,value', ...Array.from({ length: 20 }, (_, i) => `${i},${(i * 0.3) % 1}`)];
    const draft = await inferCsv(await write('index.csv', rows.join('\n')));
    expect(draft.document.csvConfig?.timeColumn).toBeUndefined();
    expect(codes(draft.issues)).toEqual(['infer_time_column_not_found']);
  });
  test('increasing unix seconds with no time name are time', async () => {
    const rows = [
      'a,b',
      ...Array.from({ length: 20 }, (_, i) => `${(i * 0.7) % 1},${1_700_000_000 + i}`),
    ];
    const draft = await inferCsv(await write('unix.csv', rows.join('\n')));
    expect(draft.document.csvConfig?.timeColumn).toEqual({
      columnNumber: 2,
      format: 'TIME_FORMAT_ABSOLUTE_UNIX_SECONDS',
    });
  });
  test('a time-named column of mixed values is reported, not chosen', async () => {
    const rows = ['time,v', '2024-01-01T00:00:00Z,1', 'later,2', '1700000000,3'];
    const draft = await inferCsv(await write('mixed.csv', rows.join('\n')));
    expect(draft.document.csvConfig?.timeColumn).toBeUndefined();
    expect(codes(draft.issues)).toEqual([
      'infer_time_column_not_found',
      'infer_time_formats_mixed',
    ]);
  });
  test('scores rank a named, parsing, increasing column first', async () => {
    const rows = [
      'x,timestamp,y',
      ...Array.from({ length: 10 }, (_, i) => `${i},2024-01-01T00:00:0${i}Z,${9 - i}`),
    ];
    const profile = await inspectCsv(await write('rank.csv', rows.join('\n')));
    const ranked = scoreTimeColumns(profile.fields);
    expect(ranked.map((c) => c.column)).toEqual([2]);
  });
});

describe('errors', () => {
  test('a missing file is an InspectError with a one-line message', async () => {
    await expect(inferConfig(join(dir, 'nope.csv'))).rejects.toBeInstanceOf(InspectError);
  });
  test('binary junk named .csv is refused clearly', async () => {
    const junk = new Uint8Array(2048).map((_, i) => (i * 31) % 256);
    const err = await inferConfig(await write('junk.csv', junk)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InspectError);
    expect(['unknown_format', 'csv_not_text']).toContain((err as InspectError).issue.code);
  });
});
