import type { CodeDoc } from './_types.js';

/** Issue codes of parquet: reading the footer (inspect) and drafting a ParquetConfig (infer). */
export const parquetCodes = {
  parquet_not_parquet: {
    severity: 'error',
    summary:
      'The file has the `PAR1` magic neither at its start nor at its end: it is not Parquet.',
    fix: 'Check that this is the Parquet file you meant (a CSV or Arrow IPC file renamed .parquet is not Parquet).',
  },
  parquet_truncated: {
    severity: 'error',
    summary:
      'The file starts like Parquet but does not end with a footer and `PAR1`: it was cut short (an interrupted copy or a writer that did not finish).',
    fix: 'Copy or write the file again; a writer must be closed for the footer to be written.',
  },
  parquet_bad_magic: {
    severity: 'error',
    summary: 'One of the two `PAR1` magic markers (at the start or at the end) is damaged.',
    fix: 'The file is corrupt: write or copy it again.',
  },
  parquet_encrypted_footer: {
    severity: 'error',
    summary:
      'The file ends with `PARE`: its footer is encrypted and cannot be read without the key.',
    fix: 'Write the file without footer encryption for import.',
  },
  parquet_footer_length_invalid: {
    severity: 'error',
    summary:
      'The footer length stored before the final `PAR1` is zero or points before the start of the file.',
    fix: 'The file is corrupt or truncated: write or copy it again.',
  },
  parquet_footer_corrupt: {
    severity: 'error',
    summary: 'The footer (the file metadata) cannot be decoded.',
    fix: 'The file is corrupt: write or copy it again, or open it with the tool that wrote it to check.',
  },
  parquet_too_many_columns: {
    severity: 'error',
    summary:
      'The schema has more leaf columns than importkit inspects (10,000): a file that wide is refused rather than read into memory column by column.',
    fix: 'Write the data with fewer columns (one channel per column, or a single-channel-per-row layout), or split it into several files.',
  },
  parquet_page_unread: {
    severity: 'info',
    summary:
      'A column’s first page could not be read cheaply (too large, compressed with a codec importkit does not decode, or damaged), so its values were not sampled.',
    fix: 'Nothing to fix in the file; give the choice that needed the values as an option (`--time-column`, `--time-format`, `--layout`).',
  },
  parquet_decimal_as_double: {
    severity: 'warning',
    summary:
      'A DECIMAL column is imported as DOUBLE: values with more than 15-16 significant digits lose precision.',
    fix: 'Accept the DOUBLE channel, or store the value as a string or a scaled integer if every digit matters.',
  },
  parquet_temporal_as_int64: {
    severity: 'info',
    summary:
      'A DATE, TIME, TIMESTAMP or INT96 column that is not the time column is imported as an INT_64 channel of its raw stored value.',
    fix: 'Nothing to do if that is what you want; otherwise choose it as the time column with `--time-column`.',
  },
  parquet_complex_columns: {
    severity: 'info',
    summary:
      'The file has nested columns (struct, list or map); they are imported according to `complexTypesImportMode`, not as plain data columns.',
    fix: 'Choose IGNORE, STRING (JSON text), BYTES (Arrow bytes) or BOTH with `--complex-types`.',
  },
  parquet_no_time_column: {
    severity: 'error',
    summary:
      'No column looks like time: no TIMESTAMP column, no time-named integer column and no column of date-time text.',
    fix: 'Name the time column with `--time-column` (and its format with `--time-format`).',
  },
  parquet_time_unit_guessed: {
    severity: 'warning',
    summary:
      'The time column is an integer or float without a logical type and without statistics to judge its unit by, so its unit is a guess.',
    fix: 'Check the unit and give it with `--time-format` if the guess is wrong.',
  },
  parquet_time_not_utc: {
    severity: 'info',
    summary:
      'The TIMESTAMP time column is not adjusted to UTC (a local or wall-clock time without zone); the platform reads its values as UTC.',
    fix: 'Nothing to do if the times were recorded in UTC; otherwise shift them to UTC before import.',
  },
  parquet_time_int96: {
    severity: 'warning',
    summary:
      'The time column is a legacy INT96 timestamp (Impala, Hive, older Spark): deprecated in Parquet, and read by the platform (through Arrow) as unix nanoseconds, as importkit reads it.',
    fix: 'Rewrite the file with INT64 timestamps (Spark: `spark.sql.parquet.outputTimestampType=TIMESTAMP_MICROS`).',
  },
  parquet_time_out_of_range: {
    severity: 'warning',
    summary:
      'The time column’s statistics fit no unix unit within 1990-2100, so the values were read as relative time.',
    fix: 'Give the format with `--time-format` and, for a relative format, the start with `--relative-start`.',
  },
  parquet_relative_start_unknown: {
    severity: 'error',
    summary:
      'The time column holds relative time but no start time was given or found in the file name.',
    fix: 'Give the start with `--relative-start 2024-01-01T00:00:00Z`.',
  },
  parquet_option_invalid: {
    severity: 'error',
    summary:
      'An option does not fit the file: a time column not in the file, a layout the columns cannot make, or an unknown value.',
    fix: 'Check the option against `importkit inspect <file>`, which lists the columns.',
  },
  parquet_no_data_columns: {
    severity: 'warning',
    summary: 'Besides the time column the file has no column that can be a channel.',
    fix: 'Check that this is the file you meant.',
  },
  parquet_embedded_config: {
    severity: 'info',
    summary:
      'Arrow field metadata in the file carries the platform’s channel configs, so `useEmbeddedConfig` is set and the listed data columns are only a preview.',
    fix: 'Set `useEmbeddedConfig` to false to use the data columns written in the config instead.',
  },
} as const satisfies Record<string, CodeDoc>;
