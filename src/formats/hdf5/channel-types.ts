/**
 * The channel type an HDF5 stored type has, by the platform's table: what infer declares in
 * a draft and what check and the value tallies judge a config's declared type against.
 */
import type { ChannelDataType, EnumType } from '../../model/index.js';
import { type Hdf5Type, typeName } from './inspect.js';

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
