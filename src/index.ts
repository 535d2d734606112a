/**
 * importkit's main entry: the config model, the builders, the validator and the formatter.
 * It loads no Node built-in (a test imports it where none exists), so it also runs in a
 * browser or a worker. What reads files, runs the CLI or talks HTTP has its own entry:
 * `importkit/node` (this API and the file stages, the CLI, the client and the emulator),
 * `importkit/client`, `importkit/emulator`.
 *
 * Named exports only. Every value export is listed here by name and a test pins the list;
 * types come through from each stage's entry. Left out on purpose: the validator's internal
 * limits and suggestion helper.
 */
import * as YAML from 'yaml';
import { provideYaml } from './validate/index.js';

// The validator reads YAML with positions only for a config with an issue; in Node it loads
// the yaml package on first need. Here it is already loaded (the formatter uses it), so the
// validator takes it from this entry and needs no Node built-in to load it.
provideYaml(() => YAML);

// Build: typed builders that return validated, canonical documents.
export type * from './build/index.js';
export {
  batchConfig,
  ConfigBuildError,
  ch10Config,
  channel,
  csvConfig,
  fromUrl,
  hdf5Config,
  parquetConfig,
  tdmsConfig,
  ulogConfig,
} from './build/index.js';
// Format: configs rewritten in canonical form, comments kept.
export type { FormatResult } from './fmt/index.js';
export { formatConfigText } from './fmt/index.js';
// Model: the zod schema of every shape (the one definition; types are inferred from it).
export type * from './model/index.js';
export {
  ABSOLUTE_TIME_FORMATS,
  Asset,
  BatchConfig,
  BatchFileConfig,
  BitFieldElement,
  CalculatedChannelConfig,
  CHANNEL_DATA_TYPE_VALUES,
  Ch10Config,
  Channel,
  ChannelConfig,
  ChannelDataType,
  ChannelReference,
  CODE_AREAS,
  CODES,
  CONFIG_KEYS,
  CONFIG_KIND_NAMES,
  CONFIG_KINDS,
  CsvConfig,
  CsvTimeColumn,
  DATA_IMPORT_STATUS_VALUES,
  DATA_TYPE_KEY_KIND,
  DATA_TYPE_KEY_VALUES,
  DataImport,
  DataImportStatus,
  DataTypeKey,
  ENUMS,
  escapePointerToken,
  FunctionDataType,
  generateSchemas,
  Hdf5Config,
  Hdf5DataEntry,
  hasErrors,
  ImportDocument,
  INT32_MAX,
  INT32_MIN,
  INT64_MAX,
  INT64_MIN,
  Int32,
  Int64String,
  isIssueCode,
  isRelativeTimeFormat,
  kindOfKey,
  METADATA_KEY_TYPE_VALUES,
  Metadata,
  MetadataKey,
  MetadataKeyType,
  MetadataValue,
  Organization,
  PARQUET_COMPLEX_TYPES_IMPORT_MODE_VALUES,
  ParquetColumn,
  ParquetComplexTypesImportMode,
  ParquetConfig,
  ParquetDataColumn,
  ParquetFlatDataset,
  ParquetMultiChannel,
  ParquetSingleChannel,
  ParquetSingleChannelPerRow,
  ParquetTimeColumn,
  parsePointer,
  pointer,
  RELATIVE_TIME_FORMATS,
  RelationValue,
  ResponseBitFieldElement,
  ResponseEnumType,
  ResponseMetadataKey,
  RUN_UPDATE_MASK_FIELDS,
  Run,
  SavedSearch,
  SavedSearchProperties,
  Status,
  TDMS_COMPLEX_COMPONENT_VALUES,
  TDMS_FALLBACK_METHOD_VALUES,
  TdmsComplexComponent,
  TdmsConfig,
  TdmsDataEntry,
  TdmsFallbackMethod,
  TIME_FORMAT_VALUES,
  TimeFormat,
  Timestamp,
  UINT32_MAX,
  UINT64_MAX,
  Uint32,
  Uint64String,
  ULOG_PARSE_ERROR_POLICY_VALUES,
  UlogConfig,
  UlogDataEntry,
  UlogParseErrorPolicy,
  UserDefinedFunctionVersion,
  View,
  ViewChannel,
} from './model/index.js';
export { committedSchema } from './validate/committed-schemas.js';
// Validate: a document or its text → { ok, value, issues }.
export type {
  DocumentOutcome,
  DocumentResult,
  FormatOptions,
  InvalidResult,
  JsonSchema,
  Normalized,
  ParsedSource,
  ParseSourceOptions,
  SchemaName,
  SourceDocument,
  SourcePosition,
  TextValidationResult,
  ValidateTextOptions,
  ValidationResult,
  ValidResult,
} from './validate/index.js';
export {
  assertValidConfig,
  ConfigValidationError,
  formatIssues,
  normalizeDocument,
  parseConfigSource,
  SCHEMA_BASE,
  SCHEMA_FILES,
  schemaText,
  validateConfig,
  validateConfigText,
} from './validate/index.js';
