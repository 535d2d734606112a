/**
 * `check --full` on Parquet reads the values: the value findings of each fixture
 * (fixtures/check-parquet, written by `npm run fixtures -- check-parquet` with the findings
 * the generator put in the file) are compared whole, and the default check (footer only)
 * reports none of them.
 */
import { describe } from 'vitest';
import { valueFindingTests } from '../helpers/value-findings.js';

const VALUE_CODES = new Set([
  'time_null',
  'time_decreasing',
  'time_repeated',
  'value_not_finite',
  'value_outside_type',
  'enum_value_unknown',
]);

describe('Parquet check --full: value findings', () => {
  valueFindingTests('check-parquet', '.parquet', VALUE_CODES);
});
