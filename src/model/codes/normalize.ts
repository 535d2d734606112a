import type { CodeDoc } from './_types.js';

/** Issues `importkit normalize` reports about the copy it writes. */
export const normalizeCodes = {
  normalize_date_order_unknown: {
    severity: 'error',
    summary:
      'A column holds dates that read day-first or month-first, and no value decides which (no day above 12, no dots): it was left as written.',
    fix: 'Give the order: `--date-order dmy` (10/03/2024 is 10 March) or `--date-order mdy` (10/03/2024 is 3 October).',
  },
  normalize_date_order_contradicted: {
    severity: 'error',
    summary:
      'A time column holds dates whose own numbers read in the other order than `--date-order` gives (04/29/2024 under dmy: 29 is no month): those dates were kept as written.',
    fix: 'Give the other order, or leave `--date-order` out: a value with a number above 12 decides it.',
  },
  normalize_column_kept: {
    severity: 'warning',
    summary:
      'A column was left as written although a quarter to a half of its values read are times the platform cannot read and normalize rewrites (12-hour with AM/PM, with a zone name, day-first or month-first); normalize rewrites a column when more than half are.',
    fix: 'If it is a time column, fix its other rows (`importkit inspect` shows its shapes) and normalize again; a text column holding some times needs nothing.',
  },
  normalize_time_repeated_hour: {
    severity: 'warning',
    summary:
      'Local times fall in the hour the time zone repeats when summer time ends: each names two instants. They were read in row order, as summer time until the clock goes back, then as standard time.',
    fix: 'Check the rows named; a logger that writes UTC or the offset with each time removes the doubt.',
  },
} as const satisfies Record<string, CodeDoc>;
