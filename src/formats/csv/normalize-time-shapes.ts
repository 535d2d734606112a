/**
 * The fixed-width shapes of a time column, for the record path. A logger writes every time
 * of a column the same way (`30.03.2024 23:58:00.125`, `2024-03-30 23:58:00 CET`), so once
 * `rewriteTimeBytes` has written a cell, the cell's shape is kept: which of its bytes are
 * digits, which are exactly what they are (separators, the zone's name). A later cell of
 * that shape has its numbers at fixed places and its RFC 3339 bytes copied from fixed
 * places: no search for separators, no runs of digits, no lookup of the zone's name. A cell
 * of no kept shape, or whose numbers are out of range, goes to `rewriteTimeBytes`, which
 * reads the same numbers from the same bytes, so the output is the same either way.
 */
import {
  type ByteOut,
  FRACTIONS,
  newParsed,
  type Parsed,
  wallFast,
  writeOffset,
  zoneAt,
} from './normalize-time-bytes.js';
import type { CellZone, DateOrder, TimeWriter } from './normalize-times.js';

const SPACE = 32;
const COLON = 58;
/** Shapes kept per column (a day or an hour written with one digit or two make a few). */
const MAX_SHAPES = 8;
/** Cells a column tries to learn a shape from before it stops trying. */
const MAX_TRIES = 64;

/** Where a cell's numbers are (offsets from its start) and how wide. */
interface Places {
  y: number;
  mo: number;
  moW: number;
  d: number;
  dW: number;
  h: number;
  hW: number;
  mi: number;
  /** -1: no seconds written. */
  s: number;
  frac: number;
  /** 0: no fraction. */
  fracW: number;
  /** Just past the last number read. */
  end: number;
}

interface Shape extends Places {
  /**
   * Per byte of the cell, the least and the greatest it may be: `0` to `9` for the numbers'
   * digits, the byte itself for the others (separators, the zone's name).
   */
  low: Uint8Array;
  high: Uint8Array;
  zone: CellZone;
}

const isDigit = (c: number | undefined) => c !== undefined && c >= 48 && c <= 57;
const isSpace = (c: number | undefined) => c !== undefined && (c === SPACE || (c >= 9 && c <= 13));

/** The two digits at `at`. */
const two = (b: Uint8Array, at: number) =>
  ((b[at] as number) - 48) * 10 + (b[at + 1] as number) - 48;

/** The ms of each fraction of one to three digits (at width × 1000 + value), as `FRACTIONS` has them. */
const FRACTION_MS = new Float64Array(4000);
for (const [key, { ms }] of FRACTIONS) FRACTION_MS[key] = ms;

/** The one record the cells are read into (read before the next cell is). */
const t: Parsed = newParsed();

/** The shapes one time column's cells were written in. */
export class TimeShapes {
  private readonly shapes: Shape[] = [];
  private tries = 0;

  /**
   * Writes the cell `[s, e)` into `out` as `rewriteTimeBytes` would when it has a kept shape
   * and its numbers are in range: true; false (nothing written) otherwise.
   */
  write(b: Uint8Array, s: number, e: number, writer: TimeWriter, row: number, out: ByteOut) {
    const shapes = this.shapes;
    for (let i = 0; i < shapes.length; i++) {
      const shape = shapes[i] as Shape;
      if (shape.low.length === e - s && matches(shape, b, s))
        return writeShaped(shape, b, s, writer, row, out);
    }
    return false;
  }

  /** Keeps the shape of a cell `rewriteTimeBytes` has just written (a few cells, a few shapes). */
  learn(b: Uint8Array, s: number, e: number, order: DateOrder | undefined): void {
    if (this.shapes.length >= MAX_SHAPES || this.tries >= MAX_TRIES) return;
    this.tries += 1;
    const shape = shapeOf(b, s, e, order);
    if (shape) this.shapes.push(shape);
  }
}

/** Whether each byte of the cell at `s` is in its range: `(c - low) | (high - c)` is negative when not. */
function matches(shape: Shape, b: Uint8Array, s: number): boolean {
  const { low, high } = shape;
  let out = 0;
  for (let k = 0; k < low.length; k++) {
    const c = b[s + k] as number;
    out |= (c - (low[k] as number)) | ((high[k] as number) - c);
  }
  return out >= 0;
}

/** A cell of `shape` at `s`: its numbers read, checked, and written; false when out of range. */
function writeShaped(
  shape: Shape,
  b: Uint8Array,
  s: number,
  writer: TimeWriter,
  row: number,
  out: ByteOut,
): boolean {
  // The digits are copied first (two for each number), then read back from the copy, where
  // each number has two digits at a fixed place: nothing is kept of a cell given up.
  const buf = out.room(26 + shape.fracW);
  const p = out.pos;
  const end = writeFixed(shape, b, s, buf, p);
  t.y = two(buf, p) * 100 + two(buf, p + 2);
  t.mo = two(buf, p + 5);
  t.d = two(buf, p + 8);
  t.h = two(buf, p + 11);
  t.mi = two(buf, p + 14);
  t.s = two(buf, p + 17);
  if (t.mo < 1 || t.mo > 12 || t.d < 1 || t.d > 31 || t.h > 23 || t.mi > 59 || t.s > 60)
    return false;
  if (shape.fracW === 0) t.fracMs = 0;
  else {
    let n = 0;
    for (let k = p + 20; k < end; k++) n = n * 10 + (buf[k] as number) - 48;
    t.fracMs = FRACTION_MS[shape.fracW * 1000 + n] as number;
  }
  const offset = writer.offsetOf(t, wallFast(t), shape.zone, row);
  if (offset === undefined) return false;
  out.pos = writeOffset(buf, end, offset);
  return true;
}

/**
 * The shape of the cell `[s, e)`: a date, one space, a time of day with seconds and up to
 * three digits of fraction or not, then spaces and a zone's name or nothing, with no space
 * around it; undefined for any other cell (and a day-first or month-first date whose order
 * the column does not know).
 */
function shapeOf(
  b: Uint8Array,
  s: number,
  e: number,
  order: DateOrder | undefined,
): Shape | undefined {
  if (e - s > 64 || isSpace(b[s]) || isSpace(b[e - 1])) return undefined;
  const places = placesOf(b, s, e, order);
  if (!places) return undefined;
  let zone: CellZone = {};
  let zoneFrom = e;
  if (places.end < e) {
    if (b[places.end] !== SPACE) return undefined;
    zoneFrom = places.end;
    while (zoneFrom < e && b[zoneFrom] === SPACE) zoneFrom += 1;
    const named = zoneFrom < e ? zoneAt(b, zoneFrom, e) : undefined;
    if (named === undefined) return undefined;
    zone = named;
  }
  const low = new Uint8Array(e - s);
  const high = new Uint8Array(e - s);
  for (let i = s; i < e; i++) {
    const digit = i < zoneFrom && isDigit(b[i]);
    low[i - s] = digit ? 48 : (b[i] as number);
    high[i - s] = digit ? 57 : (b[i] as number);
  }
  return { ...places, low, high, zone };
}

/** The end of the run of digits at `p`. */
function digits(b: Uint8Array, p: number, e: number): number {
  while (p < e && isDigit(b[p])) p += 1;
  return p;
}

const isDateSep = (c: number | undefined) => c === 46 || c === 47 || c === 45;

/** Where the numbers of the date and time of day at `s` are (offsets from `s`). */
function placesOf(
  b: Uint8Array,
  s: number,
  e: number,
  order: DateOrder | undefined,
): Places | undefined {
  const a = digits(b, s, e);
  let date: Pick<Places, 'y' | 'mo' | 'moW' | 'd' | 'dW'> & { end: number };
  if (a - s === 4 && a < e && b[a] === 45) {
    if (digits(b, a + 1, e) !== a + 3 || a + 3 >= e || b[a + 3] !== 45) return undefined;
    if (digits(b, a + 4, e) !== a + 6) return undefined;
    date = { y: 0, mo: a + 1 - s, moW: 2, d: a + 4 - s, dW: 2, end: a + 6 };
  } else {
    const m = digits(b, a + 1, e);
    const y = digits(b, m + 1, e);
    const [xW, zW] = [a - s, m - a - 1];
    if (order === undefined || xW < 1 || xW > 2 || zW < 1 || zW > 2 || y - m - 1 !== 4)
      return undefined;
    if (!isDateSep(b[a]) || !isDateSep(b[m])) return undefined;
    const [x, z] = [
      { at: 0, w: xW },
      { at: a + 1 - s, w: zW },
    ];
    const [mo, d] = order === 'mdy' ? [x, z] : [z, x];
    date = { y: m + 1 - s, mo: mo.at, moW: mo.w, d: d.at, dW: d.w, end: y };
  }
  if (date.end >= e || b[date.end] !== SPACE) return undefined;
  const clock = clockAt(b, date.end + 1, e);
  if (!clock) return undefined;
  return {
    ...date,
    ...clock,
    h: clock.h - s,
    mi: clock.mi - s,
    s: clock.s < 0 ? -1 : clock.s - s,
    frac: clock.frac - s,
  };
}

/** `h:mm[:ss[.f]]` at `p` (up to three digits of fraction): where its numbers are in `b`. */
function clockAt(
  b: Uint8Array,
  p: number,
  e: number,
): Pick<Places, 'h' | 'hW' | 'mi' | 's' | 'frac' | 'fracW' | 'end'> | undefined {
  const h = digits(b, p, e);
  if (h - p < 1 || h - p > 2 || h >= e || b[h] !== COLON || digits(b, h + 1, e) !== h + 3)
    return undefined;
  const clock = { h: p, hW: h - p, mi: h + 1, s: -1, frac: 0, fracW: 0, end: h + 3 };
  if (clock.end >= e || b[clock.end] !== COLON) return clock;
  if (digits(b, clock.end + 1, e) !== clock.end + 3) return undefined;
  clock.s = clock.end + 1;
  clock.end += 3;
  const sep = b[clock.end];
  if (clock.end >= e || (sep !== 46 && sep !== 44)) return clock;
  const f = digits(b, clock.end + 1, e);
  if (f === clock.end + 1 || f - clock.end - 1 > 3) return undefined;
  clock.frac = clock.end + 1;
  clock.fracW = f - clock.end - 1;
  clock.end = f;
  return clock;
}

/**
 * `yyyy-mm-ddThh:mm:ss[.f]` of a cell of `shape` at `s`, its digits copied from their places
 * (a `0` before a number written with one digit), into `buf` at `p`: the offset past it.
 */
function writeFixed(shape: Shape, b: Uint8Array, s: number, buf: Buffer, p: number): number {
  const y = s + shape.y;
  buf[p] = b[y] as number;
  buf[p + 1] = b[y + 1] as number;
  buf[p + 2] = b[y + 2] as number;
  buf[p + 3] = b[y + 3] as number;
  buf[p + 4] = 45;
  const mo = s + shape.mo;
  buf[p + 5] = shape.moW === 2 ? (b[mo] as number) : 48;
  buf[p + 6] = b[mo + shape.moW - 1] as number;
  buf[p + 7] = 45;
  const d = s + shape.d;
  buf[p + 8] = shape.dW === 2 ? (b[d] as number) : 48;
  buf[p + 9] = b[d + shape.dW - 1] as number;
  buf[p + 10] = 84;
  const h = s + shape.h;
  buf[p + 11] = shape.hW === 2 ? (b[h] as number) : 48;
  buf[p + 12] = b[h + shape.hW - 1] as number;
  buf[p + 13] = COLON;
  buf[p + 14] = b[s + shape.mi] as number;
  buf[p + 15] = b[s + shape.mi + 1] as number;
  buf[p + 16] = COLON;
  buf[p + 17] = shape.s < 0 ? 48 : (b[s + shape.s] as number);
  buf[p + 18] = shape.s < 0 ? 48 : (b[s + shape.s + 1] as number);
  if (shape.fracW === 0) return p + 19;
  buf[p + 19] = 46;
  for (let k = 0; k < shape.fracW; k++) buf[p + 20 + k] = b[s + shape.frac + k] as number;
  return p + 20 + shape.fracW;
}
