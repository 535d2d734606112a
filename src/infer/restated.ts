/**
 * One fact, one message: a draft's validation sometimes restates what inference already
 * said in its own words (no time column found → "the config has no timeColumn"). The
 * inference issue is kept: its hint names the option to pass or what was found in the file,
 * and its severity is at least the restatement's. The table says, per inference code, which
 * validation codes restate it.
 */
import type { Issue, IssueCode } from '../model/plain.js';

/** Inference code → the validation codes that restate it. Codes not listed absorb nothing. */
export const RESTATED_BY: Readonly<Partial<Record<IssueCode, readonly IssueCode[]>>> = {
  infer_time_column_not_found: ['time_column_missing'],
  infer_time_column_unknown: ['time_column_missing'],
  infer_time_format_unknown: ['time_format_missing'],
  infer_start_time_missing: ['relative_start_time_missing'],
  infer_option_invalid: ['relative_start_time_missing'],
  parquet_no_time_column: ['time_column_missing'],
  // A time column the platform cannot read is left out of the draft: the validator's
  // "no time column" is the same fact.
  csv_time_split_columns: ['time_column_missing'],
  csv_time_zone_name: ['time_column_missing'],
  csv_time_ampm: ['time_column_missing'],
  parquet_relative_start_unknown: ['relative_start_time_missing'],
  hdf5_no_channels: ['time_format_missing'],
  hdf5_relative_start_invalid: ['relative_start_time_missing'],
  // A folder or archive with no data file drafts an empty fileConfigs.
  batch_no_data_files: ['batch_empty'],
};

function parentOf(pointer: string): string {
  return pointer.slice(0, Math.max(0, pointer.lastIndexOf('/')));
}

function within(inner: string, outer: string): boolean {
  return inner === outer || inner.startsWith(`${outer}/`);
}

/**
 * Two pointers name the same place for a restatement: one holds the other, or they are
 * siblings below a config key. An issue at the document root is about the whole file and
 * restates nothing.
 */
export function samePlace(a: string, b: string): boolean {
  if (a === '' || b === '') return false;
  const parent = parentOf(a);
  return within(a, b) || within(b, a) || (parent !== '' && parent === parentOf(b));
}

/** Whether validation issue `v` restates inference issue `i`. */
export function restates(v: Issue, i: Issue): boolean {
  const codes = RESTATED_BY[i.code as IssueCode];
  return (codes?.includes(v.code as IssueCode) ?? false) && samePlace(v.path, i.path);
}

/** The validation issues that say something inference has not already said. */
export function newFacts(inferred: readonly Issue[], validation: readonly Issue[]): Issue[] {
  const seen = new Set(inferred.map((i) => `${i.code} ${i.path}`));
  return validation.filter(
    (v) => !seen.has(`${v.code} ${v.path}`) && !inferred.some((i) => restates(v, i)),
  );
}
