/** Parquet: its entry in the format table. */
import type { ParquetConfig } from '../../model/index.js';
import { CONFIG_KIND_KEYS, dataTypeKeyOf } from '../../model/plain.js';
import type { FormatEntry } from '../types.js';

export const parquet: FormatEntry = {
  id: 'parquet',
  title: 'Parquet',
  extensions: ['.parquet', '.pqt'],
  magic: [{ bytes: [0x50, 0x41, 0x52, 0x31] }], // PAR1
  config: { key: CONFIG_KIND_KEYS.parquet, title: 'ParquetConfig', kind: 'parquet' },
  docs: { page: 'configs/parquet.md', imports: 'flat tables, or one channel per row' },
  // The DataTypeKey says the layout: flat, or one channel per row.
  dataTypeKey: (config) => dataTypeKeyOf('parquet', config),
  inspect: async (path) => (await import('./inspect.js')).inspectParquet(path),
  inspectWithSamples: async (path) =>
    (await import('./inspect.js')).inspectParquetWithSamples(path),
  infer: async (path, options) => (await import('./infer.js')).inferParquet(path, options),
  inferSource: async (source, options) =>
    (await import('./infer.js')).inferParquetSource(source, options),
  inferOptions: ['timeColumn', 'timeFormat', 'relativeStartTime', 'layout', 'complexTypes'],
  reads: {
    sampled: 'its footer read (schema and column statistics), no values; `full` reads values',
    full: 'its footer and every value of its time column and typed channel columns read',
  },
  check: async (config, source, options) =>
    (await import('./check.js')).checkParquet(config as ParquetConfig, source, options),
  rows: async () => (await import('./rows.js')).parquetRows,
  facts: async () => (await import('./facts.js')).parquetFacts,
};
