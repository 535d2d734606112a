/**
 * Normalize: a data file → a copy the platform reads, by its format's normalizer in the
 * format table (CSV: numbers with dots, one RFC 3339 time column, `,` as delimiter, no
 * BOM, no trailing empty columns, no repeated header lines). The public entry of this stage.
 */
import { formatById, type NormalizeOptions, type NormalizeReport } from '../inspect/index.js';

export type { NormalizeCounts, NormalizeOptions, NormalizeReport } from '../inspect/index.js';
export { isKnownZone } from '../values/index.js';

/**
 * Normalizes the CSV file `input` into `output` (written to a new file beside it, then
 * renamed over `output`). The caller makes sure `output` is not the input.
 */
export async function normalizeCsv(
  input: string,
  output: string,
  options: NormalizeOptions = {},
): Promise<NormalizeReport> {
  const normalize = await formatById('csv')?.normalize?.();
  if (!normalize) throw new Error('no normalizer for CSV in the format table');
  return normalize(input, output, options);
}
