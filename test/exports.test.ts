/**
 * The public API of each entry point, pinned: a new export is a decision, made by editing
 * these lists on purpose. `importkit` loads no Node built-in (test/package/browser-safe.test.ts);
 * `importkit/node` is the whole API.
 */
import { expect, test } from 'vitest';
import * as client from '../src/client.js';
import * as emulator from '../src/emulator.js';
import * as main from '../src/index.js';
import * as node from '../src/node.js';

/** `importkit`: the model, the builders, the validator, the formatter. */
const MAIN = [
  'ABSOLUTE_TIME_FORMATS',
  'Asset',
  'BatchConfig',
  'BatchFileConfig',
  'BitFieldElement',
  'CHANNEL_DATA_TYPE_VALUES',
  'CODES',
  'CODE_AREAS',
  'CONFIG_KEYS',
  'CONFIG_KINDS',
  'CONFIG_KIND_NAMES',
  'CalculatedChannelConfig',
  'Ch10Config',
  'Channel',
  'ChannelConfig',
  'ChannelDataType',
  'ChannelReference',
  'ConfigBuildError',
  'ConfigValidationError',
  'CsvConfig',
  'CsvTimeColumn',
  'DATA_IMPORT_STATUS_VALUES',
  'DATA_TYPE_KEY_KIND',
  'DATA_TYPE_KEY_VALUES',
  'DataImport',
  'DataImportStatus',
  'DataTypeKey',
  'ENUMS',
  'FunctionDataType',
  'Hdf5Config',
  'Hdf5DataEntry',
  'INT32_MAX',
  'INT32_MIN',
  'INT64_MAX',
  'INT64_MIN',
  'ImportDocument',
  'Int32',
  'Int64String',
  'METADATA_KEY_TYPE_VALUES',
  'Metadata',
  'MetadataKey',
  'MetadataKeyType',
  'MetadataValue',
  'Organization',
  'PARQUET_COMPLEX_TYPES_IMPORT_MODE_VALUES',
  'ParquetColumn',
  'ParquetComplexTypesImportMode',
  'ParquetConfig',
  'ParquetDataColumn',
  'ParquetFlatDataset',
  'ParquetMultiChannel',
  'ParquetSingleChannel',
  'ParquetSingleChannelPerRow',
  'ParquetTimeColumn',
  'RELATIVE_TIME_FORMATS',
  'RUN_UPDATE_MASK_FIELDS',
  'RelationValue',
  'ResponseBitFieldElement',
  'ResponseEnumType',
  'ResponseMetadataKey',
  'Run',
  'SCHEMA_BASE',
  'SCHEMA_FILES',
  'SavedSearch',
  'SavedSearchProperties',
  'Status',
  'TDMS_COMPLEX_COMPONENT_VALUES',
  'TDMS_FALLBACK_METHOD_VALUES',
  'TIME_FORMAT_VALUES',
  'TdmsComplexComponent',
  'TdmsConfig',
  'TdmsDataEntry',
  'TdmsFallbackMethod',
  'TimeFormat',
  'Timestamp',
  'UINT32_MAX',
  'UINT64_MAX',
  'ULOG_PARSE_ERROR_POLICY_VALUES',
  'Uint32',
  'Uint64String',
  'UlogConfig',
  'UlogDataEntry',
  'UlogParseErrorPolicy',
  'UserDefinedFunctionVersion',
  'View',
  'ViewChannel',
  'assertValidConfig',
  'batchConfig',
  'ch10Config',
  'channel',
  'committedSchema',
  'csvConfig',
  'escapePointerToken',
  'formatConfigText',
  'formatIssues',
  'fromUrl',
  'generateSchemas',
  'hasErrors',
  'hdf5Config',
  'isIssueCode',
  'isRelativeTimeFormat',
  'kindOfKey',
  'normalizeDocument',
  'parquetConfig',
  'parseConfigSource',
  'parsePointer',
  'pointer',
  'schemaText',
  'tdmsConfig',
  'ulogConfig',
  'validateConfig',
  'validateConfigText',
];

/** Only in `importkit/node` (beside everything else): file stages, preview and the CLI. */
const NODE_ONLY = [
  'EXIT_INVALID',
  'EXIT_OK',
  'EXIT_USAGE',
  'InspectError',
  'UsageError',
  'VERSION',
  'buildPreview',
  'checkBatch',
  'checkConfig',
  'checkTdms',
  'checkUlog',
  'countingSource',
  'detectFormat',
  'inferBatch',
  'inferCh10',
  'inferConfig',
  'inferTdms',
  'inferUlog',
  'inspectCh10',
  'inspectCsv',
  'inspectFile',
  'inspectHdf5',
  'inspectParquet',
  'inspectTdms',
  'inspectUlog',
  'memorySource',
  'openFileSource',
  'processIo',
  'readConfigRows',
  'run',
];

/** `importkit/client` (also in `importkit/node`). */
const CLIENT = [
  'ApiError',
  'BatchCheckError',
  'ClientError',
  'FileError',
  'ImportFailedError',
  'NetworkError',
  'RequestError',
  'ResponseError',
  'TimeoutError',
  'createClient',
];

/** `importkit/emulator` (also in `importkit/node`). */
const EMULATOR = ['startEmulator'];

test('every public export of each entry is intended (the lists are pinned)', () => {
  expect(Object.keys(main).sort()).toEqual([...MAIN].sort());
  expect(Object.keys(client).sort()).toEqual([...CLIENT].sort());
  expect(Object.keys(emulator).sort()).toEqual([...EMULATOR].sort());
  expect(Object.keys(node).sort()).toEqual([...MAIN, ...NODE_ONLY, ...CLIENT, ...EMULATOR].sort());
});

test('an export of two entries is the same value in both', () => {
  const whole: Record<string, unknown> = { ...node };
  for (const entry of [main, client, emulator]) {
    for (const [name, value] of Object.entries(entry)) expect(whole[name]).toBe(value);
  }
});

test('the package version matches package.json', async () => {
  const { readFile } = await import('node:fs/promises');
  const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
  expect(node.VERSION).toBe(pkg.version);
});
