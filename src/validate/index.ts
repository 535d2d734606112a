/**
 * Validation of config documents: pure (no file system, no network, no Node built-in). The
 * YAML reader is loaded on first need (a valid plain config never needs it): handed over by
 * the main entry or the CLI through `provideYaml`, else through Node's `require`.
 * Text → documents with positions → normalised → shape-checked with ajv against the
 * committed JSON Schemas → semantic rules → issues.
 */

export {
  decodeConfigBytes,
  type JsonSchema,
  listSome,
  MAX_CONFIG_BYTES,
  MAX_CONFIG_TEXT,
  SCHEMA_BASE,
  SCHEMA_FILES,
  type SchemaName,
  schemaText,
} from '../model/plain.js';
export { provideYaml } from './_yaml.js';
export { configTitle } from './document-schema.js';
export { type FormatOptions, formatIssues } from './format.js';
export { inSchemaOrder } from './key-order.js';
export { fullEnumName, type Normalized, normalizeDocument } from './normalize.js';
export { configChannels } from './rules/_walk.js';
export {
  duplicateKeyOffset,
  MAX_ALIAS_COUNT,
  type ParsedSource,
  type ParseSourceOptions,
  parseConfigSource,
  positionsOf,
  type SourceDocument,
  type SourcePosition,
} from './source.js';
export {
  camelCase,
  closest as suggestClosest,
  didYouMean,
  editDistance,
  notFoundHint,
  pathSuggester,
} from './suggest.js';
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
