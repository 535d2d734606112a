import { expect, test } from 'vitest';
import {
  sampledTimeOrderIssue,
  storedUnitIssue,
  timeKindIssue,
  timeScaleIssue,
} from '../../src/values/index.js';

// The shared time rules the Parquet and HDF5 checks call, each issue compared whole: the
// messages and hints are those the checks gave when each held its own copy of the rules.

const h5 = {
  subject: "the time of '/t'",
  of: "'/t'",
  field: 'timeFormat',
  ptr: '/hdf5Config/timeFormat',
  source: { file: 'a.h5', dataset: '/t' },
};
const pq = {
  subject: "the time column 'ts'",
  of: "'ts'",
  field: 'format',
  ptr: '/parquetConfig/flatDataset/timeColumn/format',
  source: { file: 'a.parquet', column: 'ts' },
};

test('a format reads numbers or text: time_not_parseable otherwise, hinted when asked', () => {
  expect(
    timeKindIssue('TIME_FORMAT_ABSOLUTE_UNIX_SECONDS', 'other', {
      ...h5,
      stores: 'holds string values',
    }),
  ).toEqual({
    code: 'time_not_parseable',
    severity: 'error',
    path: '/hdf5Config/timeFormat',
    message: "the time of '/t' holds string values, which ABSOLUTE_UNIX_SECONDS does not read",
    source: { file: 'a.h5', dataset: '/t' },
  });
  expect(
    timeKindIssue('TIME_FORMAT_ABSOLUTE_RFC3339', 'number', {
      ...pq,
      stores: 'stores INT64',
      hinted: true,
    }),
  ).toEqual({
    code: 'time_not_parseable',
    severity: 'error',
    path: pq.ptr,
    message: "the time column 'ts' stores INT64, which ABSOLUTE_RFC3339 does not read",
    hint: 'Use the unix format of the values’ unit.',
    source: pq.source,
  });
  expect(
    timeKindIssue('TIME_FORMAT_RELATIVE_SECONDS', 'text', { ...pq, stores: 'stores BYTE_ARRAY' })
      ?.message,
  ).toBe("the time column 'ts' stores BYTE_ARRAY, which RELATIVE_SECONDS does not read");
  expect(timeKindIssue('TIME_FORMAT_ABSOLUTE_DATETIME', 'text', { ...pq, stores: '' })).toBe(
    undefined,
  );
  expect(timeKindIssue('TIME_FORMAT_RELATIVE_HOURS', 'number', { ...pq, stores: '' })).toBe(
    undefined,
  );
});

test('a stored unit: time_wrong_unit for another unix unit, time_not_parseable for a non-unix format', () => {
  const stored = {
    format: 'TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS' as const,
    what: 'a TIMESTAMP in MILLIS',
  };
  expect(storedUnitIssue('TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS', stored, pq)).toBe(undefined);
  expect(storedUnitIssue('TIME_FORMAT_ABSOLUTE_UNIX_SECONDS', stored, pq)).toEqual({
    code: 'time_wrong_unit',
    severity: 'error',
    path: pq.ptr,
    message:
      "the time column 'ts' is a TIMESTAMP in MILLIS, but the format is ABSOLUTE_UNIX_SECONDS",
    hint: 'Use format: TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS.',
    source: pq.source,
  });
  expect(storedUnitIssue('TIME_FORMAT_ABSOLUTE_RFC3339', stored, pq)).toEqual({
    code: 'time_not_parseable',
    severity: 'error',
    path: pq.ptr,
    message: "the time column 'ts' is a TIMESTAMP in MILLIS, which ABSOLUTE_RFC3339 does not read",
    hint: 'Use format: TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS.',
    source: pq.source,
  });
});

test('times read in a sample: the first step backwards is time_decreasing', () => {
  expect(sampledTimeOrderIssue(['1', '2', '3'], h5)).toBe(undefined);
  expect(sampledTimeOrderIssue(['1', '3', '2', '1'], h5)).toEqual({
    code: 'time_decreasing',
    severity: 'warning',
    path: '/hdf5Config/timeFormat',
    message: "the time of '/t' goes backwards (3 then 2, in its first and last rows)",
    source: h5.source,
  });
});

test('the scale: a unix unit judged by the window, relative times that look absolute', () => {
  const read = { ...h5, read: '1700000000000 ...' };
  const ms = ['1700000000000', '1700000001000'];
  expect(timeScaleIssue(ms, 'TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS', read)).toBe(undefined);
  expect(timeScaleIssue(ms, 'TIME_FORMAT_ABSOLUTE_UNIX_SECONDS', read)).toEqual({
    code: 'time_wrong_unit',
    severity: 'error',
    path: '/hdf5Config/timeFormat',
    message:
      "read as ABSOLUTE_UNIX_SECONDS, the times of '/t' (1700000000000 ...) land in the year 55840, outside 1971-2100; as ABSOLUTE_UNIX_MILLISECONDS they fall between 2023-11-14 and 2023-11-14",
    hint: 'Use timeFormat: TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS.',
    source: h5.source,
  });
  expect(timeScaleIssue(ms, 'TIME_FORMAT_RELATIVE_MILLISECONDS', read)).toEqual({
    code: 'time_looks_absolute',
    severity: 'warning',
    path: '/hdf5Config/timeFormat',
    message:
      "the times of '/t' (1700000000000 ...) look like ABSOLUTE_UNIX_MILLISECONDS, not RELATIVE_MILLISECONDS",
    hint: 'Use timeFormat: TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS and leave out relativeStartTime.',
    source: h5.source,
  });
  // Small relative times, and a first value that is no number, are left alone.
  expect(timeScaleIssue(['0', '5'], 'TIME_FORMAT_RELATIVE_SECONDS', read)).toBe(undefined);
  expect(timeScaleIssue(['x', ...ms], 'TIME_FORMAT_RELATIVE_MILLISECONDS', read)).toBe(undefined);
  expect(timeScaleIssue(ms, 'TIME_FORMAT_ABSOLUTE_RFC3339', read)).toBe(undefined);
});
