/**
 * Typed builders: short to write in a script, and their output is always a valid config
 * in the platform's canonical form (or they throw ConfigBuildError with the issues).
 */
export type { Int64Input, RunInput, TimeInput, TimeSpec } from './_common.js';
export type {
  AbsoluteTimeFormatName,
  ComplexTypesImportModeName,
  DataTypeName,
  FileTypeName,
  RelativeTimeFormatName,
  ShortName,
  TdmsComplexComponentName,
  TdmsFallbackMethodName,
  TimeFormatName,
  UlogParseErrorPolicyName,
} from './_names.js';
export {
  type BatchConfigInput,
  type BatchDocument,
  batchConfig,
  type FileDocument,
} from './batch.js';
export { type Ch10ConfigInput, type Ch10Document, ch10Config } from './ch10.js';
export {
  type BitsInput,
  type ChannelInput,
  type ChannelTypeInput,
  type ColumnChannelInput,
  channel,
  type EnumValuesInput,
  type MetadataInput,
} from './channel.js';
export {
  type CsvColumnsDocument,
  type CsvConfigInput,
  type CsvDocument,
  type CsvTimeInput,
  csvConfig,
} from './csv.js';
export { ConfigBuildError } from './error.js';
export { type Hdf5ConfigInput, type Hdf5DataInput, type Hdf5Document, hdf5Config } from './hdf5.js';
export {
  type FlatInput,
  type FooterInput,
  type MultiChannelInput,
  type ParquetColumnsInput,
  type ParquetConfigInput,
  type ParquetDocument,
  type ParquetTimeInput,
  parquetConfig,
  type SingleChannelInput,
} from './parquet.js';
export {
  type TdmsConfigInput,
  type TdmsDataInput,
  type TdmsDocument,
  tdmsConfig,
} from './tdms.js';
export { type UlogConfigInput, type UlogDataInput, type UlogDocument, ulogConfig } from './ulog.js';
export { fromUrl } from './url.js';
