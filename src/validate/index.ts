/**
 * Validation of config documents: pure (no file system, no network). The YAML reader is
 * loaded on first need through Node's `require` (a valid plain config never needs it).
 * Text → documents with positions → normalised → shape-checked with ajv against the
 * committed JSON Schemas → semantic rules → issues.
 */

export {
  type JsonSchema,
  SCHEMA_BASE,
  SCHEMA_FILES,
  type SchemaName,
  schemaText,
} from '../model/plain.js';
export { type FormatOptions, formatIssues } from './format.js';
export { fullEnumName, type Normalized, normalizeDocument } from './normalize.js';
export { committedSchema } from './schema-files.js';
export {
  decodeConfigBytes,
  duplicateKeyOffset,
  MAX_ALIAS_COUNT,
  MAX_CONFIG_BYTES,
  type ParsedSource,
  type ParseSourceOptions,
  parseConfigSource,
  positionsOf,
  type SourceDocument,
  type SourcePosition,
} from './source.js';
export { camelCase, closest as suggestClosest, editDistance } from './suggest.js';
export {
  assertValidConfig,
  ConfigValidationError,
  type DocumentOutcome,
  type DocumentResult,
  type InvalidResult,
  type TextValidationResult,
  type ValidateTextOptions,
  type ValidationResult,
  type ValidResult,
  validateConfig,
  validateConfigText,
} from './validate.js';
