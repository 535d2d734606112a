import type {
  BitFieldElement,
  ChannelConfig,
  EnumType,
  MetadataKeyType,
  MetadataValue,
} from '../model/index.js';
import { knownKeys, put } from './_common.js';
import { type DataTypeName, dataType } from './_names.js';

type EnumTypeName = 'ENUM' | 'enum' | 'CHANNEL_DATA_TYPE_ENUM';
type BitFieldTypeName = 'BIT_FIELD' | 'bit_field' | 'CHANNEL_DATA_TYPE_BIT_FIELD';

/** Enum values: `{ 0: 'off', 1: 'on' }` (key → name), or the platform's list. */
export type EnumValuesInput =
  | Readonly<Record<number, string>>
  | ReadonlyArray<{ key: number; name: string; isSigned?: boolean }>;

/**
 * Bit-field elements: `{ ready: 1, mode: 3 }` (name → bit count, packed from bit 0 in
 * order), or a list of `{ name, bitCount, index? }` where a missing index starts right
 * after the previous element.
 */
export type BitsInput =
  | Readonly<Record<string, number>>
  | ReadonlyArray<{ name: string; bitCount: number; index?: number }>;

/** Metadata: `{ vehicle: 'car-7', lap: 3, wet: false }`, or the platform's list. */
export type MetadataInput =
  | Readonly<Record<string, string | number | boolean>>
  | readonly MetadataValue[];

interface ChannelFields {
  units?: string;
  description?: string;
  metadata?: MetadataInput;
}

/** The data type, with the list an ENUM (`values`) or BIT_FIELD (`bits`) channel needs. */
export type ChannelTypeInput =
  | { type: Exclude<DataTypeName, EnumTypeName | BitFieldTypeName>; values?: never; bits?: never }
  | { type: EnumTypeName; values: EnumValuesInput; bits?: never }
  | { type: BitFieldTypeName; bits: BitsInput; values?: never };

/** A channel: `{ name: 'speed', type: 'double', units: 'm/s' }`. */
export type ChannelInput = ChannelFields & ChannelTypeInput & { name: string };

/** A channel whose name defaults to its column path or dataset. */
export type ColumnChannelInput = ChannelFields & ChannelTypeInput & { name?: string };

function enumTypes(values: EnumValuesInput): EnumType[] {
  if (Array.isArray(values)) {
    return values.map((v: { key: number; name: string; isSigned?: boolean }) => {
      const out: EnumType = { name: v.name, key: v.key };
      put(out, 'isSigned', v.isSigned);
      return out;
    });
  }
  return Object.entries(values as Record<string, string>).map(([key, name]) => ({
    name,
    key: Number(key),
  }));
}

function bitFieldElements(bits: BitsInput): BitFieldElement[] {
  const list: ReadonlyArray<{ name: string; bitCount: number; index?: number }> = Array.isArray(
    bits,
  )
    ? bits
    : Object.entries(bits as Record<string, number>).map(([name, bitCount]) => ({
        name,
        bitCount,
      }));
  let next = 0;
  return list.map((b) => {
    const index = b.index ?? next;
    next = index + b.bitCount;
    return { name: b.name, index, bitCount: b.bitCount };
  });
}

const KEY_TYPE = {
  string: 'METADATA_KEY_TYPE_STRING',
  number: 'METADATA_KEY_TYPE_NUMBER',
  boolean: 'METADATA_KEY_TYPE_BOOLEAN',
} as const satisfies Record<string, MetadataKeyType>;

/** Metadata entries from a plain object, each with the key type of its value. */
export function metadata(input: MetadataInput): MetadataValue[] {
  if (Array.isArray(input)) return [...(input as readonly MetadataValue[])];
  return Object.entries(input as Record<string, string | number | boolean>).map(([name, v]) => {
    const key = { name, type: KEY_TYPE[typeof v as 'string' | 'number' | 'boolean'] };
    if (typeof v === 'string') return { key, stringValue: v };
    if (typeof v === 'number') return { key, numberValue: v };
    return { key, booleanValue: v };
  });
}

/**
 * A channel config in the platform's form: `channel({ name: 'gear', type: 'enum',
 * values: { 0: 'park', 1: 'drive' } })` → `{ name: 'gear', dataType:
 * 'CHANNEL_DATA_TYPE_ENUM', enumTypes: [...] }`. Checked when the config around it is built.
 */
export function channel(input: ChannelInput | ColumnChannelInput): ChannelConfig {
  return channelOf('channel()', input, '');
}

const CHANNEL_KEYS = ['name', 'type', 'units', 'description', 'metadata', 'values', 'bits'];

/** A channel config from builder input at `at` within the input of `builder`. */
export function channelOf(
  builder: string,
  input: ChannelInput | ColumnChannelInput,
  at: string,
): ChannelConfig {
  knownKeys(builder, input, CHANNEL_KEYS, at);
  const out: ChannelConfig = {};
  put(out, 'name', input.name);
  put(out, 'units', input.units);
  put(out, 'description', input.description);
  out.dataType = dataType(input.type);
  if (input.values !== undefined) out.enumTypes = enumTypes(input.values);
  if (input.bits !== undefined) out.bitFieldElements = bitFieldElements(input.bits);
  if (input.metadata !== undefined) out.metadata = metadata(input.metadata);
  return out;
}
