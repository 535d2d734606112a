import { COMMITTED_SCHEMAS } from './_schemas.js';
import type { JsonSchema, SchemaName } from './schemas.js';

/** The committed JSON Schema (schemas/) of the whole document or of one config kind. */
export function committedSchema(name: SchemaName = 'document'): JsonSchema {
  return COMMITTED_SCHEMAS[name];
}
