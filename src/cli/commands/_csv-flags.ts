import { parseDelimiter } from '../../model/plain.js';
import { UsageError } from '../errors.js';

/** `--delimiter` and `--header-row` (CSV; `infer`, `check` and `normalize` take them alike). */
export function csvDialectFromArgs(values: Record<string, string | boolean | undefined>): {
  delimiter?: string;
  headerRow?: number;
} {
  const out: { delimiter?: string; headerRow?: number } = {};
  const delimiter = values.delimiter;
  if (typeof delimiter === 'string') {
    const d = parseDelimiter(delimiter);
    if (d === undefined) throw new UsageError(`--delimiter '${delimiter}' is not one of , ; tab |`);
    out.delimiter = d;
  }
  const headerRow = values['header-row'];
  if (typeof headerRow === 'string') {
    if (!/^\d+$/.test(headerRow))
      throw new UsageError(`--header-row takes a row number (0 for none), not '${headerRow}'`);
    out.headerRow = Number(headerRow);
  }
  return out;
}
