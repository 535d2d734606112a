/**
 * The time rules every format's check shares: the window of dates a unix time must land in
 * to be believed (1971-2100: wider than inference's guess of 1990-2100, so data from the
 * 1970s and 80s is not called a wrong unit), the one judgement of a declared unix unit
 * (`time_wrong_unit` when another unit lands in the window, `time_out_of_range` when none
 * does), of a relative format whose times look absolute (`time_looks_absolute`), of a
 * format that cannot read the stored times (`time_not_parseable`, `time_wrong_unit` for a
 * stored unit) and of times read in a sample going backwards (`time_decreasing`). A
 * format's check gathers its times and calls these. Going backwards and repeats over every
 * value read are the time tally's (tally-time.ts).
 */
import type { Issue, IssueSource, TimeFormat } from '../model/index.js';
import {
  fitsUnixFormat,
  issue,
  isUnixFormat,
  MS_PER_UNIT,
  maxOf,
  minOf,
  unixUnitThatFits,
} from '../model/plain.js';
import { shortName } from './tally.js';
import { textTimesOf } from './text-times.js';

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

/** How a time judgement's messages name the times, and where its issue goes. */
export interface TimeJudged {
  /** The times as a message's subject: `the time column 'ts'`, `the time of '/t'`. */
  subject: string;
  /** The times' owner in words, after "the times of": `'/t'`, `'ts'`. */
  of: string;
  /** The config field that holds the format, for the hint: `timeFormat`, `format`. */
  field: string;
  ptr: string;
  source: IssueSource;
}

/** A judgement of times read: what was read of them, in parentheses after their owner. */
export interface TimesRead extends TimeJudged {
  /** `1700000000 ...`, `statistics 1 to 9`. */
  read: string;
}

/**
 * `time_wrong_unit` or `time_out_of_range` when `values` (the times read, or their extremes)
 * land outside the window in the declared unix `format`; nothing when they land inside. The
 * message says where they land, and for a unit that fits, the dates they then span.
 */
export function unixUnitIssue(
  values: ReadonlyArray<string | number | bigint>,
  format: TimeFormat,
  at: TimesRead,
): Issue | undefined {
  if (plausibleUnix(values, format)) return undefined;
  const fits = unitThatFits(values);
  const numbers = values.map(Number);
  const lo = minOf(numbers);
  const hi = maxOf(numbers);
  const msOf = (n: number, f: TimeFormat) => n * (MS_PER_UNIT[f] ?? 1);
  const landed = describeDate(
    msOf(lo, format) < MIN_PLAUSIBLE_MS ? msOf(lo, format) : msOf(hi, format),
  );
  const read = `read as ${shortName(format)}, the times of ${at.of} (${at.read}) land in ${landed}`;
  return fits && fits !== format
    ? issue(
        'time_wrong_unit',
        at.ptr,
        `${read}, outside ${PLAUSIBLE_WORDS}; as ${shortName(fits)} they fall between ${describeDate(msOf(lo, fits))} and ${describeDate(msOf(hi, fits))}`,
        { hint: `Use ${at.field}: ${fits}.`, source: at.source },
      )
    : issue(
        'time_out_of_range',
        at.ptr,
        `${read}, outside ${PLAUSIBLE_WORDS}, and no unix unit fits`,
        { source: at.source },
      );
}

/**
 * `time_out_of_range` when absolute times (RFC 3339, a date and time) read as `minMs` to
 * `maxMs` fall outside the window; nothing when they fall inside.
 */
export function absoluteRangeIssue(minMs: number, maxMs: number, at: TimesRead): Issue | undefined {
  if (minMs >= MIN_PLAUSIBLE_MS && maxMs < MAX_PLAUSIBLE_MS) return undefined;
  return issue(
    'time_out_of_range',
    at.ptr,
    `the times of ${at.of} fall between ${describeDate(minMs)} and ${describeDate(maxMs)}: outside ${PLAUSIBLE_WORDS}`,
    { source: at.source },
  );
}

/**
 * `time_out_of_range` when text times (the times read, or their extremes: a Parquet
 * column's statistics) that are times in `format` (RFC 3339 with a zone, a date-time
 * without) land outside the window, as a CSV check judges its text times. Others are
 * left out: they are judged elsewhere, or are statistics cut short (a writer may keep only
 * the first bytes of the least and greatest text).
 */
export function textTimeRangeIssue(
  texts: ReadonlyArray<string | number>,
  format: TimeFormat,
  at: TimesRead,
): Issue | undefined {
  // Read as a time column's text is read (text-times.ts): those that are no time are NaN.
  const read = textTimesOf(format)?.({ length: texts.length, text: (i) => String(texts[i]) }, {});
  const times = Array.from(read?.numbers ?? [], Number).filter(Number.isFinite);
  if (times.length === 0) return undefined;
  return absoluteRangeIssue(minOf(times), maxOf(times), at);
}

/** A date in words: `2024-05-01`, `the year 56302`, or past what a Date holds. */
export function describeDate(ms: number): string {
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15)
    return ms > 0 ? 'a year past 275000' : 'a year before -271000';
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  return y < 0 || y > 9999 ? `the year ${y}` : d.toISOString().slice(0, 10);
}

/** True for the formats that read text (RFC 3339, a date and time); the others read numbers. */
export function readsText(format: TimeFormat): boolean {
  return format === 'TIME_FORMAT_ABSOLUTE_RFC3339' || format === 'TIME_FORMAT_ABSOLUTE_DATETIME';
}

/** True for the unix and relative formats: those that read a number of units. */
export function readsUnits(format: TimeFormat): boolean {
  return isUnixFormat(format) || format.startsWith('TIME_FORMAT_RELATIVE_');
}

/** What stored times are, to a time format: numbers, text, or neither (bytes, a BOOLEAN). */
export type TimeKind = 'number' | 'text' | 'other';

/**
 * `time_not_parseable` when the format cannot read what the times are (`kind`): a text
 * format needs text, any other format numbers. `stores` says what they are after the
 * subject (`stores INT64`, `holds float values`); with `hinted`, the hint names the formats
 * that read them.
 */
export function timeKindIssue(
  format: TimeFormat,
  kind: TimeKind,
  at: TimeJudged & { stores: string; hinted?: boolean },
): Issue | undefined {
  const text = readsText(format);
  if (text ? kind === 'text' : kind === 'number') return undefined;
  const hint = text
    ? 'Use the unix format of the values’ unit.'
    : 'Use TIME_FORMAT_ABSOLUTE_RFC3339 or ABSOLUTE_DATETIME for text times.';
  return issue(
    'time_not_parseable',
    at.ptr,
    `${at.subject} ${at.stores}, which ${shortName(format)} does not read`,
    at.hinted ? { hint, source: at.source } : { source: at.source },
  );
}

/**
 * Times whose stored type gives their unit (a timestamp type): `time_wrong_unit` when a
 * unix format of another unit is declared, `time_not_parseable` when a format that is not
 * unix is; nothing when the declared format is `stored.format`.
 */
export function storedUnitIssue(
  format: TimeFormat,
  stored: { format: TimeFormat; what: string },
  at: TimeJudged,
): Issue | undefined {
  if (format === stored.format) return undefined;
  const unix = isUnixFormat(format);
  const fmt = shortName(format);
  return issue(
    unix ? 'time_wrong_unit' : 'time_not_parseable',
    at.ptr,
    unix
      ? `${at.subject} is ${stored.what}, but the format is ${fmt}`
      : `${at.subject} is ${stored.what}, which ${fmt} does not read`,
    { hint: `Use ${at.field}: ${stored.format}.`, source: at.source },
  );
}

/**
 * `time_decreasing` at the first of the times read (a file's first and last rows, in
 * order) that is smaller than the one before it; nothing when none is.
 */
export function sampledTimeOrderIssue(
  values: readonly string[],
  at: TimeJudged,
): Issue | undefined {
  const nums = values.map(Number);
  for (let i = 1; i < nums.length; i++) {
    if ((nums[i] as number) < (nums[i - 1] as number)) {
      return issue(
        'time_decreasing',
        at.ptr,
        `${at.subject} goes backwards (${values[i - 1]} then ${values[i]}, in its first and last rows)`,
        { source: at.source },
      );
    }
  }
  return undefined;
}

/**
 * The scale of times read in a unix or relative format: the unix unit judgement
 * (`unixUnitIssue`), or `time_looks_absolute` when times read as relative are large
 * (over 1e8) and a unix unit puts them in inference's window. Nothing for other formats.
 */
export function timeScaleIssue(
  values: readonly string[],
  format: TimeFormat,
  at: TimesRead,
): Issue | undefined {
  if (isUnixFormat(format)) return unixUnitIssue(values, format, at);
  if (!format.startsWith('TIME_FORMAT_RELATIVE_')) return undefined;
  const fits = unixUnitOfLarge(values);
  if (!fits) return undefined;
  return issue(
    'time_looks_absolute',
    at.ptr,
    `the times of ${at.of} (${at.read}) look like ${shortName(fits)}, not ${shortName(format)}`,
    { hint: `Use ${at.field}: ${fits} and leave out relativeStartTime.`, source: at.source },
  );
}

/**
 * The unix unit that puts `values` (the times read, or their extremes) in inference's
 * window when they are large (over 1e8, as no relative time of a recording is): times a
 * relative format would read as decades; undefined otherwise.
 */
export function unixUnitOfLarge(values: readonly string[]): TimeFormat | undefined {
  if (!(minOf(values.map(Number)) > 1e8)) return undefined;
  return unixUnitThatFits(values);
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

const known = new Map<string, boolean>();

/**
 * True when `zone` is an IANA zone this runtime knows (`Europe/Berlin`, `UTC`). Remembered:
 * building the formatter that tells costs far more than rewriting a cell that names it.
 */
export function isKnownZone(zone: string): boolean {
  let yes = known.get(zone);
  if (yes === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      yes = true;
    } catch {
      yes = false;
    }
    if (known.size > 1000) known.clear();
    known.set(zone, yes);
  }
  return yes;
}
