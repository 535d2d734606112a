import type { BatchConfig, BatchFileConfig, DataTypeKey } from '../model/index.js';
import { finish, knownKeys, RUN_KEYS, type RunInput, runFields } from './_common.js';
import { type FileTypeName, fileType } from './_names.js';
import type { CsvDocument } from './csv.js';
import type { Hdf5Document } from './hdf5.js';
import type { ParquetDocument } from './parquet.js';
import type { TdmsDocument } from './tdms.js';
import type { UlogDocument } from './ulog.js';

/** A config a file in the archive can have: what `csvConfig()`, `parquetConfig()`... return. */
export type FileDocument =
  | CsvDocument
  | TdmsDocument
  | ParquetDocument
  | Hdf5Document
  | UlogDocument;

export type BatchConfigInput = RunInput & {
  /**
   * Configs for files listed without one, one per kind: `[csvConfig({...}), ...]`.
   * Leave out asset and run: they are set for the whole batch.
   */
  defaults?: readonly FileDocument[];
  /**
   * The files to import, by path inside the archive: a config of their own (its type is
   * taken from it), or just their type (`'csv'`, `'hdf5'`...) to use the default.
   */
  files: Readonly<Record<string, FileDocument | FileTypeName>>;
};

export type BatchDocument = { batchConfig: BatchConfig };

const DEFAULT_KEY = {
  csvConfig: 'defaultCsvConfig',
  tdmsConfig: 'defaultTdmsConfig',
  parquetConfig: 'defaultParquetConfig',
  hdf5Config: 'defaultHdf5Config',
  ulogConfig: 'defaultUlogConfig',
} as const;

type FileKey = keyof typeof DEFAULT_KEY;

function keyOf(doc: FileDocument): FileKey {
  const key = Object.keys(doc).find((k): k is FileKey => Object.hasOwn(DEFAULT_KEY, k));
  if (key === undefined) {
    throw new TypeError(
      'batchConfig(): a file config must come from csvConfig(), parquetConfig()...',
    );
  }
  return key;
}

function typeOf(doc: FileDocument): DataTypeKey {
  if ('csvConfig' in doc) return 'DATA_TYPE_KEY_CSV';
  if ('tdmsConfig' in doc) return 'DATA_TYPE_KEY_TDMS';
  if ('hdf5Config' in doc) return 'DATA_TYPE_KEY_HDF5';
  if ('ulogConfig' in doc) return 'DATA_TYPE_KEY_ULOG';
  return doc.parquetConfig.singleChannelPerRow !== undefined
    ? 'DATA_TYPE_KEY_PARQUET_SINGLE_CHANNEL_PER_ROW'
    : 'DATA_TYPE_KEY_PARQUET_FLATDATASET';
}

/**
 * An import config for an archive (zip or tar) of many files: `batchConfig({ asset:
 * 'car', run: 'day-2', defaults: [csvConfig({...})], files: { 'logs/a.csv': 'csv',
 * 'logs/b.parquet': parquetConfig({...}) } })`. Only the files listed are imported.
 */
export function batchConfig(input: BatchConfigInput): BatchDocument {
  knownKeys('batchConfig()', input, [...RUN_KEYS, 'defaults', 'files']);
  const out: BatchConfig = runFields(input);
  for (const doc of input.defaults ?? []) {
    const key = keyOf(doc);
    Object.assign(out, { [DEFAULT_KEY[key]]: (doc as Record<FileKey, unknown>)[key] });
  }
  const fileConfigs: Record<string, BatchFileConfig> = {};
  for (const [path, file] of Object.entries(input.files)) {
    fileConfigs[path] =
      typeof file === 'string' ? { type: fileType(file) } : { type: typeOf(file), ...file };
  }
  out.fileConfigs = fileConfigs;
  return finish('batch', { batchConfig: out });
}
