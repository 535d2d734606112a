import { z } from 'zod';
import { CsvConfig } from './csv.js';
import { DataTypeKey } from './enums.js';
import { Hdf5Config } from './hdf5.js';
import { ParquetConfig } from './parquet.js';
import { TdmsConfig } from './tdms.js';
import { UlogConfig } from './ulog.js';

/** One file inside the archive: its type and at most one config of its own. */
export const BatchFileConfig = z.strictObject({
  type: DataTypeKey,
  csvConfig: CsvConfig.optional(),
  tdmsConfig: TdmsConfig.optional(),
  parquetConfig: ParquetConfig.optional(),
  hdf5Config: Hdf5Config.optional(),
  ulogConfig: UlogConfig.optional(),
});
export type BatchFileConfig = z.infer<typeof BatchFileConfig>;

export const BatchConfig = z.strictObject({
  runName: z.string().optional(),
  runId: z.string().optional(),
  assetName: z.string().optional(),
  defaultCsvConfig: CsvConfig.optional(),
  defaultTdmsConfig: TdmsConfig.optional(),
  defaultParquetConfig: ParquetConfig.optional(),
  defaultHdf5Config: Hdf5Config.optional(),
  defaultUlogConfig: UlogConfig.optional(),
  /** Path inside the archive → that file's type and config. Only listed files are imported. */
  fileConfigs: z.record(z.string(), BatchFileConfig).optional(),
});
export type BatchConfig = z.infer<typeof BatchConfig>;
