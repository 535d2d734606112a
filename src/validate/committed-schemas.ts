/**
 * The committed JSON Schemas (schemas/*.json), imported as JSON modules so that the
 * validator needs no file system (it also runs in a browser). `tsc` copies them to
 * dist/schemas/ beside dist/src/, keeping the relative path.
 */
import batch from '../../schemas/batch-config.schema.json' with { type: 'json' };
import ch10 from '../../schemas/ch10-config.schema.json' with { type: 'json' };
import csv from '../../schemas/csv-config.schema.json' with { type: 'json' };
import document from '../../schemas/document.schema.json' with { type: 'json' };
import hdf5 from '../../schemas/hdf5-config.schema.json' with { type: 'json' };
import parquet from '../../schemas/parquet-config.schema.json' with { type: 'json' };
import tdms from '../../schemas/tdms-config.schema.json' with { type: 'json' };
import ulog from '../../schemas/ulog-config.schema.json' with { type: 'json' };
import type { JsonSchema, SchemaName } from '../model/index.js';

export const COMMITTED_SCHEMAS: Readonly<Record<SchemaName, JsonSchema>> = {
  document,
  csv,
  ch10,
  tdms,
  parquet,
  hdf5,
  ulog,
  batch,
};

/** The committed JSON Schema (schemas/) of the whole document or of one config kind. */
export function committedSchema(name: SchemaName = 'document'): JsonSchema {
  return COMMITTED_SCHEMAS[name];
}
