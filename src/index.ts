/**
 * importkit's public API: named exports only. Every value export is listed here by name and
 * a test pins the list; types come through from each stage's entry. Left out on purpose:
 * the emulator's seed helpers, the validator's internal limits and suggestion helper, the
 * format inspectors' internals (reach them through `inspectCsv`/`inspectParquet`/`inspectHdf5`/
 * `inspectTdms`/`inspectCh10`/`inspectUlog`).
 */

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
// Check: a config × its data file → issues.
export type {
  CheckOptions,
  ConfigRows,
  RowBatch,
  RowChannel,
  RowReadOptions,
  RowsRead,
  UlogCheckOptions,
} from './check/index.js';
export { checkBatch, checkConfig, checkTdms, checkUlog, readConfigRows } from './check/index.js';
// CLI: run(argv, io) → exit code.
export type { Command, Io, Output } from './cli/index.js';
export {
  EXIT_INVALID,
  EXIT_OK,
  EXIT_USAGE,
  processIo,
  run,
  UsageError,
  VERSION,
} from './cli/index.js';
// Client: submit imports and follow them; the eight operations.
export type * from './client/index.js';
export {
  ApiError,
  BatchCheckError,
  ClientError,
  createClient,
  FileError,
  ImportFailedError,
  NetworkError,
  RequestError,
  ResponseError,
  TimeoutError,
} from './client/index.js';
// Emulator: a local server speaking the same interface (tests, demos, pipelines' CI).
export type {
  Emulator,
  EmulatorOptions,
  EmulatorOrganization,
  FaultKind,
  FaultRule,
  FaultSpec,
} from './emulator/index.js';
export { startEmulator } from './emulator/index.js';
// Format: configs rewritten in canonical form, comments kept.
export type { FormatResult } from './fmt/index.js';
export { formatConfigText } from './fmt/index.js';
// Infer: a file → a draft config with the evidence for each choice.
export type {
  BatchDraft,
  BatchOptions,
  Confidence,
  Draft,
  Evidence,
  InferOptions,
  Layout,
} from './infer/index.js';
export { inferBatch, inferCh10, inferConfig, inferTdms, inferUlog } from './infer/index.js';
// Inspect: a file → a neutral profile.
export type * from './inspect/index.js';
export {
  countingSource,
  detectFormat,
  InspectError,
  inspectCh10,
  inspectCsv,
  inspectFile,
  inspectHdf5,
  inspectParquet,
  inspectTdms,
  inspectUlog,
  memorySource,
  openFileSource,
} from './inspect/index.js';
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
// Preview: a config × its data file → one self-contained HTML page of the data as read.
export type { Preview, PreviewInput } from './preview/index.js';
export { buildPreview } from './preview/index.js';
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
  committedSchema,
  formatIssues,
  normalizeDocument,
  parseConfigSource,
  SCHEMA_BASE,
  SCHEMA_FILES,
  schemaText,
  validateConfig,
  validateConfigText,
} from './validate/index.js';
