/**
 * Normalize: a CSV file → a copy the platform reads (numbers with dots, one RFC 3339 time
 * column, `,` as delimiter, no BOM, no trailing empty columns, no repeated header lines).
 * The public entry of this stage.
 */
export type {
  NormalizeCounts,
  NormalizeOptions,
  NormalizeReport,
} from '../formats/csv/normalize.js';
export { normalizeCsv } from '../formats/csv/normalize.js';
export { isKnownZone } from '../formats/csv/normalize-times.js';
