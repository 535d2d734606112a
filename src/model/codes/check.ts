import type { CodeDoc } from './_types.js';

/** Issue codes of the check stage: does a data file fit its config? */
export const checkCodes = {
  data_format_mismatch: {
    severity: 'error',
    summary:
      'The data file is not of the format the config is for (a csvConfig for a Parquet file, ...).',
    fix: 'Check the file against the right kind of config, or infer one with `importkit infer <file>`.',
  },
  check_kind_not_supported: {
    severity: 'warning',
    summary:
      'importkit cannot check this kind of config against a file yet; only the config itself was checked.',
    fix: 'Check the import on a small sample file first.',
  },
  column_not_in_file: {
    severity: 'error',
    summary: 'A column number or path the config names does not exist in the file.',
    fix: 'Use a column that exists (the message names the nearest one); column numbers count from 1.',
  },
  column_name_mismatch: {
    severity: 'warning',
    summary:
      "The header above a configured column has another name, and the channel's name is the header of a different column: the column numbers are likely shifted.",
    fix: 'Check the column numbers against the header; the message names the column that carries this name.',
  },
  column_not_in_config: {
    severity: 'info',
    summary: 'A column or dataset of the file is not in the config, so it will not be imported.',
    fix: 'Add it to the config if you want it imported; otherwise nothing to do.',
  },
  first_data_row_on_header: {
    severity: 'error',
    summary: '`firstDataRow` points at a header or units row: its text would be read as data.',
    fix: 'Set `firstDataRow` to the first row that holds values (the message says which).',
  },
  first_data_row_skips_data: {
    severity: 'warning',
    summary: 'The row just before `firstDataRow` looks like data: it would not be imported.',
    fix: 'Set `firstDataRow` to that row if it is data (rows count from 1, the header included).',
  },
  first_data_row_past_end: {
    severity: 'error',
    summary:
      '`firstDataRow` is past the last row of a file that has data rows: nothing would be imported. A file with no data rows at all gets `csv_no_data_rows` alone.',
    fix: 'Set `firstDataRow` to the first row that holds values; rows count from 1.',
  },
  time_not_parseable: {
    severity: 'error',
    summary:
      'Time values do not parse in the declared time format (with --full, also NaN or infinite times, and every text time of a Parquet or HDF5 file).',
    fix: 'Declare the format the values are written in (the message suggests one) or fix the values.',
  },
  time_decreasing: {
    severity: 'warning',
    summary: 'The time column goes backwards between rows.',
    fix: 'Sort the file by time, or check that the time column is the right one.',
  },
  time_repeated: {
    severity: 'warning',
    summary:
      'With --full, rows carry the same time as the row before them: the platform keeps one value per channel and time.',
    fix: 'Check whether the rows are duplicates, or whether the time column lacks resolution (its unit or format).',
  },
  time_null: {
    severity: 'error',
    summary:
      'Rows of the time column hold no value (null): those rows cannot be imported. `check --full` counts them; `infer` reads the count in Parquet statistics.',
    fix: 'Fill in or drop the rows without a time.',
  },
  value_not_finite: {
    severity: 'warning',
    summary:
      'With --full, a channel holds NaN or infinite values (counted per kind). In a CSV file these are the DOUBLE and FLOAT cells `nan`, `inf` or `infinity` (any case, signed), which the platform reads as numbers; a CSV check counts them in the rows it reads, sampled or all.',
    fix: 'Check the source of those values; replace them with nulls if they mean "no reading".',
  },
  value_outside_type: {
    severity: 'error',
    summary:
      'With --full, a channel holds values its declared integer type cannot hold (INT_64 data declared INT_32, negatives declared unsigned, fractions declared integer, values other than 0 and 1 declared BOOL).',
    fix: 'Declare a type that holds every value (the hint names one), or fix the values.',
  },
  enum_value_unknown: {
    severity: 'error',
    summary: 'With --full, an ENUM channel holds values that are not among its enumTypes.',
    fix: 'Add the values to enumTypes (the message lists them), or fix the data.',
  },
  time_partly_read: {
    severity: 'warning',
    summary:
      'With --full, the data file could not be read to its end: the rows after the named index were not checked.',
    fix: 'The file may be damaged there; rewrite it, or check the part that reads with the samples the default check takes.',
  },
  time_wrong_unit: {
    severity: 'error',
    summary: 'Unix times read in the declared unit land in 1970 or after 2100: the unit is wrong.',
    fix: 'Use the unit the message names (e.g. TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS).',
  },
  time_out_of_range: {
    severity: 'warning',
    summary:
      'Times fall outside a plausible range (before 1971 or after 2100) and no other unit fits.',
    fix: 'Check that the time column and its format are the right ones.',
  },
  time_looks_absolute: {
    severity: 'warning',
    summary: 'A relative time format is declared, but the values look like unix times.',
    fix: 'Use the absolute unix format the message names, without relativeStartTime.',
  },
  value_type_mismatch: {
    severity: 'error',
    summary:
      'Values in a column do not fit its declared channel type (text in a DOUBLE column, 3.5 in an INT_32 column, ...).',
    fix: 'Declare the type the values need (the message suggests one) or fix the values.',
  },
  type_too_wide: {
    severity: 'warning',
    summary:
      'The declared type is needlessly wide for the values (DOUBLE for a column of small integers).',
    fix: 'Use the narrower type the message names, unless other files of this kind need the wider one.',
  },
  type_too_narrow: {
    severity: 'warning',
    summary:
      'The declared type loses precision for these values (FLOAT for values with more than 7 significant digits).',
    fix: 'Use the wider type the message names (DOUBLE for FLOAT).',
  },
  footer_mismatch: {
    severity: 'error',
    summary: "`footerOffset` or `footerLength` does not match the Parquet file's footer.",
    fix: 'Use the values the message gives (footerOffset = file size - footerLength - 8), or let `importkit infer` write them.',
  },
  layout_mismatch: {
    severity: 'error',
    summary:
      "The config's layout does not fit the file (a name column that is not text, a 1-D dataset given a column index, ...).",
    fix: 'Use the layout the message suggests; `importkit infer <file> --explain` shows the layout it sees.',
  },
  dataset_not_in_file: {
    severity: 'error',
    summary: 'An HDF5 dataset the config names does not exist in the file.',
    fix: 'Use a dataset path that exists (the message names the nearest one); paths start with `/`.',
  },
  member_not_in_dataset: {
    severity: 'error',
    summary:
      'A compound member (`timeField` / `valueField`) the config names is not in the dataset.',
    fix: 'Use a member that exists (the message lists them).',
  },
  index_out_of_range: {
    severity: 'error',
    summary: 'A `timeIndex` / `valueIndex` is past the last column of a 2-D dataset.',
    fix: 'Indexes count from 0; use one below the dataset’s number of columns.',
  },
  dataset_length_mismatch: {
    severity: 'error',
    summary: 'A value dataset and its time dataset have different lengths.',
    fix: 'Pair each value dataset with the time dataset of its own length.',
  },
  num_rows_mismatch: {
    severity: 'warning',
    summary: '`numRows` differs from the number of data rows the file holds.',
    fix: 'Leave `numRows` out (the platform counts the rows) or set it to the count the message gives.',
  },
} as const satisfies Record<string, CodeDoc>;
