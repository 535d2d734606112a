/** `--jobs <n>` of the commands that take it (check, infer, lint, normalize): one reading of the flag. */
import { UsageError } from '../errors.js';

/** A whole number from 1; undefined when the flag is not given (the command's default applies). */
export function jobsOption(value: string | boolean | undefined): number | undefined {
  if (typeof value !== 'string') return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isInteger(n) || n < 1)
    throw new UsageError(`--jobs takes a whole number from 1, not '${value}'`);
  return n;
}
