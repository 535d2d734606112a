import type { DATA_TYPE_KEY_VALUES } from './enum-values.js';
import type { Issue } from './issue.js';

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

/**
 * The config kinds a batch file entry can carry a config of, each with the BatchConfig field
 * that holds its default. CH10 has neither: a batch lists a CH10 file by its type only, and
 * the platform reads it with Ch10Config's defaults. Every stage asks this table.
 */
export const BATCH_DEFAULT_KEYS = {
  csv: 'defaultCsvConfig',
  tdms: 'defaultTdmsConfig',
  parquet: 'defaultParquetConfig',
  hdf5: 'defaultHdf5Config',
  ulog: 'defaultUlogConfig',
} as const;
export type BatchFileKind = keyof typeof BATCH_DEFAULT_KEYS;
/** A key a batch file entry can hold a config under: `csvConfig` ... `ulogConfig`. */
export type BatchFileKey = (typeof CONFIG_KIND_KEYS)[BatchFileKind];
export type BatchDefaultKey = (typeof BATCH_DEFAULT_KEYS)[BatchFileKind];
export const BATCH_FILE_KINDS = Object.keys(BATCH_DEFAULT_KEYS) as BatchFileKind[];
export const BATCH_FILE_KEYS = BATCH_FILE_KINDS.map((k) => CONFIG_KIND_KEYS[k]) as BatchFileKey[];

/** True for a key a batch file entry can hold a config under. */
export function isBatchFileKey(key: string): key is BatchFileKey {
  return (BATCH_FILE_KEYS as readonly string[]).includes(key);
}

/** The BatchConfig field holding the default for configs under `key` (`csvConfig` ...). */
export function batchDefaultKey(key: BatchFileKey): BatchDefaultKey {
  return BATCH_DEFAULT_KEYS[kindOfKey(key) as BatchFileKind];
}

/**
 * The DataTypeKey a file of a kind is listed with in a batch; a Parquet file's says its
 * layout (`singleChannelPerRow` set or not).
 */
export function dataTypeKeyOf(
  kind: Exclude<ConfigKind, 'batch'>,
  config?: { singleChannelPerRow?: unknown },
): Exclude<(typeof DATA_TYPE_KEY_VALUES)[number], 'DATA_TYPE_KEY_UNSPECIFIED'> {
  if (kind === 'parquet')
    return config?.singleChannelPerRow !== undefined
      ? 'DATA_TYPE_KEY_PARQUET_SINGLE_CHANNEL_PER_ROW'
      : 'DATA_TYPE_KEY_PARQUET_FLATDATASET';
  const found = (Object.keys(DATA_TYPE_KEY_KIND) as Array<keyof typeof DATA_TYPE_KEY_KIND>).find(
    (t) => DATA_TYPE_KEY_KIND[t] === kind,
  );
  if (found === undefined) throw new TypeError(`no DataTypeKey for ${kind}`);
  return found;
}

/**
 * A config kind that a format added to the format table at run time brings with it (a
 * plug-in format, or a test's): its document key, its name in messages, and its own check
 * of the value under that key. The validator accepts such a key as a document's config
 * (the built-in kinds are checked against the JSON Schemas instead).
 */
export interface AddedConfigKind {
  key: string;
  title: string;
  /** The issues of the config under `key` (`path` is its JSON pointer, `/<key>`). */
  validate?(config: unknown, path: string): Issue[];
}

const ADDED_KINDS = new Map<string, AddedConfigKind>();

/** Adds a config kind; returns the function that removes it. Refuses a key that is taken. */
export function registerConfigKind(kind: AddedConfigKind): () => void {
  if ((CONFIG_KEYS as readonly string[]).includes(kind.key) || ADDED_KINDS.has(kind.key))
    throw new Error(`config key '${kind.key}' is already taken`);
  ADDED_KINDS.set(kind.key, kind);
  return () => {
    if (ADDED_KINDS.get(kind.key) === kind) ADDED_KINDS.delete(kind.key);
  };
}

/** The added config kind under `key`, or undefined (a built-in key, or none). */
export function addedConfigKind(key: string): AddedConfigKind | undefined {
  return ADDED_KINDS.get(key);
}

/** The keys of `doc` that hold a config, built-in kinds first, then added ones. */
export function configKeysOf(doc: object): string[] {
  return [...CONFIG_KEYS, ...ADDED_KINDS.keys()].filter((k) => Object.hasOwn(doc, k));
}

/**
 * Where each config kind holds its channel configs, as paths from the config: a name is a
 * field, `*` each entry of a map (CSV's `dataColumns`, keyed by column number) and `#` each
 * item of a list. The validator's walk of a config's channels reads this table, and so
 * every caller of it (the emulator creates the channels it finds).
 */
export const CHANNEL_PLACES: Readonly<Record<ConfigKind, ReadonlyArray<readonly string[]>>> = {
  csv: [['dataColumns', '*']],
  tdms: [['data', '#', 'channelConfig']],
  hdf5: [['data', '#', 'channelConfig']],
  ulog: [['data', '#', 'channelConfig']],
  parquet: [
    ['flatDataset', 'dataColumns', '#', 'channelConfig'],
    ['singleChannelPerRow', 'columns', '#', 'columnConfig'],
    ['singleChannelPerRow', 'singleChannel', 'channel'],
  ],
  ch10: [],
  batch: [],
};

/**
 * Where each config kind holds its time format: the object that holds it and the field's
 * name (a relative format needs `relativeStartTime` beside it in the same object). A time
 * column (a holder below the config) must say its format, unless the config's `embedded`
 * flag is set: the file then carries its own time column (CSV's `useEmbeddedConfig`).
 */
export const TIME_FORMAT_PLACES: Readonly<
  Record<ConfigKind, ReadonlyArray<{ holder: readonly string[]; field: string; embedded?: string }>>
> = {
  csv: [{ holder: ['timeColumn'], field: 'format', embedded: 'useEmbeddedConfig' }],
  parquet: [
    { holder: ['flatDataset', 'timeColumn'], field: 'format' },
    { holder: ['singleChannelPerRow', 'timeColumn'], field: 'format' },
  ],
  tdms: [{ holder: [], field: 'timeFormat' }],
  hdf5: [{ holder: [], field: 'timeFormat' }],
  ulog: [],
  ch10: [],
  batch: [],
};
