/**
 * infer reads the values of what its draft imports (HDF5 and TDMS), so that `check` and
 * `check --full` on the draft find no value it did not report: the same findings, with the
 * same codes, severities, places and messages.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkConfig } from '../../src/check/index.js';
import { type Hdf5Dataset, inspectHdf5 } from '../../src/formats/hdf5/inspect.js';
import { hdf5ValueIssues, type ReadGroup } from '../../src/formats/hdf5/values.js';
import { inferConfig } from '../../src/infer/index.js';
import type { Issue } from '../../src/model/plain.js';
import { repoRoot } from '../helpers/paths.js';

/** The codes of value findings, and of chunks whose values could not be read. */
const VALUE_CODES = new Set([
  'time_not_parseable',
  'time_decreasing',
  'time_repeated',
  'time_null',
  'value_not_finite',
  'value_outside_type',
  'enum_value_unknown',
  'time_partly_read',
  'tdms_raw_data_invalid',
  'tdms_values_not_read',
]);

const fixture = (name: string) => join(repoRoot, 'fixtures', name);
const brief = (i: Issue) => ({
  code: i.code,
  severity: i.severity,
  path: i.path,
  message: i.message,
  source: i.source,
});

/** What infer reported of the findings `check --full` makes on its draft. */
async function inferAndCheck(path: string) {
  const draft = await inferConfig(path);
  const full = await checkConfig(draft.document, path, { full: true });
  const said = (i: Issue) =>
    draft.issues.some((d) => d.code === i.code && d.path === i.path && d.message === i.message);
  return { draft, full: full.filter((i) => VALUE_CODES.has(i.code)), said };
}

/** A finding as infer and check both give it: its code, severity, place and message. */
const finding = (
  code: string,
  severity: string,
  path: string,
  message: string,
  source: Issue['source'],
) => ({ code, severity, path, message, source });

describe('infer reports the value findings of HDF5 files', () => {
  test("every-finding.h5: /grid's NaN time and /flag's bool byte of 2, with their rows", async () => {
    const path = fixture('check-hdf5/every-finding.h5');
    const { draft, full, said } = await inferAndCheck(path);
    const errors = draft.issues.filter((i) => VALUE_CODES.has(i.code) && i.severity === 'error');
    expect(errors.map(brief)).toEqual([
      finding(
        'value_outside_type',
        'error',
        '/hdf5Config/data/1/channelConfig/dataType',
        "dataset '/flag' holds 1 value outside BOOL (0 to 1), from 2 to 2; first at index 14",
        { file: path, dataset: '/flag', row: 14 },
      ),
      finding(
        'time_not_parseable',
        'error',
        '/hdf5Config/data/2/timeDataset',
        "the time of '/grid' is NaN or infinite in 1 row; first at index 6",
        { file: path, dataset: '/grid', row: 6 },
      ),
    ]);
    expect(full.length).toBeGreaterThan(2);
    expect(full.filter((i) => !said(i))).toEqual([]);
  });

  test("float-time.h5: /t's NaN time", async () => {
    const path = fixture('check-hdf5/float-time.h5');
    const { draft, full, said } = await inferAndCheck(path);
    expect(draft.issues.filter((i) => i.code === 'time_not_parseable').map(brief)).toEqual([
      finding(
        'time_not_parseable',
        'error',
        '/hdf5Config/data/0/timeDataset',
        "the time of '/t' is NaN or infinite in 1 row; first at index 8",
        { file: path, dataset: '/t', row: 8 },
      ),
    ]);
    expect(full.filter((i) => !said(i))).toEqual([]);
  });
});

describe('infer reports the value findings of TDMS files', () => {
  test("every-finding.tdms: /Log/flag's bool byte of 2, with its row and segment", async () => {
    const path = fixture('check-tdms/every-finding.tdms');
    const { draft, full, said } = await inferAndCheck(path);
    const errors = draft.issues.filter((i) => VALUE_CODES.has(i.code) && i.severity === 'error');
    expect(errors.map(brief)).toEqual([
      finding(
        'value_outside_type',
        'error',
        '/tdmsConfig/data/4/channelConfig/dataType',
        "channel 'Log/flag' holds 1 value outside BOOL (0 to 1), from 2 to 2; first at row 30 (segment 2)",
        { file: path, dataset: "/'Log'/'flag'", row: 30 },
      ),
    ]);
    expect(full.length).toBeGreaterThan(1);
    expect(full.filter((i) => !said(i))).toEqual([]);
  });

  test('bad-strings.tdms: the string chunk whose end offsets lie', async () => {
    const path = fixture('check-tdms/bad-strings.tdms');
    const { draft, full, said } = await inferAndCheck(path);
    expect(draft.issues.filter((i) => VALUE_CODES.has(i.code)).map(brief)).toEqual([
      finding(
        'tdms_raw_data_invalid',
        'error',
        '/tdmsConfig/data/0/channelConfig',
        "channel 'S/label', segment 2: string 2 of a chunk ends at byte 4294967280 of the chunk's 8 bytes of text; the values of that chunk were not read",
        { file: path, dataset: "/'S'/'label'" },
      ),
    ]);
    expect(full.filter((i) => !said(i))).toEqual([]);
  });

  test('a clean file: no value finding', async () => {
    const { draft, full } = await inferAndCheck(fixture('check-tdms/clean.tdms'));
    expect(draft.issues.filter((i) => VALUE_CODES.has(i.code))).toEqual([]);
    expect(full).toEqual([]);
  });
});

describe('a large file is read at its ends, as the sampled check reads it', () => {
  test('/t of float-time.h5 (20 rows) read 9 rows from each end: no order across the gap', async () => {
    const path = fixture('check-hdf5/float-time.h5');
    const profile = await inspectHdf5(path);
    const t = profile.datasets.find((d) => d.path === '/t') as Hdf5Dataset;
    const groups: ReadGroup[] = [
      { time: { dataset: t, column: undefined, ptr: '/t' }, channels: [] },
    ];
    const at = (row: number) => ({ file: path, dataset: '/t', row });
    // Rows 0-8 and 11-19: the NaN at 8 and the step back at 13 are read, the repeat at 10 not.
    expect((await hdf5ValueIssues(path, groups, { sample: 9 })).map(brief)).toEqual([
      finding(
        'time_not_parseable',
        'error',
        '/t',
        "the time of '/t' (in the values read) is NaN or infinite in 1 row; first at index 8",
        at(8),
      ),
      finding(
        'time_decreasing',
        'warning',
        '/t',
        "the time of '/t' (in the values read) goes backwards 1 time; first at index 13",
        at(13),
      ),
    ]);
    // Rows 0-6 and 13-19: row 13 is first after the gap, compared with nothing.
    expect(await hdf5ValueIssues(path, groups, { sample: 7 })).toEqual([]);
    // 10 from each end is every row: the findings of reading them all, without "(in the values read)".
    const whole = await hdf5ValueIssues(path, groups);
    expect(await hdf5ValueIssues(path, groups, { sample: 10 })).toEqual(whole);
    expect(whole.map((i) => i.code)).toEqual([
      'time_not_parseable',
      'time_decreasing',
      'time_repeated',
    ]);
  });
});
