import { PRIMITIVE_SIZES, parseFieldDef, type UlogFieldDef } from './format.js';
import { text, view } from './reader.js';

/** A decoded info or parameter value: text, a number, a 64-bit integer as a decimal string, a flag. */
export type UlogScalar = string | number | boolean;
export type UlogValue = UlogScalar | UlogScalar[];

/** An info, multi-info or parameter key: `char[5] ver_sw` → type `char`, length 5, name `ver_sw`. */
export type UlogKey = UlogFieldDef;

export function parseKey(key: string): UlogKey | undefined {
  return parseFieldDef(key);
}

/** `char[5]`, `int32_t`, `float[3]`: a key's type as written in the file. */
export function typeText(k: UlogKey): string {
  return k.arrayLength === undefined ? k.type : `${k.type}[${k.arrayLength}]`;
}

export function scalarAt(type: string, dv: DataView, at: number): UlogScalar {
  switch (type) {
    case 'int8_t':
      return dv.getInt8(at);
    case 'uint8_t':
      return dv.getUint8(at);
    case 'int16_t':
      return dv.getInt16(at, true);
    case 'uint16_t':
      return dv.getUint16(at, true);
    case 'int32_t':
      return dv.getInt32(at, true);
    case 'uint32_t':
      return dv.getUint32(at, true);
    case 'int64_t':
      return dv.getBigInt64(at, true).toString();
    case 'uint64_t':
      return dv.getBigUint64(at, true).toString();
    case 'float':
      return dv.getFloat32(at, true);
    case 'double':
      return dv.getFloat64(at, true);
    default:
      return dv.getUint8(at) !== 0;
  }
}

/**
 * Decodes the value of a key as pyulog does: text for `char` and `char[N]`; a number (a
 * 64-bit integer as decimal text) for a primitive, undefined when the bytes are too few for
 * it; a list for a primitive array (its whole elements, as many as the bytes hold); the
 * bytes themselves (a list of 0-255) for any other type (a nested format, a type the
 * format does not define), which pyulog keeps raw.
 */
export function decodeValue(k: UlogKey, bytes: Uint8Array): UlogValue | undefined {
  if (k.type === 'char') return text(bytes);
  const size = PRIMITIVE_SIZES[k.type];
  if (size === undefined) return [...bytes];
  const dv = view(bytes);
  if (k.arrayLength === undefined) {
    return bytes.byteLength < size ? undefined : scalarAt(k.type, dv, 0);
  }
  const count = Math.min(k.arrayLength, Math.floor(bytes.byteLength / size));
  return Array.from({ length: count }, (_, i) => scalarAt(k.type, dv, i * size));
}
