/**
 * `check --full` on HDF5 reads the values: the value findings of each fixture
 * (fixtures/check-hdf5, written by `npm run fixtures -- check-hdf5` with the findings the
 * generator put in the file) are compared whole, and the default check (first and last
 * rows only) reports none of them.
 */
import { describe, expect, test } from 'vitest';
import { checkConfig } from '../../src/check/index.js';
import { valueFindingTests } from '../helpers/value-findings.js';

const VALUE_CODES = new Set([
  'time_decreasing',
  'time_repeated',
  'time_not_parseable',
  'time_partly_read',
  'value_not_finite',
  'value_outside_type',
  'enum_value_unknown',
]);

describe('HDF5 check --full: value findings', () => {
  const fixtures = valueFindingTests('check-hdf5', '.h5', VALUE_CODES);
  test('clean: the whole full check finds nothing', async () => {
    expect(
      await checkConfig(fixtures.load('clean').document, fixtures.file('clean'), { full: true }),
    ).toEqual([]);
  });
});
