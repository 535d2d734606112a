import type { BatchConfig, BatchFileConfig, DataTypeKey } from '../model/index.js';
import {
  BATCH_DEFAULT_KEYS,
  type BatchDefaultKey,
  type BatchFileKey,
  type BatchFileKind,
  batchDefaultKey,
  dataTypeKeyOf,
  isBatchFileKey,
  kindOfKey,
  setOwn,
} from '../model/plain.js';
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

/** The `default*Config` fields of a BatchConfig, as `inferBatch` drafts them. */
export type BatchDefaults = Pick<BatchConfig, BatchDefaultKey>;

export type BatchConfigInput = RunInput & {
  /**
   * Configs for files listed without one, one per kind: `[csvConfig({...}), ...]`, or the
   * `default*Config` fields of a drafted BatchConfig (`{ defaultCsvConfig, ... }`).
   * Leave out asset and run: they are set for the whole batch.
   */
  defaults?: readonly FileDocument[] | BatchDefaults;
  /**
   * The files to import, by path inside the archive: a config of their own (its type is
   * taken from it), just their type (`'csv'`, `'hdf5'`...) to use the default, or an entry
   * of a drafted BatchConfig's `fileConfigs` (`{ type, csvConfig? }`, taken as it is).
   */
  files: Readonly<Record<string, FileDocument | FileTypeName | BatchFileConfig>>;
};

export type BatchDocument = { batchConfig: BatchConfig };

type FileKey = BatchFileKey;

function keyOf(doc: FileDocument): FileKey {
  const key = Object.keys(doc).find(isBatchFileKey);
  if (key === undefined) {
    throw new TypeError(
      'batchConfig(): a file config must come from csvConfig(), parquetConfig()...',
    );
  }
  return key;
}

function typeOf(doc: FileDocument): DataTypeKey {
  const key = keyOf(doc);
  return dataTypeKeyOf(kindOfKey(key) as BatchFileKind, (doc as Record<FileKey, object>)[key]);
}

/** The `default*Config` fields from builder documents or from a drafted batch's fields. */
function defaultFields(defaults: BatchConfigInput['defaults']): BatchDefaults {
  const out: Record<string, unknown> = {};
  if (defaults === undefined) return out;
  if (!Array.isArray(defaults)) {
    const fields = defaults as BatchDefaults;
    knownKeys('batchConfig()', fields, Object.values(BATCH_DEFAULT_KEYS), '/defaults');
    return { ...fields };
  }
  for (const doc of defaults as readonly FileDocument[]) {
    const key = keyOf(doc);
    out[batchDefaultKey(key)] = (doc as Record<FileKey, unknown>)[key];
  }
  return out;
}

/** One `fileConfigs` entry: from a type name, a builder document, or a drafted entry. */
function fileEntry(file: FileDocument | FileTypeName | BatchFileConfig): BatchFileConfig {
  if (typeof file === 'string') return { type: fileType(file) };
  if ('type' in file) return { ...file };
  return { type: typeOf(file), ...file };
}

/**
 * An import config for an archive (zip or tar) of many files: `batchConfig({ asset:
 * 'car', run: 'day-2', defaults: [csvConfig({...})], files: { 'logs/a.csv': 'csv',
 * 'logs/b.parquet': parquetConfig({...}) } })`. Only the files listed are imported. The
 * parts of a drafted batch fit too: `const { fileConfigs, assetName, runName, runId,
 * ...defaults } = draft.document.batchConfig`, then `batchConfig({ asset, defaults, files:
 * { ...fileConfigs, 'extra.csv': 'csv' } })`.
 */
export function batchConfig(input: BatchConfigInput): BatchDocument {
  knownKeys('batchConfig()', input, [...RUN_KEYS, 'defaults', 'files']);
  const out: BatchConfig = { ...runFields(input), ...defaultFields(input.defaults) };
  const fileConfigs: Record<string, BatchFileConfig> = {};
  for (const [path, file] of Object.entries(input.files))
    setOwn(fileConfigs, path, fileEntry(file));
  out.fileConfigs = fileConfigs;
  return finish('batch', { batchConfig: out });
}
