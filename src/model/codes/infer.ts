import type { CodeDoc } from './_types.js';

/** Issue codes every inferer shares (time detection, start times, options). */
export const inferCodes = {
  infer_time_column_not_found: {
    severity: 'error',
    summary: 'No column looks like time (by its name or by values that parse as times).',
    fix: 'Pass --time-column (number or name) and --time-format.',
  },
  infer_time_column_unknown: {
    severity: 'error',
    summary: 'The time column given as an option is not in the file.',
    fix: 'Give a 1-based column number or a header name that the file has (`importkit inspect` lists them).',
  },
  infer_time_column_ambiguous: {
    severity: 'warning',
    summary: 'More than one column could be the time column; the best-scored one was chosen.',
    fix: 'Check the choice (--explain lists the candidates) or pass --time-column.',
  },
  infer_time_format_unknown: {
    severity: 'error',
    summary: 'The values of the time column do not parse in any time format the platform reads.',
    fix: 'Pass --time-format, or convert the column to ISO 8601 or unix time.',
  },
  infer_time_format_mismatch: {
    severity: 'warning',
    summary: 'The time format given as an option does not fit the values of the time column.',
    fix: 'Check the option against a few values (`importkit inspect` shows samples).',
  },
  infer_time_formats_mixed: {
    severity: 'warning',
    summary: 'The time column mixes formats (or holds values that are not times).',
    fix: 'Write every time in one format; the draft uses the most common one.',
  },
  infer_time_date_order_ambiguous: {
    severity: 'warning',
    summary:
      'Dates like 03/04/2024 can be read day-first or month-first; nothing in the values tells which.',
    fix: 'Write dates as ISO 8601 (2024-04-03T...), which the platform reads without doubt.',
  },
  infer_time_not_iso: {
    severity: 'error',
    summary:
      'The time column holds dates written day-first or month-first; the platform reads ISO-like dates (year first).',
    fix: 'Convert the column to ISO 8601 (YYYY-MM-DD hh:mm:ss) before importing.',
  },
  infer_time_not_increasing: {
    severity: 'warning',
    summary:
      'The time column goes backwards somewhere: perhaps the wrong column, or rows out of order.',
    fix: 'Check the rows named; sort the file by time or choose another time column.',
  },
  infer_time_zone_assumed_utc: {
    severity: 'info',
    summary: 'The times carry no zone (ABSOLUTE_DATETIME): the platform reads them as UTC.',
    fix: 'If they are local times, convert them to UTC or write them with an offset (RFC 3339).',
  },
  infer_time_unit_guessed: {
    severity: 'warning',
    summary:
      'The unit of a relative time column is neither in its name nor its units: it was guessed from the spacing of the values.',
    fix: 'Pass --time-format (RELATIVE_SECONDS, RELATIVE_MILLISECONDS ...) or name the column with its unit (time_s, t_ms).',
  },
  infer_time_out_of_range: {
    severity: 'warning',
    summary:
      'Numeric times read in the chosen unit fall outside the plausible date range (1990-2100).',
    fix: 'Check the unit (seconds, milliseconds, micro- or nanoseconds) and pass --time-format.',
  },
  infer_start_time_missing: {
    severity: 'error',
    summary:
      'A relative time format needs a start time, and none was given or found in the file name.',
    fix: 'Pass --relative-start 2024-01-01T00:00:00Z (RFC 3339), or put the date and time in the file name.',
  },
  infer_start_time_from_file_name: {
    severity: 'info',
    summary: 'The start time of the relative times was taken from a date in the file name.',
    fix: 'Check it; pass --relative-start to give another.',
  },
  infer_start_time_ignored: {
    severity: 'warning',
    summary: 'A start time was given, but the time format is absolute: it is left out.',
    fix: 'Drop --relative-start, or give a relative --time-format.',
  },
  infer_option_invalid: {
    severity: 'error',
    summary:
      'An option value is not one importkit understands (time format, delimiter, start time).',
    fix: 'See `importkit infer --help` for the accepted values.',
  },
} as const satisfies Record<string, CodeDoc>;
