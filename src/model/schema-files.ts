/**
 * The JSON Schema files by name, apart from their generation (json-schema.ts) so that the
 * validator, and with it a cold `importkit lint`, reads the names without loading zod.
 */
import type { ConfigKind } from './kinds.js';

/** Where the schemas live: `$id`s are under this base, file names are the last segment. */
export const SCHEMA_BASE = 'https://importkit.dev/schemas/';

/** The schema file of the whole document and of each config kind. */
export const SCHEMA_FILES: Readonly<Record<'document' | ConfigKind, string>> = {
  document: 'document.schema.json',
  csv: 'csv-config.schema.json',
  ch10: 'ch10-config.schema.json',
  tdms: 'tdms-config.schema.json',
  parquet: 'parquet-config.schema.json',
  hdf5: 'hdf5-config.schema.json',
  ulog: 'ulog-config.schema.json',
  batch: 'batch-config.schema.json',
};

export type SchemaName = keyof typeof SCHEMA_FILES;
export type JsonSchema = Record<string, unknown>;

/** The text a schema file holds: two-space JSON with a final newline. */
export function schemaText(schema: JsonSchema): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}
