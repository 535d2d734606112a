import {
  CHANNEL_DATA_TYPE_VALUES,
  type ChannelDataType,
  DATA_TYPE_KEY_VALUES,
  type DataTypeKey,
  PARQUET_COMPLEX_TYPES_IMPORT_MODE_VALUES,
  type ParquetComplexTypesImportMode,
  TDMS_COMPLEX_COMPONENT_VALUES,
  TDMS_FALLBACK_METHOD_VALUES,
  type TdmsComplexComponent,
  type TdmsFallbackMethod,
  TIME_FORMAT_VALUES,
  type TimeFormat,
  ULOG_PARSE_ERROR_POLICY_VALUES,
  type UlogParseErrorPolicy,
} from '../model/index.js';

/**
 * The names a builder accepts for an enum value: the full platform name
 * (`CHANNEL_DATA_TYPE_DOUBLE`), the name without its prefix (`DOUBLE`) or that in lower
 * case (`double`). UNSPECIFIED is never accepted: a builder writes only real values.
 */
export type ShortName<V extends string, P extends string> = V extends `${P}UNSPECIFIED`
  ? never
  : V extends `${P}${infer S}`
    ? S | Lowercase<S> | V
    : never;

export type DataTypeName = ShortName<ChannelDataType, 'CHANNEL_DATA_TYPE_'>;
export type TimeFormatName = ShortName<TimeFormat, 'TIME_FORMAT_'>;
export type RelativeTimeFormatName = ShortName<
  Extract<TimeFormat, `TIME_FORMAT_RELATIVE_${string}`>,
  'TIME_FORMAT_'
>;
export type AbsoluteTimeFormatName = ShortName<
  Extract<TimeFormat, `TIME_FORMAT_ABSOLUTE_${string}`>,
  'TIME_FORMAT_'
>;
export type FileTypeName = ShortName<DataTypeKey, 'DATA_TYPE_KEY_'>;
export type TdmsFallbackMethodName = ShortName<TdmsFallbackMethod, 'TDMS_FALLBACK_METHOD_'>;
export type TdmsComplexComponentName = ShortName<TdmsComplexComponent, 'TDMS_COMPLEX_COMPONENT_'>;
export type ComplexTypesImportModeName = ShortName<
  ParquetComplexTypesImportMode,
  'PARQUET_COMPLEX_TYPES_IMPORT_MODE_'
>;
export type UlogParseErrorPolicyName = ShortName<UlogParseErrorPolicy, 'ULOG_PARSE_ERROR_POLICY_'>;

/**
 * The full platform name of a short one. A name that matches no value is passed on
 * prefixed, so that validation reports it with the nearest valid name.
 */
function full<V extends string>(prefix: string, values: readonly V[], name: string): V {
  // Not a string (from JavaScript): passed on for validation to report its type.
  if (typeof name !== 'string') return name as V;
  const upper = name.toUpperCase();
  const candidate = upper.startsWith(prefix) ? upper : `${prefix}${upper}`;
  const found = values.find((v) => v === candidate);
  return (found ?? candidate) as V;
}

export const dataType = (name: DataTypeName): ChannelDataType =>
  full('CHANNEL_DATA_TYPE_', CHANNEL_DATA_TYPE_VALUES, name);
export const timeFormat = (name: TimeFormatName): TimeFormat =>
  full('TIME_FORMAT_', TIME_FORMAT_VALUES, name);
export const fileType = (name: FileTypeName): DataTypeKey =>
  full('DATA_TYPE_KEY_', DATA_TYPE_KEY_VALUES, name);
export const fallbackMethod = (name: TdmsFallbackMethodName): TdmsFallbackMethod =>
  full('TDMS_FALLBACK_METHOD_', TDMS_FALLBACK_METHOD_VALUES, name);
export const complexComponent = (name: TdmsComplexComponentName): TdmsComplexComponent =>
  full('TDMS_COMPLEX_COMPONENT_', TDMS_COMPLEX_COMPONENT_VALUES, name);
export const complexTypesImportMode = (
  name: ComplexTypesImportModeName,
): ParquetComplexTypesImportMode =>
  full('PARQUET_COMPLEX_TYPES_IMPORT_MODE_', PARQUET_COMPLEX_TYPES_IMPORT_MODE_VALUES, name);
export const parseErrorPolicy = (name: UlogParseErrorPolicyName): UlogParseErrorPolicy =>
  full('ULOG_PARSE_ERROR_POLICY_', ULOG_PARSE_ERROR_POLICY_VALUES, name);
