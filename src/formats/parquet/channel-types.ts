/**
 * The channel type a Parquet column has, by the platform's table: what infer declares in a
 * draft and what check judges a config's declared type against.
 */
import type { ChannelDataType } from '../../model/index.js';
import type { ParquetFieldProfile } from './profile.js';

/** What a value column becomes: its channel type, and a note when the mapping loses something. */
export function parquetChannelTypeOf(f: ParquetFieldProfile): {
  dataType: ChannelDataType;
  note?: 'decimal' | 'temporal';
} {
  if (f.decimal) return { dataType: 'CHANNEL_DATA_TYPE_DOUBLE', note: 'decimal' };
  if (f.temporal) return { dataType: 'CHANNEL_DATA_TYPE_INT_64', note: 'temporal' };
  const lt = f.logicalType ?? '';
  switch (f.physicalType) {
    case 'BOOLEAN':
      return { dataType: 'CHANNEL_DATA_TYPE_BOOL' };
    case 'INT32':
      return {
        dataType:
          f.integer?.signed === false ? 'CHANNEL_DATA_TYPE_UINT_32' : 'CHANNEL_DATA_TYPE_INT_32',
      };
    case 'INT64':
      return {
        dataType:
          f.integer?.signed === false ? 'CHANNEL_DATA_TYPE_UINT_64' : 'CHANNEL_DATA_TYPE_INT_64',
      };
    case 'INT96':
      return { dataType: 'CHANNEL_DATA_TYPE_INT_64', note: 'temporal' };
    case 'FLOAT':
      return { dataType: 'CHANNEL_DATA_TYPE_FLOAT' };
    case 'DOUBLE':
      return { dataType: 'CHANNEL_DATA_TYPE_DOUBLE' };
    default:
      if (lt === 'FLOAT16') return { dataType: 'CHANNEL_DATA_TYPE_FLOAT' };
      if (isParquetText(f)) return { dataType: 'CHANNEL_DATA_TYPE_STRING' };
      return { dataType: 'CHANNEL_DATA_TYPE_BYTES' };
  }
}

/** STRING, ENUM, JSON and UUID columns hold text (UTF8 is the older name of STRING). */
export function isParquetText(f: ParquetFieldProfile): boolean {
  return ['STRING', 'UTF8', 'ENUM', 'JSON', 'UUID'].includes(f.logicalType ?? '');
}
