import { z } from 'zod';
import {
  CHANNEL_DATA_TYPE_VALUES,
  DATA_IMPORT_STATUS_VALUES,
  DATA_TYPE_KEY_VALUES,
  METADATA_KEY_TYPE_VALUES,
  PARQUET_COMPLEX_TYPES_IMPORT_MODE_VALUES,
  TDMS_COMPLEX_COMPONENT_VALUES,
  TDMS_FALLBACK_METHOD_VALUES,
  TIME_FORMAT_VALUES,
  ULOG_PARSE_ERROR_POLICY_VALUES,
} from './enum-values.js';

export * from './enum-values.js';

/** The platform's enumerations as zod enums, from the value lists in `enum-values.ts`. */
export const TimeFormat = z.enum(TIME_FORMAT_VALUES);
export type TimeFormat = z.infer<typeof TimeFormat>;

export const ChannelDataType = z.enum(CHANNEL_DATA_TYPE_VALUES);
export type ChannelDataType = z.infer<typeof ChannelDataType>;

export const DataImportStatus = z.enum(DATA_IMPORT_STATUS_VALUES);
export type DataImportStatus = z.infer<typeof DataImportStatus>;

export const DataTypeKey = z.enum(DATA_TYPE_KEY_VALUES);
export type DataTypeKey = z.infer<typeof DataTypeKey>;

export const TdmsFallbackMethod = z.enum(TDMS_FALLBACK_METHOD_VALUES);
export type TdmsFallbackMethod = z.infer<typeof TdmsFallbackMethod>;

export const TdmsComplexComponent = z.enum(TDMS_COMPLEX_COMPONENT_VALUES);
export type TdmsComplexComponent = z.infer<typeof TdmsComplexComponent>;

export const ParquetComplexTypesImportMode = z.enum(PARQUET_COMPLEX_TYPES_IMPORT_MODE_VALUES);
export type ParquetComplexTypesImportMode = z.infer<typeof ParquetComplexTypesImportMode>;

export const UlogParseErrorPolicy = z.enum(ULOG_PARSE_ERROR_POLICY_VALUES);
export type UlogParseErrorPolicy = z.infer<typeof UlogParseErrorPolicy>;

export const MetadataKeyType = z.enum(METADATA_KEY_TYPE_VALUES);
export type MetadataKeyType = z.infer<typeof MetadataKeyType>;

/** The reference shows only UNSPECIFIED for the function data type; other values are kept as given. */
export const FunctionDataType = z.string();
export type FunctionDataType = z.infer<typeof FunctionDataType>;
