/**
 * The tally of a time column, fed one decoded piece (`Chunk`) at a time: times going
 * backwards, repeated, null and NaN/±inf, with the first row of each, and the smallest and
 * largest time. Runs of increasing times, what most time columns hold throughout, are
 * stepped by loops that keep only the time before.
 */
import type { TimeFormat } from '../model/index.js';
import { type Chunk, isNumberArray } from './chunk.js';
import { type TextTimes, textTimesOf, type Unparsed } from './text-times.js';

export interface TimeTally {
  decreases: number;
  firstDecrease?: number;
  repeats: number;
  firstRepeat?: number;
  nulls: number;
  firstNull?: number;
  /**
   * NaN and ±inf times (float time columns), or text that is no time in the declared format
   * (text-times.ts); left out when none was seen.
   */
  nonFinite?: number;
  firstNonFinite?: number;
  /** A text time column: its first value that is no time (the one at firstNonFinite). */
  unparsed?: Unparsed;
  min?: bigint | number;
  max?: bigint | number;
}

export interface TimeState {
  tally: TimeTally;
  prev: bigint | number | undefined;
  /** Reads a piece of text as times in the config's format; absent for a format of numbers. */
  text?: TextTimes | undefined;
}

/** A time tally from no value before; with `format`, text times are read in it (text-times.ts). */
export function newTimeState(format?: TimeFormat): TimeState {
  const text = textTimesOf(format);
  return {
    tally: { decreases: 0, repeats: 0, nulls: 0 },
    prev: undefined,
    ...(text ? { text } : {}),
  };
}

/**
 * Time order, repeats, nulls and NaN/±inf of one piece of the time column (rows from
 * `base`), a piece of text read first as times in the state's format. Returns the piece as
 * tallied (its times), for a caller that looks for its first time (tally-merge.ts).
 */
export function tallyTime(s: TimeState, piece: Chunk, base: number): Chunk {
  const times = s.text ? s.text(piece, s.tally) : piece;
  tallyPiece(s, times, base);
  return times;
}

/** tallyTime of a piece of numbers (or bigints), or of nulls. */
function tallyPiece(s: TimeState, d: Chunk, base: number): void {
  const t = s.tally;
  const { has, numbers: values } = d;
  if (values instanceof BigInt64Array) {
    tallyTimeInt64(s, values, has, base);
    return;
  }
  const steps = has === undefined && isNumberArray(values) ? values : undefined;
  for (let i = 0; i < d.length; i++) {
    if (steps !== undefined && typeof s.prev === 'number') {
      // A run of increasing times moves only the time before, and the largest time.
      const end = increasingNumbersUntil(steps, i, d.length, s.prev);
      if (end > i) {
        const last = steps[end - 1] as number;
        if (t.max === undefined || last > t.max) t.max = last;
        s.prev = last;
        i = end;
        if (i === d.length) break;
      }
    }
    if (has !== undefined && !has(i)) {
      t.nulls += 1;
      t.firstNull ??= base + i + 1;
      continue;
    }
    if (values === undefined) continue;
    const v = values[i] as bigint | number;
    if (typeof v === 'number' && v - v !== 0) {
      t.nonFinite = (t.nonFinite ?? 0) + 1;
      t.firstNonFinite ??= base + i + 1;
      continue;
    }
    const prev = s.prev;
    if (prev !== undefined) {
      if (v < prev) {
        t.decreases += 1;
        t.firstDecrease ??= base + i + 1;
      } else if (v === prev) {
        t.repeats += 1;
        t.firstRepeat ??= base + i + 1;
      }
    }
    if (t.min === undefined || v < t.min) t.min = v;
    if (t.max === undefined || v > t.max) t.max = v;
    s.prev = v;
  }
}

/** The top bit of a 32-bit integer (as an int32, what `^` gives). */
const FLIP = -0x80000000;

/**
 * The same for 64-bit integers, compared as two 32-bit halves: reading a BigInt64Array
 * element makes a bigint on the heap, and 20 M of them cost more than the decoding.
 *
 * One view of both halves: the low half of value i at 2i, the high at 2i + 1. The low half
 * is compared with its top bit flipped (`^ FLIP`), which orders signed 32-bit integers as
 * the unsigned halves order: read unsigned (`>>> 0`), a half above 2^31 was a number the
 * engine put on the heap, one a row: 73 MB of garbage on the 20 M-row bench file (its
 * time did not measurably change).
 */
function tallyTimeInt64(
  s: TimeState,
  values: BigInt64Array,
  has: ((i: number) => boolean) | undefined,
  base: number,
): void {
  const t = s.tally;
  const halves = new Int32Array(values.buffer, values.byteOffset, values.length * 2);
  const prev = typeof s.prev === 'bigint' ? s.prev : undefined;
  let prevHi = prev === undefined ? 0 : Number(BigInt.asIntN(32, prev >> 32n));
  let prevLo = prev === undefined ? 0 : Number(BigInt.asIntN(32, prev)) ^ FLIP;
  let havePrev = prev !== undefined;
  // The smallest time is the first one or one that goes backwards, the largest the last one
  // or one the next goes backwards from: only those are compared, so a time that goes on
  // increasing costs one comparison (min and max of the chunk before are in `t` already).
  let minI = -1;
  let maxI = -1;
  let minHi = 0;
  let minLo = 0;
  let maxHi = 0;
  let maxLo = 0;
  let last = -1;
  const n = values.length;
  for (let i = 0; i < n; i++) {
    if (has === undefined && havePrev) {
      // A run of increasing times moves only the time before (see increasingUntil).
      const end = increasingUntil(halves, i, n, prevHi, prevLo);
      if (end > i) {
        last = end - 1;
        prevHi = halves[2 * last + 1] as number;
        prevLo = (halves[2 * last] as number) ^ FLIP;
        i = end;
        if (i === n) break;
      }
    }
    if (has !== undefined && !has(i)) {
      t.nulls += 1;
      t.firstNull ??= base + i + 1;
      continue;
    }
    const hi = halves[2 * i + 1] as number;
    const lo = (halves[2 * i] as number) ^ FLIP;
    if (!havePrev) {
      minI = i;
      minHi = hi;
      minLo = lo;
    } else if (hi < prevHi || (hi === prevHi && lo <= prevLo)) {
      if (hi === prevHi && lo === prevLo) {
        t.repeats += 1;
        t.firstRepeat ??= base + i + 1;
      } else {
        t.decreases += 1;
        t.firstDecrease ??= base + i + 1;
        if (last >= 0 && (maxI < 0 || prevHi > maxHi || (prevHi === maxHi && prevLo > maxLo))) {
          maxI = last;
          maxHi = prevHi;
          maxLo = prevLo;
        }
        if (minI < 0 || hi < minHi || (hi === minHi && lo < minLo)) {
          minI = i;
          minHi = hi;
          minLo = lo;
        }
      }
    }
    prevHi = hi;
    prevLo = lo;
    havePrev = true;
    last = i;
  }
  if (last < 0) return;
  if (maxI < 0 || prevHi > maxHi || (prevHi === maxHi && prevLo > maxLo)) maxI = last;
  if (minI >= 0) {
    const min = values[minI] as bigint;
    if (t.min === undefined || min < t.min) t.min = min;
  }
  const max = values[maxI] as bigint;
  if (t.max === undefined || max > t.max) t.max = max;
  s.prev = values[last] as bigint;
}

/**
 * The end of the run of strictly increasing times from `from` after the time `prev`: `from`
 * itself when the time there does not increase or is not finite. 20 M float64 times in
 * chunks of 65,536: 22 to 28 ms, against 160 to 280 ms for tallyTime's whole loop before it
 * (a script; 190 to 200 ms of Int32Array or Uint32Array times, 25 to 30 ms after).
 */
function increasingNumbersUntil(
  values: ArrayLike<number>,
  from: number,
  n: number,
  prev: number,
): number {
  let p = prev;
  let i = from;
  for (; i < n; i++) {
    const v = values[i] as number;
    // NaN and +inf end the run (tallyTime counts them, and keeps no time before).
    if (!(v > p && v < Number.POSITIVE_INFINITY)) break;
    p = v;
  }
  return i;
}

/**
 * The end of the run of strictly increasing times from `from` (the time before it given as
 * its halves): `from` itself when the time there does not increase. Most time columns
 * increase throughout, and this loop, which keeps nothing but the time before, is what
 * they cost: 47 to 62 ms on 20 M times in chunks of 65,536 to 1 M, against 115 to 147 ms
 * for the whole loop of tallyTimeInt64 (a script over a BigInt64Array in wasm memory).
 */
function increasingUntil(
  halves: Int32Array,
  from: number,
  n: number,
  prevHi: number,
  prevLo: number,
): number {
  let pHi = prevHi;
  let pLo = prevLo;
  let i = from;
  for (; i < n; i++) {
    const hi = halves[2 * i + 1] as number;
    const lo = (halves[2 * i] as number) ^ FLIP;
    if (hi < pHi || (hi === pHi && lo <= pLo)) break;
    pHi = hi;
    pLo = lo;
  }
  return i;
}

/**
 * The time tally of values given in pieces (rows in order), null where `has` says no:
 * the scan's own tally, exposed for tests of its fast path.
 */
export function timeTallyOf(
  pieces: ReadonlyArray<{
    values: ArrayLike<number> | ArrayLike<bigint>;
    has?: (i: number) => boolean;
  }>,
): TimeTally {
  const s = newTimeState();
  let base = 0;
  for (const p of pieces) {
    tallyTime(s, { length: p.values.length, has: p.has, numbers: p.values }, base);
    base += p.values.length;
  }
  return s.tally;
}
