/**
 * The platform's enumerations with every value, in number order, as written in the
 * proto3 JSON mapping (full prefixed names). `ENUM_NUMBERS` keeps each name's number so
 * that input written with numbers can be read. Plain values, no zod: validation loads them
 * without the zod model (`enums.ts` builds the zod enums from them).
 */
function prefixed<const P extends string, const V extends readonly string[]>(prefix: P, values: V) {
  return values.map((v) => `${prefix}${v}`) as { [K in keyof V]: `${P}${V[K] & string}` };
}

export const TIME_FORMAT_VALUES = prefixed('TIME_FORMAT_', [
  'UNSPECIFIED',
  'RELATIVE_NANOSECONDS',
  'RELATIVE_MICROSECONDS',
  'RELATIVE_MILLISECONDS',
  'RELATIVE_SECONDS',
  'RELATIVE_MINUTES',
  'RELATIVE_HOURS',
  'ABSOLUTE_RFC3339',
  'ABSOLUTE_DATETIME',
  'ABSOLUTE_UNIX_SECONDS',
  'ABSOLUTE_UNIX_MILLISECONDS',
  'ABSOLUTE_UNIX_MICROSECONDS',
  'ABSOLUTE_UNIX_NANOSECONDS',
] as const);

export const CHANNEL_DATA_TYPE_VALUES = prefixed('CHANNEL_DATA_TYPE_', [
  'UNSPECIFIED',
  'DOUBLE',
  'STRING',
  'ENUM',
  'BIT_FIELD',
  'BOOL',
  'FLOAT',
  'INT_32',
  'UINT_32',
  'INT_64',
  'UINT_64',
  'BYTES',
] as const);

export const DATA_IMPORT_STATUS_VALUES = prefixed('DATA_IMPORT_STATUS_', [
  'UNSPECIFIED',
  'PENDING',
  'IN_PROGRESS',
  'SUCCEEDED',
  'FAILED',
] as const);

export const DATA_TYPE_KEY_VALUES = prefixed('DATA_TYPE_KEY_', [
  'UNSPECIFIED',
  'CSV',
  'TDMS',
  'CH10',
  'PARQUET_FLATDATASET',
  'PARQUET_SINGLE_CHANNEL_PER_ROW',
  'HDF5',
  'ULOG',
] as const);

export const TDMS_FALLBACK_METHOD_VALUES = prefixed('TDMS_FALLBACK_METHOD_', [
  'UNSPECIFIED',
  'FAIL_ON_ERROR',
  'IGNORE_ERROR',
] as const);

export const TDMS_COMPLEX_COMPONENT_VALUES = prefixed('TDMS_COMPLEX_COMPONENT_', [
  'UNSPECIFIED',
  'REAL',
  'IMAGINARY',
] as const);

export const PARQUET_COMPLEX_TYPES_IMPORT_MODE_VALUES = prefixed(
  'PARQUET_COMPLEX_TYPES_IMPORT_MODE_',
  ['UNSPECIFIED', 'IGNORE', 'BOTH', 'STRING', 'BYTES'] as const,
);

export const ULOG_PARSE_ERROR_POLICY_VALUES = prefixed('ULOG_PARSE_ERROR_POLICY_', [
  'UNSPECIFIED',
  'FAIL_ON_ERROR',
  'IGNORE_ERROR',
] as const);

export const METADATA_KEY_TYPE_VALUES = prefixed('METADATA_KEY_TYPE_', [
  'UNSPECIFIED',
  'STRING',
  'NUMBER',
  'BOOLEAN',
] as const);

/** One table of every enumeration: its prefix, its values in number order, and numbers that are gaps. */
export interface EnumInfo {
  name: string;
  prefix: string;
  values: readonly string[];
  /** The proto number of each value (TimeFormat skips 7-9). */
  numbers: readonly number[];
  /** Values the platform deprecated or treats as "not set". */
  unspecified: string;
}

function info(
  name: string,
  prefix: string,
  values: readonly string[],
  numbers?: number[],
): EnumInfo {
  return {
    name,
    prefix,
    values,
    numbers: numbers ?? values.map((_, i) => i),
    unspecified: `${prefix}UNSPECIFIED`,
  };
}

export const ENUMS = {
  TimeFormat: info(
    'TimeFormat',
    'TIME_FORMAT_',
    TIME_FORMAT_VALUES,
    [0, 1, 2, 3, 4, 5, 6, 10, 11, 12, 13, 14, 15],
  ),
  ChannelDataType: info('ChannelDataType', 'CHANNEL_DATA_TYPE_', CHANNEL_DATA_TYPE_VALUES),
  DataImportStatus: info('DataImportStatus', 'DATA_IMPORT_STATUS_', DATA_IMPORT_STATUS_VALUES),
  DataTypeKey: info('DataTypeKey', 'DATA_TYPE_KEY_', DATA_TYPE_KEY_VALUES),
  TdmsFallbackMethod: info(
    'TdmsFallbackMethod',
    'TDMS_FALLBACK_METHOD_',
    TDMS_FALLBACK_METHOD_VALUES,
  ),
  TdmsComplexComponent: info(
    'TdmsComplexComponent',
    'TDMS_COMPLEX_COMPONENT_',
    TDMS_COMPLEX_COMPONENT_VALUES,
  ),
  ParquetComplexTypesImportMode: info(
    'ParquetComplexTypesImportMode',
    'PARQUET_COMPLEX_TYPES_IMPORT_MODE_',
    PARQUET_COMPLEX_TYPES_IMPORT_MODE_VALUES,
  ),
  UlogParseErrorPolicy: info(
    'UlogParseErrorPolicy',
    'ULOG_PARSE_ERROR_POLICY_',
    ULOG_PARSE_ERROR_POLICY_VALUES,
  ),
  MetadataKeyType: info('MetadataKeyType', 'METADATA_KEY_TYPE_', METADATA_KEY_TYPE_VALUES),
} as const satisfies Record<string, EnumInfo>;

type TimeFormatName = (typeof TIME_FORMAT_VALUES)[number];

/** Time formats that count from a start time (they need relativeStartTime). */
export const RELATIVE_TIME_FORMATS: readonly TimeFormatName[] = TIME_FORMAT_VALUES.filter((v) =>
  v.startsWith('TIME_FORMAT_RELATIVE_'),
);
export const ABSOLUTE_TIME_FORMATS: readonly TimeFormatName[] = TIME_FORMAT_VALUES.filter((v) =>
  v.startsWith('TIME_FORMAT_ABSOLUTE_'),
);
export function isRelativeTimeFormat(f: string): boolean {
  return f.startsWith('TIME_FORMAT_RELATIVE_');
}
