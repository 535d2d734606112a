/**
 * One fact, one message: validation issues that restate an inference issue are left out of a
 * draft. The table below pins, for every inference code, the validation codes it absorbs.
 */
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { inferConfig, RESTATED_BY } from '../../src/infer/index.js';
import { newFacts, restates, samePlace } from '../../src/infer/restated.js';
import { CODE_AREAS, CODES, type IssueCode } from '../../src/model/codes/index.js';
import type { Issue } from '../../src/model/issue.js';
import { repoRoot } from '../helpers/paths.js';

const PINNED: Record<string, string[]> = {
  infer_time_column_not_found: ['time_column_missing'],
  infer_time_column_unknown: ['time_column_missing'],
  infer_time_column_ambiguous: [],
  infer_time_format_unknown: ['time_format_missing'],
  infer_time_format_mismatch: [],
  infer_time_formats_mixed: [],
  infer_time_date_order_ambiguous: [],
  infer_time_not_iso: [],
  infer_time_not_increasing: [],
  infer_time_zone_assumed_utc: [],
  infer_time_unit_guessed: [],
  infer_time_out_of_range: [],
  infer_start_time_missing: ['relative_start_time_missing'],
  infer_start_time_from_file_name: [],
  infer_start_time_ignored: [],
  infer_option_invalid: ['relative_start_time_missing'],
  csv_empty: [],
  csv_not_text: [],
  csv_encoding_utf16: [],
  csv_encoding_not_utf8: [],
  csv_line_too_long: [],
  csv_gzip_corrupt: [],
  csv_gzip_head_only: [],
  csv_no_data_rows: [],
  csv_ragged_rows: [],
  csv_mixed_line_endings: [],
  csv_delimiter_uncertain: [],
  csv_delimiter_not_comma: [],
  csv_header_uncertain: [],
  csv_type_widened: [],
  csv_slice_skipped: [],
  csv_embedded_config: [],
  csv_duplicate_column_name: [],
  csv_column_empty: [],
  csv_header_row_out_of_range: [],
  csv_too_many_columns: [],
  csv_last_row_incomplete: [],
  csv_header_repeated: [],
  csv_value_stray: [],
  csv_trailing_empty_columns: [],
  csv_decimal_comma: [],
  csv_thousands_separator: [],
  csv_time_split_columns: ['time_column_missing'],
  csv_time_zone_name: ['time_column_missing'],
  csv_time_ampm: ['time_column_missing'],
  csv_time_empty: [],
  csv_time_unparsable: [],
  parquet_not_parquet: [],
  parquet_truncated: [],
  parquet_bad_magic: [],
  parquet_encrypted_footer: [],
  parquet_footer_length_invalid: [],
  parquet_footer_corrupt: [],
  parquet_page_unread: [],
  parquet_decimal_as_double: [],
  parquet_temporal_as_int64: [],
  parquet_complex_columns: [],
  parquet_no_time_column: ['time_column_missing'],
  parquet_time_unit_guessed: [],
  parquet_time_not_utc: [],
  parquet_time_int96: [],
  parquet_time_out_of_range: [],
  parquet_relative_start_unknown: ['relative_start_time_missing'],
  parquet_option_invalid: [],
  parquet_no_data_columns: [],
  parquet_embedded_config: [],
  parquet_too_many_columns: [],
  hdf5_signature_missing: [],
  hdf5_superblock_invalid: [],
  hdf5_truncated: [],
  hdf5_unreadable: [],
  hdf5_dataset_skipped: [],
  hdf5_no_channels: ['time_format_missing'],
  hdf5_channel_name_duplicate: [],
  hdf5_time_formats_differ: [],
  hdf5_time_dataset_left_out: [],
  hdf5_time_format_guessed: [],
  hdf5_time_unit_unsupported: [],
  hdf5_time_dataset_not_found: [],
  hdf5_time_format_invalid: [],
  hdf5_relative_start_invalid: ['relative_start_time_missing'],
  // A batch's inference: a folder or archive without data drafts an empty fileConfigs.
  batch_file_left_out: [],
  batch_no_data_files: ['batch_empty'],
  batch_file_missing: [],
  batch_file_not_listed: [],
  batch_type_mismatch: [],
  archive_corrupt: [],
  archive_member_name_unsafe: [],
  archive_member_duplicate: [],
  archive_members_overlap: [],
  archive_too_large: [],
};

const INFERENCE_CODES = [
  ...Object.keys(CODE_AREAS.infer),
  ...Object.keys(CODE_AREAS.csv),
  ...Object.keys(CODE_AREAS.parquet),
  ...Object.keys(CODE_AREAS.hdf5),
  ...Object.keys(CODE_AREAS.batch),
] as IssueCode[];

const RANK = { info: 0, warning: 1, error: 2 } as const;

describe('the restatement table', () => {
  test('every inference code absorbs exactly the validation codes pinned here', () => {
    expect(INFERENCE_CODES).toHaveLength(91);
    const actual = Object.fromEntries(INFERENCE_CODES.map((c) => [c, [...(RESTATED_BY[c] ?? [])]]));
    expect(actual).toEqual(PINNED);
    expect(
      Object.keys(RESTATED_BY).filter((c) => !INFERENCE_CODES.includes(c as IssueCode)),
    ).toEqual([]);
  });

  test('each absorbed code is a validation code, no more severe than the issue that keeps the fact', () => {
    const validate = Object.keys(CODE_AREAS.validate);
    const pairs = Object.entries(RESTATED_BY).flatMap(([i, vs]) => (vs ?? []).map((v) => [i, v]));
    expect(pairs).toHaveLength(13);
    for (const [i, v] of pairs as Array<[IssueCode, IssueCode]>) {
      expect(validate, `${i} absorbs ${v}`).toContain(v);
      expect(RANK[CODES[i].severity], `${i} vs ${v}`).toBeGreaterThanOrEqual(
        RANK[CODES[v].severity],
      );
    }
  });
});

describe('same place', () => {
  test('the same pointer, one within the other, or siblings; never the document root', () => {
    const cases: Array<[string, string, boolean]> = [
      ['/csvConfig/timeColumn', '/csvConfig', true],
      ['/csvConfig/timeColumn/columnNumber', '/csvConfig', true],
      ['/parquetConfig', '/parquetConfig/flatDataset', true],
      ['/a/timeColumn/relativeStartTime', '/a/timeColumn/format', true],
      ['/hdf5Config/relativeStartTime', '/hdf5Config/timeFormat', true],
      ['/csvConfig/timeColumn', '/csvConfig/timeColumnX', true],
      ['/csvConfig/dataColumns/2', '/csvConfig/timeColumn/format', false],
      ['/csvConfig', '/parquetConfig', false],
      ['', '/csvConfig/timeColumn', false],
      ['/csvConfig', '', false],
    ];
    expect(cases.map(([a, b]) => samePlace(a, b))).toEqual(cases.map(([, , r]) => r));
  });

  const issue = (code: IssueCode, path: string): Issue => ({
    code,
    severity: CODES[code].severity,
    path,
    message: code,
  });

  test('only listed pairs at the same place are restatements', () => {
    const i = issue('infer_time_column_not_found', '/csvConfig/timeColumn');
    expect(restates(issue('time_column_missing', '/csvConfig'), i)).toBe(true);
    expect(restates(issue('time_format_missing', '/csvConfig'), i)).toBe(false);
    expect(restates(issue('time_column_missing', '/parquetConfig'), i)).toBe(false);
  });

  test('a validation issue is dropped only when inference said it or said what it restates', () => {
    const codes = Object.keys(CODES) as IssueCode[];
    const paths = ['', '/csvConfig', '/csvConfig/timeColumn', '/csvConfig/timeColumn/format', '/x'];
    const arbIssue = fc
      .record({ code: fc.constantFrom(...codes), path: fc.constantFrom(...paths) })
      .map(({ code, path }) => issue(code, path));
    fc.assert(
      fc.property(
        fc.array(arbIssue, { maxLength: 6 }),
        fc.array(arbIssue, { maxLength: 6 }),
        (inf, val) => {
          const kept = newFacts(inf, val);
          for (const v of val) {
            const said = inf.some(
              (i) => (i.code === v.code && i.path === v.path) || restates(v, i),
            );
            expect(kept.includes(v)).toBe(!said);
          }
        },
      ),
    );
  });
});

describe('drafts say each fact once', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'importkit-restated-'));
    await writeFile(join(dir, 'badtime.csv'), 'time,v\nfoo,1\nbar,2\nbaz,3\n');
    const f = join(repoRoot, 'fixtures');
    await copyFile(
      join(f, 'parquet', 'relative-elapsed-2024-03-01.parquet'),
      join(dir, 'rel.parquet'),
    );
    await copyFile(join(f, 'hdf5', 'relative-2024-05-01T10-00-00Z.h5'), join(dir, 'rel.h5'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const codesOf = async (file: string, options: Record<string, unknown> = {}) =>
    (await inferConfig(file, options)).issues
      .filter((i) => i.severity === 'error')
      .map((i) => `${i.code} ${i.path}`);
  const fx = (...p: string[]) => join(repoRoot, 'fixtures', ...p);

  test('no time column, an unknown time column, times that do not parse: one error each', async () => {
    expect(await codesOf(fx('csv', 'no-time.csv'))).toEqual([
      'infer_time_column_not_found /csvConfig/timeColumn',
    ]);
    expect(await codesOf(fx('csv', 'no-time.csv'), { timeColumn: 'nope' })).toEqual([
      'infer_time_column_unknown /csvConfig/timeColumn/columnNumber',
    ]);
    expect(await codesOf(join(dir, 'badtime.csv'), { timeColumn: 'time' })).toEqual([
      'infer_time_format_unknown /csvConfig/timeColumn/format',
    ]);
    expect(await codesOf(fx('parquet', 'no-time.parquet'))).toEqual([
      'parquet_no_time_column /parquetConfig',
    ]);
  });

  test('a relative time without a start: one error, from inference', async () => {
    expect(await codesOf(fx('csv', 'relative-ms-no-start.csv'))).toEqual([
      'infer_start_time_missing /csvConfig/timeColumn/relativeStartTime',
    ]);
    expect(
      await codesOf(fx('csv', 'relative-ms-no-start.csv'), { relativeStartTime: 'bogus' }),
    ).toEqual(['infer_option_invalid /csvConfig/timeColumn/relativeStartTime']);
    expect(await codesOf(join(dir, 'rel.parquet'))).toEqual([
      'parquet_relative_start_unknown /parquetConfig/flatDataset/timeColumn',
    ]);
    expect(await codesOf(join(dir, 'rel.h5'), { relativeStartTime: 'bogus' })).toEqual([
      'hdf5_relative_start_invalid /hdf5Config/relativeStartTime',
    ]);
    // Inference says nothing here, so validation's message stays.
    expect(await codesOf(join(dir, 'rel.h5'))).toEqual([
      'relative_start_time_missing /hdf5Config/timeFormat',
    ]);
  });

  test('an HDF5 file with nothing to import: one error', async () => {
    expect(await codesOf(fx('hdf5', 'no-channels.h5'))).toEqual([
      'hdf5_no_channels /hdf5Config/data',
    ]);
  });
});
