import { z } from 'zod';
import { BatchConfig } from './batch.js';
import { Ch10Config } from './ch10.js';
import { CsvConfig } from './csv.js';
import type { DataTypeKey } from './enums.js';
import { Hdf5Config } from './hdf5.js';
import { ParquetConfig } from './parquet.js';
import { TdmsConfig } from './tdms.js';
import { UlogConfig } from './ulog.js';

/**
 * How deep a config document (or a request body carrying one) may nest: deeper than any
 * config does (the deepest real path is about 12 levels). The validator reports deeper
 * documents; the emulator refuses deeper request bodies.
 */
export const MAX_NESTING_DEPTH = 64;

/** The kinds of import config, each mapped to its document key in one table every layer reads. */
export const CONFIG_KINDS = {
  csv: { key: 'csvConfig', schema: CsvConfig, title: 'CsvConfig' },
  ch10: { key: 'ch10Config', schema: Ch10Config, title: 'Ch10Config' },
  tdms: { key: 'tdmsConfig', schema: TdmsConfig, title: 'TdmsConfig' },
  parquet: { key: 'parquetConfig', schema: ParquetConfig, title: 'ParquetConfig' },
  hdf5: { key: 'hdf5Config', schema: Hdf5Config, title: 'Hdf5Config' },
  ulog: { key: 'ulogConfig', schema: UlogConfig, title: 'UlogConfig' },
  batch: { key: 'batchConfig', schema: BatchConfig, title: 'BatchConfig' },
} as const;

export type ConfigKind = keyof typeof CONFIG_KINDS;
export type ConfigKey = (typeof CONFIG_KINDS)[ConfigKind]['key'];
export const CONFIG_KIND_NAMES = Object.keys(CONFIG_KINDS) as ConfigKind[];
export const CONFIG_KEYS = CONFIG_KIND_NAMES.map((k) => CONFIG_KINDS[k].key) as ConfigKey[];

export function kindOfKey(key: string): ConfigKind | undefined {
  return CONFIG_KIND_NAMES.find((k) => CONFIG_KINDS[k].key === key);
}

/** The DataTypeKey values each config kind answers to (a batch file entry's `type`). */
export const DATA_TYPE_KEY_KIND: Record<
  Exclude<DataTypeKey, 'DATA_TYPE_KEY_UNSPECIFIED'>,
  ConfigKind
> = {
  DATA_TYPE_KEY_CSV: 'csv',
  DATA_TYPE_KEY_TDMS: 'tdms',
  DATA_TYPE_KEY_CH10: 'ch10',
  DATA_TYPE_KEY_PARQUET_FLATDATASET: 'parquet',
  DATA_TYPE_KEY_PARQUET_SINGLE_CHANNEL_PER_ROW: 'parquet',
  DATA_TYPE_KEY_HDF5: 'hdf5',
  DATA_TYPE_KEY_ULOG: 'ulog',
};

/**
 * A config document: the body of CreateDataImportFromUpload (exactly one config key,
 * checked by a semantic rule so the message can say which), or, with `url`, the body of
 * CreateDataImportFromUrl.
 */
export const ImportDocument = z.strictObject({
  /** http, https or s3 address of the file (CreateDataImportFromUrl). */
  url: z.string().optional(),
  csvConfig: CsvConfig.optional(),
  ch10Config: Ch10Config.optional(),
  tdmsConfig: TdmsConfig.optional(),
  parquetConfig: ParquetConfig.optional(),
  hdf5Config: Hdf5Config.optional(),
  ulogConfig: UlogConfig.optional(),
  batchConfig: BatchConfig.optional(),
});
export type ImportDocument = z.infer<typeof ImportDocument>;
