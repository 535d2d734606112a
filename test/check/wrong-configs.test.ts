/**
 * Deliberately wrong configs for the inspectors' fixture files: each starts from the draft
 * inference makes for the file (which fits it) and breaks one thing, as people do: the
 * wrong unit, a missing column, the wrong type, firstDataRow or column numbers off by one,
 * the wrong layout. Each must give exactly its expected issues: whole lists, pinned.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { checkConfig } from '../../src/check/index.js';
import type { ImportDocument } from '../../src/model/document.js';
import type { Issue } from '../../src/model/issue.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures');

function draft(area: string, name: string): ImportDocument {
  const expected = JSON.parse(
    readFileSync(join(fixtures, area, `${name}.expected.json`), 'utf8'),
  ) as { document: ImportDocument };
  return structuredClone(expected.document);
}

/** The parts of an issue a case pins (messages are checked for the words that matter). */
function pin(issues: Issue[]) {
  return issues.map((i) => ({
    code: i.code,
    severity: i.severity,
    path: i.path,
    ...(i.hint ? { hint: i.hint } : {}),
    ...(i.source
      ? { source: { ...i.source, file: i.source.file.replace(/^.*fixtures\//, '') } }
      : {}),
  }));
}

interface Case {
  name: string;
  area: 'csv' | 'parquet' | 'hdf5';
  fixture: string;
  data: string;
  break: (doc: ImportDocument) => void;
  expected: ReturnType<typeof pin>;
  /** Words each message must hold, in order of the issues. */
  words?: string[][];
  full?: boolean;
}

const csv = (doc: ImportDocument) => doc.csvConfig as NonNullable<ImportDocument['csvConfig']>;
const pq = (doc: ImportDocument) =>
  doc.parquetConfig as NonNullable<ImportDocument['parquetConfig']>;
const h5 = (doc: ImportDocument) => doc.hdf5Config as NonNullable<ImportDocument['hdf5Config']>;

const CASES: Case[] = [
  {
    name: 'unix milliseconds declared as seconds',
    area: 'csv',
    fixture: 'unix-milliseconds',
    data: 'unix-milliseconds.csv',
    break: (d) => {
      csv(d).timeColumn = { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_UNIX_SECONDS' };
    },
    expected: [
      {
        code: 'time_wrong_unit',
        severity: 'error',
        path: '/csvConfig/timeColumn/format',
        hint: 'Use format: TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS.',
        source: { file: 'csv/unix-milliseconds.csv', column: 1 },
      },
    ],
  },
  {
    name: 'unix nanoseconds declared as microseconds (full read)',
    area: 'csv',
    fixture: 'unix-nanoseconds',
    data: 'unix-nanoseconds.csv',
    full: true,
    break: (d) => {
      csv(d).timeColumn = { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_UNIX_MICROSECONDS' };
    },
    expected: [
      {
        code: 'time_wrong_unit',
        severity: 'error',
        path: '/csvConfig/timeColumn/format',
        hint: 'Use format: TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS.',
        source: { file: 'csv/unix-nanoseconds.csv', column: 1 },
      },
    ],
  },
  {
    name: 'firstDataRow on the units row',
    area: 'csv',
    fixture: 'units-row',
    data: 'units-row.csv',
    break: (d) => {
      csv(d).firstDataRow = 2;
    },
    expected: [
      {
        code: 'first_data_row_on_header',
        severity: 'error',
        path: '/csvConfig/firstDataRow',
        hint: 'Set firstDataRow: 3.',
        source: { file: 'csv/units-row.csv', row: 2 },
      },
    ],
  },
  {
    name: 'firstDataRow one past the first values',
    area: 'csv',
    fixture: 'units-row',
    data: 'units-row.csv',
    break: (d) => {
      csv(d).firstDataRow = 4;
    },
    expected: [
      {
        code: 'first_data_row_skips_data',
        severity: 'warning',
        path: '/csvConfig/firstDataRow',
        hint: 'Set firstDataRow: 3.',
        source: { file: 'csv/units-row.csv', row: 3 },
      },
    ],
  },
  {
    name: 'data columns shifted by one',
    area: 'csv',
    fixture: 'rfc3339-basic',
    data: 'rfc3339-basic.csv',
    break: (d) => {
      const c = csv(d);
      c.dataColumns = Object.fromEntries(
        Object.entries(c.dataColumns ?? {}).map(([k, v]) => [String(Number(k) + 1), v]),
      );
    },
    expected: [
      {
        code: 'column_name_mismatch',
        severity: 'warning',
        path: '/csvConfig/dataColumns/3',
        hint: 'Did you mean column 2?',
        source: { file: 'csv/rfc3339-basic.csv', column: 3 },
      },
      {
        code: 'column_name_mismatch',
        severity: 'warning',
        path: '/csvConfig/dataColumns/4',
        hint: 'Did you mean column 3?',
        source: { file: 'csv/rfc3339-basic.csv', column: 4 },
      },
      {
        code: 'column_name_mismatch',
        severity: 'warning',
        path: '/csvConfig/dataColumns/5',
        hint: 'Did you mean column 4?',
        source: { file: 'csv/rfc3339-basic.csv', column: 5 },
      },
      {
        code: 'column_not_in_file',
        severity: 'error',
        path: '/csvConfig/dataColumns/6',
        hint: "Did you mean column 5 ('state')?",
        source: { file: 'csv/rfc3339-basic.csv', column: 6 },
      },
      {
        code: 'type_too_wide',
        severity: 'warning',
        path: '/csvConfig/dataColumns/3/dataType',
        hint: 'Use dataType: CHANNEL_DATA_TYPE_INT_32 unless other files need decimals here.',
        source: { file: 'csv/rfc3339-basic.csv', column: 3 },
      },
      {
        code: 'value_type_mismatch',
        severity: 'error',
        path: '/csvConfig/dataColumns/4/dataType',
        hint: 'Use dataType: CHANNEL_DATA_TYPE_BOOL, or fix the values.',
        source: { file: 'csv/rfc3339-basic.csv', column: 4, row: 2, line: 2 },
      },
      {
        code: 'value_type_mismatch',
        severity: 'error',
        path: '/csvConfig/dataColumns/5/dataType',
        hint: 'Use dataType: CHANNEL_DATA_TYPE_STRING, or fix the values.',
        source: { file: 'csv/rfc3339-basic.csv', column: 5, row: 2, line: 2 },
      },
      {
        code: 'column_not_in_config',
        severity: 'info',
        path: '/csvConfig/dataColumns',
        source: { file: 'csv/rfc3339-basic.csv', column: 2 },
      },
    ],
  },
  {
    name: 'a column the file does not have',
    area: 'csv',
    fixture: 'unix-seconds',
    data: 'unix-seconds.csv',
    break: (d) => {
      csv(d).dataColumns = {
        ...csv(d).dataColumns,
        '9': { name: 'extra', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' },
      };
    },
    expected: [
      {
        code: 'column_not_in_file',
        severity: 'error',
        path: '/csvConfig/dataColumns/9',
        hint: 'Column numbers count from 1 and go up to 2.',
        source: { file: 'csv/unix-seconds.csv', column: 9 },
      },
    ],
  },
  {
    name: 'wrong types: text as INT_32, a boolean as DOUBLE, doubles as INT_32',
    area: 'csv',
    fixture: 'rfc3339-basic',
    data: 'rfc3339-basic.csv',
    break: (d) => {
      const c = csv(d).dataColumns ?? {};
      (c['2'] as { dataType?: string }).dataType = 'CHANNEL_DATA_TYPE_INT_32';
      (c['4'] as { dataType?: string }).dataType = 'CHANNEL_DATA_TYPE_DOUBLE';
      (c['5'] as { dataType?: string }).dataType = 'CHANNEL_DATA_TYPE_BOOL';
    },
    expected: [
      {
        code: 'value_type_mismatch',
        severity: 'error',
        path: '/csvConfig/dataColumns/2/dataType',
        hint: 'Use dataType: CHANNEL_DATA_TYPE_DOUBLE, or fix the values.',
        source: { file: 'csv/rfc3339-basic.csv', column: 2, row: 2, line: 2 },
      },
      {
        code: 'value_type_mismatch',
        severity: 'error',
        path: '/csvConfig/dataColumns/4/dataType',
        hint: 'Use dataType: CHANNEL_DATA_TYPE_BOOL, or fix the values.',
        source: { file: 'csv/rfc3339-basic.csv', column: 4, row: 2, line: 2 },
      },
      {
        code: 'value_type_mismatch',
        severity: 'error',
        path: '/csvConfig/dataColumns/5/dataType',
        hint: 'Use dataType: CHANNEL_DATA_TYPE_STRING, or fix the values.',
        source: { file: 'csv/rfc3339-basic.csv', column: 5, row: 2, line: 2 },
      },
    ],
  },
  {
    name: 'RFC 3339 times declared as ABSOLUTE_DATETIME',
    area: 'csv',
    fixture: 'rfc3339-basic',
    data: 'rfc3339-basic.csv',
    break: (d) => {
      csv(d).timeColumn = { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_DATETIME' };
    },
    expected: [
      {
        code: 'time_not_parseable',
        severity: 'error',
        path: '/csvConfig/timeColumn/format',
        hint: 'The values look like ABSOLUTE_RFC3339.',
        source: { file: 'csv/rfc3339-basic.csv', column: 1, row: 2, line: 2 },
      },
    ],
  },
  {
    name: 'time column off by one',
    area: 'csv',
    fixture: 'time-not-first',
    data: 'time-not-first.csv',
    break: (d) => {
      const t = csv(d).timeColumn;
      if (t) t.columnNumber = (t.columnNumber ?? 1) + 1;
    },
    expected: [
      {
        code: 'time_not_parseable',
        severity: 'error',
        path: '/csvConfig/timeColumn/format',
        source: { file: 'csv/time-not-first.csv', column: 4, row: 2, line: 2 },
      },
      {
        code: 'column_not_in_config',
        severity: 'info',
        path: '/csvConfig/dataColumns',
        source: { file: 'csv/time-not-first.csv', column: 3 },
      },
    ],
  },
  {
    name: 'a time column that goes backwards',
    area: 'csv',
    fixture: 'time-backwards',
    data: 'time-backwards.csv',
    break: () => {},
    expected: [
      {
        code: 'time_decreasing',
        severity: 'warning',
        path: '/csvConfig/timeColumn/columnNumber',
        source: { file: 'csv/time-backwards.csv', column: 1, row: 22, line: 22 },
      },
    ],
  },
  {
    name: 'wrong layout: a CSV config for a Parquet file',
    area: 'parquet',
    fixture: 'unix-ms-row-groups',
    data: 'unix-ms-row-groups.parquet',
    break: (d) => {
      delete d.parquetConfig;
      d.csvConfig = { firstDataRow: 2 };
    },
    expected: [
      {
        code: 'data_format_mismatch',
        severity: 'error',
        path: '/csvConfig',
        hint: 'Check the file against a config of its own kind (`importkit infer <file>` drafts one).',
        source: { file: 'parquet/unix-ms-row-groups.parquet' },
      },
    ],
  },
  {
    name: 'milliseconds declared as nanoseconds',
    area: 'parquet',
    fixture: 'unix-ms-row-groups',
    data: 'unix-ms-row-groups.parquet',
    break: (d) => {
      const t = pq(d).flatDataset?.timeColumn;
      if (t) t.format = 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS';
    },
    expected: [
      {
        code: 'time_wrong_unit',
        severity: 'error',
        path: '/parquetConfig/flatDataset/timeColumn/format',
        hint: 'Use format: TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS.',
        source: { file: 'parquet/unix-ms-row-groups.parquet', column: 'time_ms' },
      },
    ],
  },
  {
    name: 'a misspelt column, a wrong type and a footer off by one',
    area: 'parquet',
    fixture: 'unix-ms-row-groups',
    data: 'unix-ms-row-groups.parquet',
    break: (d) => {
      const p = pq(d);
      const cols = p.flatDataset?.dataColumns ?? [];
      if (cols[0]) cols[0].path = 'aa';
      if (cols[1]?.channelConfig) cols[1].channelConfig.dataType = 'CHANNEL_DATA_TYPE_BOOL';
      p.footerLength = (p.footerLength ?? 0) + 1;
      p.footerOffset = String(Number(p.footerOffset) - 1);
    },
    expected: [
      {
        code: 'footer_mismatch',
        severity: 'error',
        path: '/parquetConfig/footerOffset',
        hint: 'Use footerOffset: "695" and footerLength: 678.',
        source: { file: 'parquet/unix-ms-row-groups.parquet' },
      },
      {
        code: 'column_not_in_file',
        severity: 'error',
        path: '/parquetConfig/flatDataset/dataColumns/0/path',
        hint: "Did you mean 'a'?",
        source: { file: 'parquet/unix-ms-row-groups.parquet', column: 'aa' },
      },
      {
        code: 'value_type_mismatch',
        severity: 'error',
        path: '/parquetConfig/flatDataset/dataColumns/1/channelConfig/dataType',
        hint: 'Use dataType: CHANNEL_DATA_TYPE_INT_32.',
        source: { file: 'parquet/unix-ms-row-groups.parquet', column: 'b' },
      },
      {
        code: 'column_not_in_config',
        severity: 'info',
        path: '/parquetConfig/flatDataset',
        source: { file: 'parquet/unix-ms-row-groups.parquet', column: 'a' },
      },
    ],
  },
  {
    name: 'wrong layout: the value column as the name column',
    area: 'parquet',
    fixture: 'long-form',
    data: 'long-form.parquet',
    break: (d) => {
      const m = pq(d).singleChannelPerRow?.multiChannel;
      if (m) {
        m.namePath = 'value';
        m.dataPath = 'signal';
      }
    },
    expected: [
      {
        code: 'layout_mismatch',
        severity: 'error',
        path: '/parquetConfig/singleChannelPerRow/multiChannel/namePath',
        hint: 'A file with one column per channel is a flatDataset; `importkit infer <file>` drafts it.',
        source: { file: 'parquet/long-form.parquet', column: 'value' },
      },
    ],
  },
  {
    name: 'nanoseconds declared as microseconds',
    area: 'hdf5',
    fixture: 'one-d-root',
    data: 'one-d-root.h5',
    break: (d) => {
      h5(d).timeFormat = 'TIME_FORMAT_ABSOLUTE_UNIX_MICROSECONDS';
    },
    expected: [
      {
        code: 'time_wrong_unit',
        severity: 'error',
        path: '/hdf5Config/timeFormat',
        hint: 'Use timeFormat: TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS.',
        source: { file: 'hdf5/one-d-root.h5', dataset: '/timestamp' },
      },
    ],
  },
  {
    name: 'a misspelt dataset and a FLOAT for doubles',
    area: 'hdf5',
    fixture: 'one-d-root',
    data: 'one-d-root.h5',
    break: (d) => {
      const data = h5(d).data ?? [];
      if (data[0]) data[0].valueDataset = '/chanel_0';
      if (data[1]?.channelConfig) data[1].channelConfig.dataType = 'CHANNEL_DATA_TYPE_FLOAT';
    },
    expected: [
      {
        code: 'dataset_not_in_file',
        severity: 'error',
        path: '/hdf5Config/data/0/valueDataset',
        hint: "Did you mean '/channel_0'?",
        source: { file: 'hdf5/one-d-root.h5', dataset: '/chanel_0' },
      },
      {
        code: 'type_too_narrow',
        severity: 'warning',
        path: '/hdf5Config/data/1/channelConfig/dataType',
        hint: 'Use dataType: CHANNEL_DATA_TYPE_DOUBLE.',
        source: { file: 'hdf5/one-d-root.h5', dataset: '/channel_1' },
      },
      {
        code: 'column_not_in_config',
        severity: 'info',
        path: '/hdf5Config/data',
        source: { file: 'hdf5/one-d-root.h5', dataset: '/channel_0' },
      },
    ],
  },
  {
    name: 'column indexes off by one',
    area: 'hdf5',
    fixture: 'two-d',
    data: 'two-d.h5',
    break: (d) => {
      for (const e of h5(d).data ?? [])
        if (e.valueIndex !== undefined) e.valueIndex = String(Number(e.valueIndex) + 1);
    },
    expected: [
      {
        code: 'index_out_of_range',
        severity: 'error',
        path: '/hdf5Config/data/2/valueIndex',
        hint: 'Indexes count from 0; use 0 to 3.',
        source: { file: 'hdf5/two-d.h5', dataset: '/matrix' },
      },
      {
        code: 'index_out_of_range',
        severity: 'error',
        path: '/hdf5Config/data/3/valueIndex',
        hint: 'Indexes count from 0; use 0 to 1.',
        source: { file: 'hdf5/two-d.h5', dataset: '/sensor' },
      },
      {
        code: 'time_out_of_range',
        severity: 'warning',
        path: '/hdf5Config/timeFormat',
        source: { file: 'hdf5/two-d.h5', dataset: '/wide' },
      },
      {
        code: 'index_out_of_range',
        severity: 'error',
        path: '/hdf5Config/data/5/valueIndex',
        hint: 'Indexes count from 0; use 0 to 2.',
        source: { file: 'hdf5/two-d.h5', dataset: '/wide' },
      },
      {
        code: 'column_not_in_config',
        severity: 'info',
        path: '/hdf5Config/data',
        source: { file: 'hdf5/two-d.h5', dataset: '/cube' },
      },
      {
        code: 'column_not_in_config',
        severity: 'info',
        path: '/hdf5Config/data',
        source: { file: 'hdf5/two-d.h5', dataset: '/flat' },
      },
      {
        code: 'column_not_in_config',
        severity: 'info',
        path: '/hdf5Config/data',
        source: { file: 'hdf5/two-d.h5', dataset: '/grid' },
      },
      {
        code: 'column_not_in_config',
        severity: 'info',
        path: '/hdf5Config/data',
        source: { file: 'hdf5/two-d.h5', dataset: '/image' },
      },
      {
        code: 'column_not_in_config',
        severity: 'info',
        path: '/hdf5Config/data',
        source: { file: 'hdf5/two-d.h5', dataset: '/zeros' },
      },
    ],
  },
  {
    name: 'a misspelt member and a compound without fields',
    area: 'hdf5',
    fixture: 'compound',
    data: 'compound.h5',
    break: (d) => {
      const data = h5(d).data ?? [];
      if (data[1]) data[1].valueField = 'idd';
      if (data[2]) delete data[2].valueField;
    },
    expected: [
      {
        code: 'member_not_in_dataset',
        severity: 'error',
        path: '/hdf5Config/data/1/valueField',
        hint: "Did you mean 'id'?",
        source: { file: 'hdf5/compound.h5', dataset: '/pack' },
      },
      {
        code: 'layout_mismatch',
        severity: 'error',
        path: '/hdf5Config/data/2/valueField',
        hint: 'Its members: id, ts, voltage, label and ok.',
        source: { file: 'hdf5/compound.h5', dataset: '/pack' },
      },
    ],
  },
];

describe('wrong configs give exactly their issues', () => {
  for (const c of CASES) {
    test(`${c.area}/${c.fixture}: ${c.name}`, async () => {
      const doc = draft(c.area, c.fixture);
      c.break(doc);
      const issues = await checkConfig(doc, join(fixtures, c.area, c.data), {
        full: c.full === true,
      });
      expect(pin(issues)).toEqual(c.expected);
      c.words?.forEach((words, i) => {
        for (const w of words) expect(issues[i]?.message ?? '').toContain(w);
      });
    });
  }
});
