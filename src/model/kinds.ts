import type { DATA_TYPE_KEY_VALUES } from './enum-values.js';

/**
 * The kinds of import config and the document key of each, as plain values (no zod):
 * validation reads this table; `document.ts` adds each kind's zod schema.
 */
export const CONFIG_KIND_KEYS = {
  csv: 'csvConfig',
  ch10: 'ch10Config',
  tdms: 'tdmsConfig',
  parquet: 'parquetConfig',
  hdf5: 'hdf5Config',
  ulog: 'ulogConfig',
  batch: 'batchConfig',
} as const;

export type ConfigKind = keyof typeof CONFIG_KIND_KEYS;
export type ConfigKey = (typeof CONFIG_KIND_KEYS)[ConfigKind];
export const CONFIG_KIND_NAMES = Object.keys(CONFIG_KIND_KEYS) as ConfigKind[];
export const CONFIG_KEYS = CONFIG_KIND_NAMES.map((k) => CONFIG_KIND_KEYS[k]) as ConfigKey[];

export function kindOfKey(key: string): ConfigKind | undefined {
  return CONFIG_KIND_NAMES.find((k) => CONFIG_KIND_KEYS[k] === key);
}

/** The DataTypeKey values each config kind answers to (a batch file entry's `type`). */
export const DATA_TYPE_KEY_KIND: Record<
  Exclude<(typeof DATA_TYPE_KEY_VALUES)[number], 'DATA_TYPE_KEY_UNSPECIFIED'>,
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
