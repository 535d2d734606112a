/**
 * Words every stage shares: time formats and their units, the date-time patterns, how a
 * user-written enum name is read, and field-mask paths. A leaf: plain values and pure
 * functions, importing nothing but the enum lists, so that check, infer, client and the
 * emulator read the same vocabulary without importing each other.
 */
import { TIME_FORMAT_VALUES } from './enum-values.js';

type TimeFormat = (typeof TIME_FORMAT_VALUES)[number];

// ---------------------------------------------------------------------------------------
// Enum names

/**
 * The full enum value a user-written name means: the full name (`TIME_FORMAT_ABSOLUTE_RFC3339`)
 * or the short one (`ABSOLUTE_RFC3339`), any case, with `-` or spaces for `_`
 * (`absolute-rfc3339`, `Absolute RFC3339`). Undefined when it names no value.
 */
export function enumName<T extends string>(
  value: string,
  prefix: string,
  values: readonly T[],
): T | undefined {
  const upper = value
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');
  if (upper === '') return undefined;
  const full = upper.startsWith(prefix) ? upper : `${prefix}${upper}`;
  return values.find((v) => v === full || v === upper);
}

// ---------------------------------------------------------------------------------------
// Time formats

/** Every time format a config can name (all but UNSPECIFIED). */
export const TIME_FORMATS = TIME_FORMAT_VALUES.filter(
  (f) => f !== 'TIME_FORMAT_UNSPECIFIED',
) as readonly TimeFormat[];

/** The short names of every time format (`RELATIVE_SECONDS` ...), for help texts. */
export const TIME_FORMAT_SHORT_NAMES: readonly string[] = TIME_FORMATS.map((f) =>
  f.replace(/^TIME_FORMAT_/, ''),
);

/**
 * A time format named by a user: the full name or the short one, case-insensitive.
 * Undefined when it names no format (or UNSPECIFIED).
 */
export function parseTimeFormatName(name: string): TimeFormat | undefined {
  return enumName(name, 'TIME_FORMAT_', TIME_FORMATS);
}

/** True for the RELATIVE_* formats (they need a start time). */
export function isRelativeFormat(format: TimeFormat): boolean {
  return format.startsWith('TIME_FORMAT_RELATIVE_');
}

/** True for the ABSOLUTE_UNIX_* formats (numbers since 1970). */
export function isUnixFormat(format: TimeFormat): boolean {
  return format.startsWith('TIME_FORMAT_ABSOLUTE_UNIX_');
}

/**
 * How many milliseconds one unit of each numeric time format is (unix units since 1970,
 * relative units since the start): the one table the row readers and the emulator scale by.
 */
export const MS_PER_UNIT: Readonly<Partial<Record<TimeFormat, number>>> = {
  TIME_FORMAT_ABSOLUTE_UNIX_SECONDS: 1000,
  TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS: 1,
  TIME_FORMAT_ABSOLUTE_UNIX_MICROSECONDS: 1e-3,
  TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS: 1e-6,
  TIME_FORMAT_RELATIVE_NANOSECONDS: 1e-6,
  TIME_FORMAT_RELATIVE_MICROSECONDS: 1e-3,
  TIME_FORMAT_RELATIVE_MILLISECONDS: 1,
  TIME_FORMAT_RELATIVE_SECONDS: 1000,
  TIME_FORMAT_RELATIVE_MINUTES: 60_000,
  TIME_FORMAT_RELATIVE_HOURS: 3_600_000,
};

/** The unix formats, coarsest first, with how many of their units make a second. */
export const UNIX_UNITS = [
  { format: 'TIME_FORMAT_ABSOLUTE_UNIX_SECONDS', perSecond: 1n, name: 'seconds' },
  { format: 'TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS', perSecond: 1_000n, name: 'milliseconds' },
  { format: 'TIME_FORMAT_ABSOLUTE_UNIX_MICROSECONDS', perSecond: 1_000_000n, name: 'microseconds' },
  {
    format: 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS',
    perSecond: 1_000_000_000n,
    name: 'nanoseconds',
  },
] as const;

/**
 * The years inference believes a unix time falls in when it guesses a unit (narrower than
 * check's 1971-2100 window, `values/time.ts`: a guess wants the likely dates).
 */
export const GUESS_YEARS = { minYear: 1990, maxYear: 2100 } as const;
/** GUESS_YEARS in words, as messages give them. */
export const GUESS_YEARS_WORDS = `${GUESS_YEARS.minYear}-${GUESS_YEARS.maxYear}`;

/** The years a unix time may fall in to be believed. */
export interface PlausibleRange {
  /** First plausible year (inclusive). Default 1990. */
  minYear?: number;
  /** Last plausible year (inclusive). Default 2100. */
  maxYear?: number;
}

function yearStartSeconds(year: number): number {
  return Date.UTC(year, 0, 1) / 1000;
}

/** Whole seconds of a value given as a decimal string, number or bigint, floored. */
function toBigSeconds(value: string | number | bigint, perSecond: bigint): bigint | undefined {
  if (typeof value === 'bigint') return value / perSecond;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    return BigInt(Math.floor(value / Number(perSecond)));
  }
  const m = /^\s*([+-]?\d+)(?:\.\d*)?(?:[eE][+-]?\d+)?\s*$/.exec(value);
  if (!m) return undefined;
  if (/[eE]/.test(value)) return toBigSeconds(Number(value), perSecond);
  return BigInt(m[1]!) / perSecond;
}

/**
 * True when every value, read in the given unix format, falls in the plausible range (exact
 * for integers past 2^53). False for formats that are not unix ones.
 */
export function fitsUnixFormat(
  values: ReadonlyArray<string | number | bigint>,
  format: TimeFormat,
  range: PlausibleRange = {},
): boolean {
  const unit = UNIX_UNITS.find((u) => u.format === format);
  if (!unit) return false;
  const lo = BigInt(yearStartSeconds(range.minYear ?? GUESS_YEARS.minYear));
  const hi = BigInt(yearStartSeconds((range.maxYear ?? GUESS_YEARS.maxYear) + 1));
  return values.every((v) => {
    const s = toBigSeconds(v, unit.perSecond);
    return s !== undefined && s >= lo && s < hi;
  });
}

/**
 * The first (coarsest) unix unit whose reading of every value lands in the plausible range
 * (1990-2100 by default). Undefined when there are no values or no unit fits them all.
 */
export function fittingUnixUnit(
  values: ReadonlyArray<string | number | bigint>,
  range: PlausibleRange = {},
): (typeof UNIX_UNITS)[number] | undefined {
  if (values.length === 0) return undefined;
  return UNIX_UNITS.find((unit) => fitsUnixFormat(values, unit.format, range));
}

/** Which unix format would put the values in range, for a message about the wrong unit. */
export function unixUnitThatFits(
  values: ReadonlyArray<string | number | bigint>,
  range: PlausibleRange = {},
): TimeFormat | undefined {
  return fittingUnixUnit(values, range)?.format;
}

// ---------------------------------------------------------------------------------------
// Date-time text

/**
 * A timestamp as a config field holds it: RFC 3339 with `T` and a zone written `Z` or
 * `±hh:mm` (`2024-10-07T17:00:09.5Z`), up to nanoseconds.
 */
export const RFC3339_TIMESTAMP =
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * Date-time text in a data file that the platform reads as ABSOLUTE_RFC3339: as above, also
 * with a space for `T`, any number of fraction digits and a zone written `±hhmm`.
 */
export const RFC3339_TEXT =
  /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})$/;

/** Date-time text with no zone (ABSOLUTE_DATETIME): `2024-10-07 17:00`, seconds optional. */
export const DATETIME_TEXT = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/** True when the text is an RFC 3339 timestamp with a zone, as a config field holds it. */
export function isRfc3339(text: string): boolean {
  return RFC3339_TIMESTAMP.test(text) && Number.isFinite(Date.parse(text));
}

// ---------------------------------------------------------------------------------------
// Field masks

/** `isArchived` → `is_archived`; `properties.searchTerm` → `properties.search_term`. */
export function toSnakePath(path: string): string {
  return path
    .split('.')
    .map((part) => part.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`))
    .join('.');
}

/** `is_archived` → `isArchived`: a snake_case field-mask path in camelCase. */
export function toCamelPath(path: string): string {
  return path
    .split('.')
    .map((part) => part.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()))
    .join('.');
}

const DELIMITER_NAMES: Record<string, string> = {
  ',': ',',
  comma: ',',
  ';': ';',
  semicolon: ';',
  '\t': '\t',
  '\\t': '\t',
  tab: '\t',
  '|': '|',
  pipe: '|',
};

/** A delimiter as a user may name it (`;`, `tab`, `\t`, `pipe`); undefined when not one of `, ; \t |`. */
export function parseDelimiter(name: string): string | undefined {
  return DELIMITER_NAMES[name] ?? DELIMITER_NAMES[name.toLowerCase()];
}

/** A delimiter as messages show it: `tab`, or the character quoted (`';'`). */
export function showDelimiter(d: string): string {
  return d === '\t' ? 'tab' : `'${d}'`;
}
