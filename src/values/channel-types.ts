/**
 * The channel type a stored value has, by the platform's tables, for HDF5, Parquet and ULog
 * (TDMS's is in tdms-types.ts): what infer declares in a draft and what check and the value
 * tallies judge a config's declared type against. Below both stages, so check never reads
 * infer.
 */
import type { Hdf5Type, ParquetFieldProfile } from '../inspect/index.js';
import { typeName } from '../inspect/index.js';
import type { ChannelDataType, EnumType } from '../model/index.js';

// ---- HDF5 ------------------------------------------------------------------------------

export type Hdf5TypeChoice =
  | { dataType: ChannelDataType; enumTypes?: EnumType[] }
  | { skip: string };

/**
 * The channel type of an HDF5 type: int8/16/32 → INT_32, uint8/16/32 → UINT_32, int64 →
 * INT_64, uint64 → UINT_64, float16/32 → FLOAT, float64 → DOUBLE, h5py booleans (enum
 * FALSE=0/TRUE=1) → BOOL, other enums → ENUM, strings → STRING, opaque → BYTES; anything
 * else is skipped with the reason.
 */
export function hdf5ChannelTypeOf(t: Hdf5Type): Hdf5TypeChoice {
  switch (t.class) {
    case 'integer':
      if (t.size <= 4) {
        return { dataType: t.signed ? 'CHANNEL_DATA_TYPE_INT_32' : 'CHANNEL_DATA_TYPE_UINT_32' };
      }
      if (t.size === 8) {
        return { dataType: t.signed ? 'CHANNEL_DATA_TYPE_INT_64' : 'CHANNEL_DATA_TYPE_UINT_64' };
      }
      return { skip: `${typeName(t)}: integers wider than 64 bits have no channel type` };
    case 'float':
      if (t.size === 2 || t.size === 4) return { dataType: 'CHANNEL_DATA_TYPE_FLOAT' };
      if (t.size === 8) return { dataType: 'CHANNEL_DATA_TYPE_DOUBLE' };
      return { skip: `${typeName(t)}: floats wider than 64 bits have no channel type` };
    case 'string':
      return { dataType: 'CHANNEL_DATA_TYPE_STRING' };
    case 'opaque':
      return { dataType: 'CHANNEL_DATA_TYPE_BYTES' };
    case 'enum': {
      const members = t.enumMembers ?? [];
      if (isH5pyBoolean(members)) return { dataType: 'CHANNEL_DATA_TYPE_BOOL' };
      if (members.length === 0) return { skip: 'an enum with no members' };
      const signed = members.some((m) => m.value < 0);
      const outOfRange = members.find((m) => m.value < -(2 ** 31) || m.value > 2 ** 32 - 1);
      if (outOfRange) return { skip: `enum value ${outOfRange.value} does not fit 32 bits` };
      return {
        dataType: 'CHANNEL_DATA_TYPE_ENUM',
        enumTypes: members.map((m) => ({
          name: m.name,
          key: m.value >>> 0,
          ...(signed ? { isSigned: true } : {}),
        })),
      };
    }
    case 'bitfield':
      return {
        skip: `${typeName(t)}: a bitfield type names no bit layout (BIT_FIELD needs bitFieldElements)`,
      };
    case 'compound':
      return { skip: 'a compound nested in a compound has no channel type' };
    default:
      return { skip: `${typeName(t)}: no channel type for HDF5 ${t.class} data` };
  }
}

function isH5pyBoolean(members: ReadonlyArray<{ name: string; value: number }>): boolean {
  return (
    members.length === 2 &&
    members.some((m) => m.name === 'FALSE' && m.value === 0) &&
    members.some((m) => m.name === 'TRUE' && m.value === 1)
  );
}

// ---- Parquet ---------------------------------------------------------------------------

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

// ---- ULog ------------------------------------------------------------------------------

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
