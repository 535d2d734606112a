import { z } from 'zod';
import { BatchConfig } from './batch.js';
import { Ch10Config } from './ch10.js';
import { CsvConfig } from './csv.js';
import { Hdf5Config } from './hdf5.js';
import { CONFIG_KIND_KEYS } from './kinds.js';
import { ParquetConfig } from './parquet.js';
import { TdmsConfig } from './tdms.js';
import { UlogConfig } from './ulog.js';

export { MAX_NESTING_DEPTH } from './bounds.js';
export {
  CONFIG_KEYS,
  CONFIG_KIND_KEYS,
  CONFIG_KIND_NAMES,
  type ConfigKey,
  type ConfigKind,
  DATA_TYPE_KEY_KIND,
  kindOfKey,
} from './kinds.js';

/** The kinds of import config, each mapped to its document key and zod schema in one table. */
export const CONFIG_KINDS = {
  csv: { key: CONFIG_KIND_KEYS.csv, schema: CsvConfig, title: 'CsvConfig' },
  ch10: { key: CONFIG_KIND_KEYS.ch10, schema: Ch10Config, title: 'Ch10Config' },
  tdms: { key: CONFIG_KIND_KEYS.tdms, schema: TdmsConfig, title: 'TdmsConfig' },
  parquet: { key: CONFIG_KIND_KEYS.parquet, schema: ParquetConfig, title: 'ParquetConfig' },
  hdf5: { key: CONFIG_KIND_KEYS.hdf5, schema: Hdf5Config, title: 'Hdf5Config' },
  ulog: { key: CONFIG_KIND_KEYS.ulog, schema: UlogConfig, title: 'UlogConfig' },
  batch: { key: CONFIG_KIND_KEYS.batch, schema: BatchConfig, title: 'BatchConfig' },
} as const;

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
