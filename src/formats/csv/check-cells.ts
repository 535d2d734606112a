/**
 * Judging one CSV cell against a declared channel type or time format, on its bytes
 * (ASCII digits, signs, dots): no string is made for cells that fit. Text is decoded only
 * for the rare cells that need it (special floats, booleans, enum names, 19+ digit integers).
 */
import { INT64_MAX, INT64_MIN, UINT64_MAX } from '../../model/plain.js';

const D0 = 48;
const D9 = 57;
const PLUS = 43;
const MINUS = 45;
const DOT = 46;

const LATIN1 = new TextDecoder('latin1');

/** What a numeric cell is: not a number, an integer, or a decimal/scientific number. */
export const Num = { NotNumber: 0, Int: 1, Double: 2 } as const;
export type Num = (typeof Num)[keyof typeof Num];

/** Byte classes for the fast number test: digit 1, dot 2, anything else 4. */
const CLASS = new Uint8Array(256).fill(4);
for (let c = D0; c <= D9; c++) CLASS[c] = 1;
CLASS[DOT] = 2;

/**
 * Classifies trimmed bytes as an integer, a decimal/scientific number, or neither.
 * `nan`, `inf`, `infinity` (any case, signed) count as doubles. The common shapes
 * (`-12`, `3.25`) are decided in one branch-light pass; the rest by the full grammar.
 */
export function numKind(b: Uint8Array, s: number, e: number): Num {
  let i = s;
  const c0 = b[s] as number;
  if (c0 === PLUS || c0 === MINUS) i += 1;
  if (i < e) {
    let mask = 0;
    let dots = 0;
    for (let j = i; j < e; j++) {
      const k = CLASS[b[j] as number] as number;
      mask |= k;
      dots += k >> 1;
    }
    if (mask === 1) return Num.Int;
    if (mask === 3 && dots === 1) return Num.Double;
  }
  return numKindFull(b, s, e);
}

function numKindFull(b: Uint8Array, s: number, e: number): Num {
  if (s >= e) return Num.NotNumber;
  let i = s;
  const c0 = b[i] as number;
  if (c0 === PLUS || c0 === MINUS) i += 1;
  let digits = 0;
  while (i < e && (b[i] as number) >= D0 && (b[i] as number) <= D9) {
    i += 1;
    digits += 1;
  }
  if (i === e) return digits > 0 ? Num.Int : Num.NotNumber;
  let frac = 0;
  if (b[i] === DOT) {
    i += 1;
    while (i < e && (b[i] as number) >= D0 && (b[i] as number) <= D9) {
      i += 1;
      frac += 1;
    }
  }
  if (digits + frac === 0) return special(b, s, e);
  if (i < e && ((b[i] as number) | 32) === 101) {
    i += 1;
    if (i < e && (b[i] === PLUS || b[i] === MINUS)) i += 1;
    let exp = 0;
    while (i < e && (b[i] as number) >= D0 && (b[i] as number) <= D9) {
      i += 1;
      exp += 1;
    }
    if (exp === 0) return Num.NotNumber;
  }
  return i === e ? Num.Double : Num.NotNumber;
}

function special(b: Uint8Array, s: number, e: number): Num {
  if (e - s > 9) return Num.NotNumber;
  const t = LATIN1.decode(b.subarray(s, e)).toLowerCase().replace(/^[+-]/, '');
  return t === 'nan' || t === 'inf' || t === 'infinity' ? Num.Double : Num.NotNumber;
}

/** The first digit that is not a leading zero (keeping one digit), after an optional sign. */
function digitsFrom(b: Uint8Array, s: number, e: number): number {
  const c0 = b[s] as number;
  let from = c0 === PLUS || c0 === MINUS ? s + 1 : s;
  while (from < e - 1 && b[from] === D0) from += 1;
  return from;
}

/** The value of a short integer cell (at most 15 digits) as a number. */
function smallInt(b: Uint8Array, from: number, e: number, neg: boolean): number {
  let v = 0;
  for (let i = from; i < e; i++) v = v * 10 + ((b[i] as number) - D0);
  return neg ? -v : v;
}

export type IntRange = 'INT_32' | 'UINT_32' | 'INT_64' | 'UINT_64';

/** True when the integer cell (already known to be an integer) fits the range. */
export function intFits(b: Uint8Array, s: number, e: number, range: IntRange): boolean {
  const neg = b[s] === MINUS;
  const from = digitsFrom(b, s, e);
  const n = e - from;
  if (n <= 15) {
    const v = smallInt(b, from, e, neg);
    switch (range) {
      case 'INT_32':
        return v >= -2_147_483_648 && v <= 2_147_483_647;
      case 'UINT_32':
        return v >= 0 && v <= 4_294_967_295;
      case 'INT_64':
        return true;
      case 'UINT_64':
        return v >= 0;
    }
  }
  if (range === 'INT_32' || range === 'UINT_32') return false;
  // More than 15 digits after the leading zeros: not zero, so a minus sign is a negative.
  if (range === 'UINT_64') return !neg && compareDigits(b, from, e, UINT64_MAX_DIGITS) <= 0;
  return compareDigits(b, from, e, neg ? INT64_MIN_DIGITS : INT64_MAX_DIGITS) <= 0;
}

const digitsOf = (n: bigint) => new TextEncoder().encode((n < 0n ? -n : n).toString());
const INT64_MAX_DIGITS = digitsOf(INT64_MAX);
const INT64_MIN_DIGITS = digitsOf(INT64_MIN);
const UINT64_MAX_DIGITS = digitsOf(UINT64_MAX);

/**
 * Compares the digits `b[from..e)` (no leading zeros) with `limit`'s as unsigned integers:
 * -1, 0 or 1 (never -0), without a BigInt or a string: more digits is larger, else the
 * first digit that differs decides.
 */
export function compareDigits(b: Uint8Array, from: number, e: number, limit: Uint8Array): number {
  const n = e - from;
  if (n !== limit.length) return n < limit.length ? -1 : 1;
  for (let i = 0; i < n; i++) {
    const d = (b[from + i] as number) - (limit[i] as number);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

/** True for `true`/`false`/`1`/`0` in any case (compared on the bytes). */
export function isBool(b: Uint8Array, s: number, e: number): boolean {
  const n = e - s;
  if (n === 1) return b[s] === 48 || b[s] === 49;
  if (n === 4) {
    return (
      ((b[s] as number) | 32) === 116 &&
      ((b[s + 1] as number) | 32) === 114 &&
      ((b[s + 2] as number) | 32) === 117 &&
      ((b[s + 3] as number) | 32) === 101
    );
  }
  if (n === 5) {
    return (
      ((b[s] as number) | 32) === 102 &&
      ((b[s + 1] as number) | 32) === 97 &&
      ((b[s + 2] as number) | 32) === 108 &&
      ((b[s + 3] as number) | 32) === 115 &&
      ((b[s + 4] as number) | 32) === 101
    );
  }
  return false;
}

/**
 * Significant digits of a number cell's mantissa: from the first non-zero digit to the
 * last non-zero one (`0.00120` → 2, `1200` → 2, `3.14159265` → 9).
 */
export function significantDigits(b: Uint8Array, s: number, e: number): number {
  let first = -1;
  let lastNonZero = -1;
  let position = 0;
  for (let i = s; i < e; i++) {
    const c = b[i] as number;
    if ((c | 32) === 101) break;
    if (c < D0 || c > D9) continue;
    if (c !== D0) {
      if (first === -1) first = position;
      lastNonZero = position;
    }
    position += 1;
  }
  return first === -1 ? 0 : lastNonZero - first + 1;
}

/** A cell as a float (NaN when not a number). */
export function numberOf(b: Uint8Array, s: number, e: number): number {
  // Fast path: a plain unsigned integer of at most 15 digits (unix times, counters).
  if (e - s <= 15) {
    let v = 0;
    let i = s;
    for (; i < e; i++) {
      const d = (b[i] as number) - D0;
      if (d >>> 0 > 9) break;
      v = v * 10 + d;
    }
    if (i === e && e > s) return v;
  }
  const d = shortDecimal(b, s, e);
  if (!Number.isNaN(d)) return d;
  const k = numKind(b, s, e);
  if (k === Num.NotNumber) return Number.NaN;
  if (k === Num.Int) {
    const from = digitsFrom(b, s, e);
    if (e - from <= 19) return wideInt(b, from, e, b[s] === MINUS);
  }
  return Number(LATIN1.decode(b.subarray(s, e)));
}

/**
 * An integer of at most 19 digits (nanosecond times, 64-bit counters) as the nearest
 * double, without making a string: the digits before the last 15 (at most 4) times 1e15
 * is an exact double (at most 9999 * 5^15 * 2^15, under 2^53 * 2^15), and so are the last
 * 15 digits, so their sum is rounded once, to what `Number(text)` gives.
 */
function wideInt(b: Uint8Array, from: number, e: number, neg: boolean): number {
  if (e - from <= 15) return smallInt(b, from, e, neg);
  const split = e - 15;
  const v = smallInt(b, from, split, false) * 1e15 + smallInt(b, split, e, false);
  return neg ? -v : v;
}

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * `[-+]digits[.digits]` with at most 15 digits in all, else NaN. The digits as an integer
 * and the power of ten are both exact doubles, so their quotient is the correctly rounded
 * value (the same as `Number(text)`) without decoding the bytes to a string.
 */
function shortDecimal(b: Uint8Array, s: number, e: number): number {
  let i = s;
  const c0 = b[s] as number;
  if (c0 === PLUS || c0 === MINUS) i += 1;
  let v = 0;
  let digits = 0;
  let scale = -1;
  for (; i < e; i++) {
    const c = b[i] as number;
    if (c === DOT && scale < 0) {
      scale = 0;
      continue;
    }
    const d = c - D0;
    if (d < 0 || d > 9) return Number.NaN;
    v = v * 10 + d;
    digits += 1;
    if (scale >= 0) scale += 1;
  }
  if (digits === 0 || digits > 15) return Number.NaN;
  const out = scale > 0 ? v / (POW10[scale] as number) : v;
  return c0 === MINUS ? -out : out;
}
