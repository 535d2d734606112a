/**
 * The channel type a ULog field type has, by the platform's table: what infer declares in a
 * draft and what check judges a config's declared type against.
 */
import type { ChannelDataType } from '../../model/index.js';

/** Channel types of ULog field types (the platform's table); text fields are STRING. */
const ULOG_TYPES: Readonly<Record<string, ChannelDataType>> = {
  int8_t: 'CHANNEL_DATA_TYPE_INT_32',
  int16_t: 'CHANNEL_DATA_TYPE_INT_32',
  int32_t: 'CHANNEL_DATA_TYPE_INT_32',
  uint8_t: 'CHANNEL_DATA_TYPE_UINT_32',
  uint16_t: 'CHANNEL_DATA_TYPE_UINT_32',
  uint32_t: 'CHANNEL_DATA_TYPE_UINT_32',
  int64_t: 'CHANNEL_DATA_TYPE_INT_64',
  uint64_t: 'CHANNEL_DATA_TYPE_UINT_64',
  float: 'CHANNEL_DATA_TYPE_FLOAT',
  double: 'CHANNEL_DATA_TYPE_DOUBLE',
  bool: 'CHANNEL_DATA_TYPE_BOOL',
};

/** The channel type of a ULog field type (`float`, `uint8_t`, `char[16]` ...). */
export function ulogChannelTypeOf(ulogType: string): ChannelDataType {
  if (ulogType === 'char' || ulogType.startsWith('char[')) return 'CHANNEL_DATA_TYPE_STRING';
  return ULOG_TYPES[ulogType] ?? 'CHANNEL_DATA_TYPE_DOUBLE';
}
