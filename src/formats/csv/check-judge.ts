/**
 * How a CSV check judges one cell of a checked column against its declared type, on the
 * cell's bytes: the common shapes (a short integer, a plain decimal) in one tight pass
 * each, the rest by the full number grammar, booleans and enum keys. A judge is decided
 * once per column; the tally (check-tally.ts) calls it per cell.
 */
import type { ChannelDataType } from '../../model/index.js';
import {
  type IntRange,
  intFits,
  isBool,
  Num,
  numberOf,
  numKind,
  significantDigits,
} from './check-cells.js';
import { type CsvRecord, fieldText } from './scan.js';

/**
 * `[+-]digits` with 1 to 9 digits: fits every integer type (`-` only the signed ones),
 * as 9 digits stay below 2^31.
 */
export function isShortInt(b: Uint8Array, s: number, e: number, signed: boolean): boolean {
  let q = s;
  const c0 = b[q] as number;
  if (c0 === 43 || (c0 === 45 && signed)) q += 1;
  if (e - q < 1 || e - q > 9) return false;
  for (; q < e; q++) {
    // One unsigned compare: a byte under '0' wraps to above 9.
    if (((b[q] as number) - 48) >>> 0 > 9) return false;
  }
  return true;
}

/** `[+-]digits[.digits]` with at least one digit: a number, decided in one tight pass. */
export function isPlainDecimal(b: Uint8Array, s: number, e: number): boolean {
  let q = s;
  const c0 = b[q] as number;
  if (c0 === 45 || c0 === 43) q += 1;
  const from = q;
  let dots = 0;
  for (; q < e; q++) {
    const d = (b[q] as number) - 48;
    // One unsigned compare for the digits (a byte under '0' wraps to above 9): about 1% of a
    // full check of bench/check's 1 GB, four alternated runs each.
    if (d >>> 0 <= 9) continue;
    if (d !== -2 || dots > 0) return false;
    dots = 1;
  }
  return e - from > dots;
}

export const OK = 0;
export const BAD = 1;
export const LOSSY = 2;
/** A DOUBLE or FLOAT cell that is NaN or infinite: a number the platform takes, counted. */
export const NOT_FINITE = 3;

/** The first byte of a number cell after its sign. */
export const afterSign = (b: Uint8Array, s: number): number =>
  (b[s] === 43 || b[s] === 45 ? b[s + 1] : b[s]) as number;

/** A number cell (already known to be one) spelled as a word: `nan`, `inf`, `infinity`. */
function isWordNumber(b: Uint8Array, s: number): boolean {
  // 'n' or 'i' in either case: no other number begins with a letter.
  const c = afterSign(b, s) | 32;
  return c === 110 || c === 105;
}

/** How a column's cells are judged, decided once per column (not per cell). */
export const J_NONE = 0;
export const J_DOUBLE = 1;
const J_FLOAT = 2;
export const J_INT = 3;
export const J_BOOL = 4;
const J_ENUM = 5;

export interface Judge {
  /** 0-based field index. */
  at: number;
  kind: number;
  range: IntRange;
  /** INT_32 and INT_64 (negative values fit). */
  signed: boolean;
  enumKeys: EnumKeys | undefined;
}

export function judgeOf(at: number, t: ChannelDataType, enumTypes: string[] | undefined): Judge {
  const base = { at, range: 'INT_64' as IntRange, signed: true, enumKeys: undefined };
  switch (t) {
    case 'CHANNEL_DATA_TYPE_DOUBLE':
      return { ...base, kind: J_DOUBLE };
    case 'CHANNEL_DATA_TYPE_FLOAT':
      return { ...base, kind: J_FLOAT };
    case 'CHANNEL_DATA_TYPE_INT_32':
    case 'CHANNEL_DATA_TYPE_UINT_32':
    case 'CHANNEL_DATA_TYPE_INT_64':
    case 'CHANNEL_DATA_TYPE_UINT_64':
      return {
        ...base,
        kind: J_INT,
        range: t.slice('CHANNEL_DATA_TYPE_'.length) as IntRange,
        signed: t === 'CHANNEL_DATA_TYPE_INT_32' || t === 'CHANNEL_DATA_TYPE_INT_64',
      };
    case 'CHANNEL_DATA_TYPE_BIT_FIELD':
      return { ...base, kind: J_INT, range: 'UINT_64', signed: false };
    case 'CHANNEL_DATA_TYPE_BOOL':
      return { ...base, kind: J_BOOL };
    case 'CHANNEL_DATA_TYPE_ENUM':
      return { ...base, kind: J_ENUM, enumKeys: enumKeysOf(enumTypes ?? []) };
    default:
      return { ...base, kind: J_NONE };
  }
}

export function judge(
  b: Uint8Array,
  s: number,
  e: number,
  j: Judge,
  col: { allSmallInts: boolean },
  rec: CsvRecord,
  i: number,
): number {
  switch (j.kind) {
    case J_DOUBLE: {
      const k = numKind(b, s, e);
      if (k === Num.NotNumber) return BAD;
      if (k === Num.Double && isWordNumber(b, s)) return NOT_FINITE;
      if (col.allSmallInts && (k !== Num.Int || !intFits(b, s, e, 'INT_32')))
        col.allSmallInts = false;
      return OK;
    }
    case J_FLOAT: {
      const k = numKind(b, s, e);
      if (k === Num.NotNumber) return BAD;
      if (k === Num.Double && isWordNumber(b, s)) return NOT_FINITE;
      if (e - s > 8 || k === Num.Double) {
        const v = numberOf(b, s, e);
        if (Number.isFinite(v) && Math.abs(v) > 3.4028234663852886e38) return BAD;
        return significantDigits(b, s, e) > 7 ? LOSSY : OK;
      }
      return OK;
    }
    case J_INT:
      return numKind(b, s, e) === Num.Int && intFits(b, s, e, j.range) ? OK : BAD;
    case J_BOOL:
      return isBool(b, s, e) ? OK : BAD;
    case J_ENUM:
      return isEnumKey(j.enumKeys as EnumKeys, b, s, e, rec, i) ? OK : BAD;
    default:
      return OK;
  }
}

/** The names and keys of an enum channel as UTF-8 bytes, grouped by length. */
type EnumKeys = Map<number, Uint8Array[]>;

function enumKeysOf(names: string[]): EnumKeys {
  const out: EnumKeys = new Map();
  const utf8 = new TextEncoder();
  for (const name of names) {
    const bytes = utf8.encode(name);
    const list = out.get(bytes.length) ?? [];
    list.push(bytes);
    out.set(bytes.length, list);
  }
  return out;
}

/** True when the (trimmed) cell is one of the keys, compared on bytes. */
function isEnumKey(
  keys: EnumKeys,
  b: Uint8Array,
  s: number,
  e: number,
  rec: CsvRecord,
  i: number,
): boolean {
  if (rec.anyQuoted && rec.quoted[i]) {
    // A quoted cell may hold `""` pairs: compare its text.
    const text = new TextEncoder().encode(fieldText(rec, i).trim());
    return isEnumKey(keys, text, 0, text.length, { ...rec, anyQuoted: false }, i);
  }
  const list = keys.get(e - s);
  if (!list) return false;
  outer: for (const key of list) {
    for (let k = 0; k < key.length; k++) if (b[s + k] !== key[k]) continue outer;
    return true;
  }
  return false;
}
