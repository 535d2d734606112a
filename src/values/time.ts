/**
 * The time rules every format's check shares: the window of dates a unix time must land in
 * to be believed (1971-2100: wider than inference's guess of 1990-2100, so data from the
 * 1970s and 80s is not called a wrong unit), and the one judgement of a declared unix unit
 * (`time_wrong_unit` when another unit lands in the window, `time_out_of_range` when none
 * does). Going backwards and repeats are the time tally's (tally.ts).
 */
import type { Issue, IssueSource, TimeFormat } from '../model/index.js';
import {
  fitsUnixFormat,
  issue,
  isUnixFormat,
  MS_PER_UNIT,
  unixUnitThatFits,
} from '../model/plain.js';
import { shortName } from './tally.js';

export const PLAUSIBLE = { minYear: 1971, maxYear: 2100 } as const;
/** The window in words, as messages give it. */
export const PLAUSIBLE_WORDS = `${PLAUSIBLE.minYear}-${PLAUSIBLE.maxYear}`;
export const MIN_PLAUSIBLE_MS = Date.UTC(PLAUSIBLE.minYear, 0, 1);
export const MAX_PLAUSIBLE_MS = Date.UTC(PLAUSIBLE.maxYear + 1, 0, 1);

/** True when the values, read in the declared unix format, land in the plausible window. */
export function plausibleUnix(
  values: ReadonlyArray<string | number | bigint>,
  format: TimeFormat,
): boolean {
  return fitsUnixFormat(values, format, PLAUSIBLE);
}

/** The unix unit to suggest for values that land outside the window: inference's first. */
export function unitThatFits(values: ReadonlyArray<string | number | bigint>) {
  return unixUnitThatFits(values) ?? unixUnitThatFits(values, PLAUSIBLE);
}

/** What a unit judgement says of the times it read, and where its issue goes. */
export interface UnitJudged {
  /** The times' owner in words: `'/t'`, a column path. */
  of: string;
  /** What was read of them, in parentheses after it: `1700000000 ...`, `statistics 1 to 9`. */
  read: string;
  /** The config field that holds the format, for the hint: `timeFormat`, `format`. */
  field: string;
  ptr: string;
  source: IssueSource;
}

/**
 * `time_wrong_unit` or `time_out_of_range` when `values` (the times read, or their extremes)
 * land outside the window in the declared unix `format`; nothing when they land inside.
 */
export function unixUnitIssue(
  values: ReadonlyArray<string | number | bigint>,
  format: TimeFormat,
  at: UnitJudged,
): Issue | undefined {
  if (plausibleUnix(values, format)) return undefined;
  const fits = unitThatFits(values);
  const read = `read as ${shortName(format)}, the times of ${at.of}`;
  return fits && fits !== format
    ? issue(
        'time_wrong_unit',
        at.ptr,
        `${read} (${at.read}) land outside ${PLAUSIBLE_WORDS}; as ${shortName(fits)} they are plausible`,
        { hint: `Use ${at.field}: ${fits}.`, source: at.source },
      )
    : issue(
        'time_out_of_range',
        at.ptr,
        `${read} (${at.read}) land outside ${PLAUSIBLE_WORDS}, and no unix unit fits`,
        { source: at.source },
      );
}

/**
 * One time value as an ISO timestamp, read in a config's time format (RFC 3339 or a date
 * and time; a unix unit; a relative unit from `relativeStart`); undefined when it cannot
 * say (no format, not a number, outside what a Date holds).
 */
export function timeValueToIso(
  value: unknown,
  format: string | undefined,
  relativeStart?: string,
): string | undefined {
  if (value === undefined || value === null || !format) return undefined;
  const text = String(value).trim();
  let ms: number | undefined;
  if (format === 'TIME_FORMAT_ABSOLUTE_RFC3339' || format === 'TIME_FORMAT_ABSOLUTE_DATETIME') {
    const t = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text.replace(' ', 'T')}Z`);
    ms = Number.isNaN(t) ? undefined : t;
  } else {
    const per = MS_PER_UNIT[format as TimeFormat];
    const n = Number(text);
    if (per !== undefined && isUnixFormat(format as TimeFormat))
      ms = Number.isFinite(n) ? n * per : undefined;
    else if (per !== undefined && relativeStart) {
      const base = Date.parse(relativeStart);
      ms = Number.isFinite(n) && !Number.isNaN(base) ? base + n * per : undefined;
    }
  }
  if (ms === undefined || !Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return undefined;
  return new Date(ms).toISOString();
}

/** The first and last time of a field whose statistics hold its least and greatest value. */
export function statsTimeRange(
  stats: { min?: unknown; max?: unknown } | undefined,
  format: string | undefined,
  relativeStart?: string,
): { start?: string; stop?: string } {
  const start = timeValueToIso(stats?.min, format, relativeStart);
  const stop = timeValueToIso(stats?.max, format, relativeStart);
  return { ...(start ? { start } : {}), ...(stop ? { stop } : {}) };
}

/** True when `zone` is an IANA zone this runtime knows (`Europe/Berlin`, `UTC`). */
export function isKnownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
