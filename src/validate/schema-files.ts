import type { JsonSchema, SchemaName } from '../model/index.js';
import { COMMITTED_SCHEMAS } from './_schemas.js';

/** The committed JSON Schema (schemas/) of the whole document or of one config kind. */
export function committedSchema(name: SchemaName = 'document'): JsonSchema {
  return COMMITTED_SCHEMAS[name];
}
