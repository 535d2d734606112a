import type { TimeFormat } from '../model/index.js';
import { fitsUnixFormat, unixUnitThatFits } from '../model/plain.js';

/** A cell value quoted for a message, cut when long. */
export function quoteValue(v: string): string {
  const s = v.length > 40 ? `${v.slice(0, 37)}...` : v;
  return `'${s}'`;
}

/** Short enum name for messages: CHANNEL_DATA_TYPE_INT_32 → INT_32. */
export function shortName(v: string): string {
  return v.replace(/^(CHANNEL_DATA_TYPE_|TIME_FORMAT_)/, '');
}

/**
 * The dates a check accepts for unix times: 1971-2100, wider than inference's guess
 * (1990-2100), so data from the 1970s and 80s is not called a wrong unit.
 */
export const PLAUSIBLE = { minYear: 1971, maxYear: 2100 } as const;

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
