import type { TimeFormat } from '../model/index.js';
import { fitsUnixFormat, unixUnitThatFits } from '../model/plain.js';

export { quoteValue, shortName } from '../values/index.js';

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
