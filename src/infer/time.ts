import type { TimeFormat } from '../model/index.js';
import { fittingUnixUnit, GUESS_YEARS, type PlausibleRange } from '../model/plain.js';
import type { Confidence } from './types.js';

export type { PlausibleRange } from '../model/plain.js';
export {
  fitsUnixFormat,
  isRelativeFormat,
  isRfc3339,
  isUnixFormat,
  parseTimeFormatName,
  TIME_FORMAT_SHORT_NAMES,
  unixUnitThatFits,
} from '../model/plain.js';

/**
 * Time-format facts shared by every inferer (CSV, Parquet, HDF5): which unix unit a
 * magnitude means, which relative unit a name or a units string says, and where a start
 * time can come from. Pure functions: no files, no config.
 */

export interface TimeGuess {
  format: TimeFormat;
  reason: string;
  confidence: Confidence;
}

/**
 * The unix unit whose reading of every value lands in the plausible date range
 * (1990-2100 by default). Values are exact decimal strings, numbers or bigints: integers
 * beyond 2^53 are judged exactly. Undefined when no unit fits all values.
 */
export function unixUnitFromMagnitude(
  values: ReadonlyArray<string | number | bigint>,
  range: PlausibleRange = {},
): TimeGuess | undefined {
  const unit = fittingUnixUnit(values, range);
  if (!unit) return undefined;
  return {
    format: unit.format,
    reason: `values read as unix ${unit.name} fall between ${range.minYear ?? GUESS_YEARS.minYear} and ${range.maxYear ?? GUESS_YEARS.maxYear}`,
    confidence: 'high',
  };
}

const RELATIVE_BY_UNIT: ReadonlyArray<[RegExp, TimeFormat, string]> = [
  [/^(ns|nsec|nanos?|nanoseconds?)$/i, 'TIME_FORMAT_RELATIVE_NANOSECONDS', 'nanoseconds'],
  [/^(us|µs|μs|usec|micros?|microseconds?)$/i, 'TIME_FORMAT_RELATIVE_MICROSECONDS', 'microseconds'],
  [/^(ms|msec|millis?|milliseconds?)$/i, 'TIME_FORMAT_RELATIVE_MILLISECONDS', 'milliseconds'],
  [/^(s|sec|secs|seconds?)$/i, 'TIME_FORMAT_RELATIVE_SECONDS', 'seconds'],
  [/^(min|mins|minutes?)$/i, 'TIME_FORMAT_RELATIVE_MINUTES', 'minutes'],
  [/^(h|hr|hrs|hours?)$/i, 'TIME_FORMAT_RELATIVE_HOURS', 'hours'],
];

/** The relative format a bare unit string names (`ms`, `seconds`, `µs`), if any. */
export function relativeFormatFromUnit(unit: string): TimeFormat | undefined {
  const u = unit.trim();
  for (const [re, format] of RELATIVE_BY_UNIT) if (re.test(u)) return format;
  return undefined;
}

/** The unix format of the same unit as a relative one (RELATIVE_MILLISECONDS → ABSOLUTE_UNIX_MILLISECONDS). */
export function unixFormatOfUnit(format: TimeFormat): TimeFormat | undefined {
  const m = /^TIME_FORMAT_RELATIVE_(NANOSECONDS|MICROSECONDS|MILLISECONDS|SECONDS)$/.exec(format);
  return m ? (`TIME_FORMAT_ABSOLUTE_UNIX_${m[1]}` as TimeFormat) : undefined;
}

/**
 * Whether a unix unit read off the values' magnitudes stands: it does unless the name
 * carries a unit of its own that is another (`t_ns` holding 632000000, half a second in ns,
 * is not unix seconds of 1990). A unit in the name is what its writer said.
 */
export function unixUnitStands(
  unix: { format: TimeFormat } | undefined,
  named: { format: TimeFormat } | undefined,
): boolean {
  return (
    unix !== undefined && (named === undefined || unixFormatOfUnit(named.format) === unix.format)
  );
}

/**
 * The unit written in a column or dataset name: a suffix (`time_s`, `elapsed_ms`,
 * `t_us`), brackets or parentheses (`time [us]`, `t (min)`). Undefined when none.
 */
export function unitFromName(name: string): { format: TimeFormat; unit: string } | undefined {
  const bracket = /[[(]\s*([^\])]+?)\s*[\])]\s*$/.exec(name);
  const suffix = /[_\-. ]([A-Za-zµμ]+)$/.exec(name);
  for (const candidate of [bracket?.[1], suffix?.[1]]) {
    if (!candidate) continue;
    const format = relativeFormatFromUnit(candidate);
    if (format) return { format, unit: candidate };
  }
  return undefined;
}

/** Names that usually mean time. Scored: an exact name beats a word inside a name. */
export function timeNameScore(name: string): number {
  const n = name.trim().toLowerCase();
  const base = n
    .replace(/\s*[[(].*[\])]\s*$/, '')
    .replace(/[_\-. ]?(ns|us|µs|ms|s|sec|min|h)$/, '');
  const exact = ['time', 'timestamp', 'timestamps', 'ts', 't', 'datetime', 'date_time', 'epoch'];
  if (exact.includes(n) || exact.includes(base)) return 1;
  if (/(^|[_\-. ])(time|timestamp|datetime|elapsed|epoch|utc)([_\-. ]|$)/.test(n)) return 0.8;
  if (/time|stamp|elapsed|epoch/.test(n)) return 0.5;
  return 0;
}

/**
 * A start time for relative formats written in a file name: `run_2024-10-07T17-00-09Z.csv`,
 * `log-20241007-170009.csv`, `2024-10-07.csv`. Returned as RFC 3339 UTC; undefined when none.
 */
export function startTimeFromFileName(fileName: string): string | undefined {
  const base = fileName.replace(/^.*[\\/]/, '');
  const m =
    /(\d{4})-?(\d{2})-?(\d{2})(?:[T_ -]?(\d{2})[-:]?(\d{2})[-:]?(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?/.exec(
      base,
    );
  if (!m) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac, zone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (year < 1970 || year > 2100 || month < 1 || month > 12 || day < 1 || day > 31)
    return undefined;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 60) return undefined;
  const z =
    !zone || zone === 'Z'
      ? 'Z'
      : zone.includes(':')
        ? zone
        : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  return `${y}-${mo}-${d}T${h}:${mi}:${s}${frac ? `.${frac}` : ''}${z}`;
}

/**
 * A relative unit guessed from the spacing of increasing values (no unit in the name):
 * fractional steps read as seconds; whole steps below 1,000 as milliseconds, below 10^6 as
 * microseconds, else nanoseconds. Always low confidence: say so and ask for the unit.
 */
export function relativeUnitFromSpacing(values: readonly number[]): TimeGuess {
  const steps: number[] = [];
  for (let i = 1; i < values.length; i++) {
    const d = (values[i] as number) - (values[i - 1] as number);
    if (Number.isFinite(d) && d > 0) steps.push(d);
  }
  steps.sort((a, b) => a - b);
  const median = steps.length > 0 ? (steps[Math.floor(steps.length / 2)] as number) : 1;
  const whole = values.every((v) => Number.isInteger(v));
  const pick = (format: TimeFormat, unit: string): TimeGuess => ({
    format,
    reason: `no unit in the name; the values step by ${median} (median), read as ${unit}: a guess`,
    confidence: 'low',
  });
  if (!whole || median < 1) return pick('TIME_FORMAT_RELATIVE_SECONDS', 'seconds');
  if (median < 1_000) return pick('TIME_FORMAT_RELATIVE_MILLISECONDS', 'milliseconds');
  if (median < 1_000_000) return pick('TIME_FORMAT_RELATIVE_MICROSECONDS', 'microseconds');
  return pick('TIME_FORMAT_RELATIVE_NANOSECONDS', 'nanoseconds');
}
