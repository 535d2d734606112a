/**
 * The committed JSON Schema of the whole document (schemas/document.schema.json): every
 * config kind's definitions are in it, and it is the one schema validation reads (the key
 * order, the shape's messages, normalisation). Apart from the other seven
 * (committed-schemas.ts, which `importkit schema`, the MCP server and the public API read)
 * so that `lint`, `infer` and `check` load one JSON module, not eight.
 */
import document from '../../schemas/document.schema.json' with { type: 'json' };
import { CONFIG_KIND_KEYS, type ConfigKind, type JsonSchema } from '../model/plain.js';

export const DOCUMENT_SCHEMA: JsonSchema = document;

/**
 * The title of a config kind (`CsvConfig`, ...), as its own schema file has it: the name of
 * the definition the document's key for the kind refers to.
 */
export function configTitle(kind: ConfigKind): string {
  return document.properties[CONFIG_KIND_KEYS[kind]].$ref.replace('#/$defs/', '');
}
