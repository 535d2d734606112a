/**
 * The common shapes of a time cell read straight from its bytes, for the record path:
 * `30.03.2024 23:58:00.5`, `2024-03-01 12:00:00 CET`, `2024-03-01 12:00 Europe/Berlin`, a
 * date alone. It reads exactly what `TimeWriter.rewrite` reads and writes the same RFC 3339
 * bytes, or declines: anything else (AM/PM, a `T` between date and time, tabs, quotes, a
 * date whose order is unknown, values out of range) goes to `rewrite`, which decides it
 * from the cell's text.
 */
import { type CellZone, type Local, type TimeWriter, zoneNamed } from './normalize-times.js';

const SPACE = 32;
const COLON = 58;

/** A time cell's parts, filled by `parseDate` and `parseClock`. */
export interface Parsed extends Local {
  /** The zone name written after the time (`[from, to)` in the bytes), or none (-1). */
  zoneFrom: number;
  zoneTo: number;
  /** The fraction's digits (`[from, to)`, none when equal) and its ms (NaN: not in the table). */
  fracFrom: number;
  fracTo: number;
  fracMs: number;
}

/** Where the record path writes: a buffer with room for `n` more bytes, filled up to `pos`. */
export interface ByteOut {
  room(n: number): Buffer;
  pos: number;
}

/** What `rewriteTimeBytes` did. */
export const WRITTEN = 1;
export const KEPT = 0;
export const DECLINED = -1;

const isDigit = (c: number | undefined) => c !== undefined && c >= 48 && c <= 57;
const isSpace = (c: number) => c === SPACE || (c >= 9 && c <= 13);

/** The number written by the digits `[s, e)`. */
function num(b: Uint8Array, s: number, e: number): number {
  let n = 0;
  for (let i = s; i < e; i++) n = n * 10 + ((b[i] as number) - 48);
  return n;
}

/** The end of the run of digits at `p`. */
function digits(b: Uint8Array, p: number, e: number): number {
  while (p < e && isDigit(b[p])) p += 1;
  return p;
}

/** The ASCII text of `[s, e)` (short: a zone name, a long fraction). */
function ascii(b: Uint8Array, s: number, e: number): string {
  let text = '';
  for (let i = s; i < e; i++) text += String.fromCharCode(b[i] as number);
  return text;
}

/** The zone names read last, with their bytes and zones: a file names a few zones over and over. */
const names: Array<{ bytes: Uint8Array; zone: CellZone | undefined }> = [];

/** The zone the name in `[s, e)` stands for (undefined: none). */
export function zoneAt(b: Uint8Array, s: number, e: number): CellZone | undefined {
  for (let i = 0; i < names.length; i++) {
    const n = names[i] as (typeof names)[number];
    if (sameBytes(n.bytes, b, s, e)) return n.zone;
  }
  const zone = zoneNamed(ascii(b, s, e));
  if (names.length >= 8) names.shift();
  // A copy: a Buffer's `slice` is a view, and the scanner's window is overwritten as it moves on.
  names.push({ bytes: Uint8Array.prototype.slice.call(b, s, e), zone });
  return zone;
}

function sameBytes(x: Uint8Array, b: Uint8Array, s: number, e: number): boolean {
  if (x.byteLength !== e - s) return false;
  for (let i = 0; i < x.byteLength; i++) if (x[i] !== b[s + i]) return false;
  return true;
}

/**
 * Of each fraction of one to three digits (keyed width × 1000 + value): its text and its
 * ms, computed as `wallOf` computes them.
 */
export const FRACTIONS = new Map<number, { text: string; ms: number }>();
for (let n = 0; n < 1000; n++)
  for (const w of [1, 2, 3])
    if (n < 10 ** w) {
      const text = `.${String(n).padStart(w, '0')}`;
      FRACTIONS.set(w * 1000 + n, { text, ms: Number(`0${text}`) * 1000 });
    }

/** The day (ms) `Date.UTC` gave last: a file's times keep to one day a long while. */
const lastDay = { y: -1, mo: -1, d: -1, ms: 0 };

/**
 * `wallOf(t)` with the day's start remembered and the fraction's ms from the table: the
 * same sum (the day and the time of day are whole ms, so adding them first changes nothing).
 */
export function wallFast(t: Parsed): number {
  const day = lastDay;
  if (day.y !== t.y || day.mo !== t.mo || day.d !== t.d) {
    day.y = t.y;
    day.mo = t.mo;
    day.d = t.d;
    day.ms = Date.UTC(t.y, t.mo - 1, t.d);
  }
  const ms = Number.isNaN(t.fracMs) ? Number(`0${t.frac}`) * 1000 : t.fracMs;
  return day.ms + t.h * 3600_000 + t.mi * 60_000 + t.s * 1000 + ms;
}

/** An empty record for a time's parts: a reader keeps one and reads each cell into it. */
export function newParsed(): Parsed {
  return {
    y: 0,
    mo: 0,
    d: 0,
    h: 0,
    mi: 0,
    s: 0,
    frac: '',
    zoneFrom: -1,
    zoneTo: -1,
    fracFrom: 0,
    fracTo: 0,
    fracMs: 0,
  };
}

/** The one record the cells are parsed into (read before the next cell is). */
const t: Parsed = newParsed();

const NO_ZONE: CellZone = {};

/**
 * Writes the time cell `[s, e)` into `out` as RFC 3339, as `writer.rewrite` would write it
 * (`WRITTEN`); `KEPT` when the cell reads as a time that cannot be written (an unknown zone,
 * an impossible date: nothing written); `DECLINED` when the bytes do not tell for sure (the
 * caller asks `rewrite`).
 */
export function rewriteTimeBytes(
  b: Uint8Array,
  s: number,
  e: number,
  writer: TimeWriter,
  row: number,
  out: ByteOut,
): number {
  while (s < e && isSpace(b[s] as number)) s += 1;
  while (e > s && isSpace(b[e - 1] as number)) e -= 1;
  t.h = t.mi = t.s = 0;
  t.frac = '';
  t.zoneFrom = t.zoneTo = -1;
  t.fracFrom = t.fracTo = 0;
  t.fracMs = 0;
  const p = parseDate(b, s, e, t, writer.dateOrder);
  if (p < 0) return DECLINED;
  if (p < e && !(b[p] === SPACE && parseClock(b, p + 1, e, t))) return DECLINED;
  const zone = t.zoneFrom < 0 ? NO_ZONE : zoneAt(b, t.zoneFrom, t.zoneTo);
  if (zone === undefined) return KEPT;
  const offset = writer.offsetOf(t, wallFast(t), zone, row);
  if (offset === undefined) return KEPT;
  writeRfc3339(b, t, offset, out);
  return WRITTEN;
}

/** `yyyy-mm-ddThh:mm:ss[.f]` and the offset (`Z`, `+01:00`) into `out`. */
function writeRfc3339(b: Uint8Array, t: Parsed, offset: number, out: ByteOut): void {
  const buf = out.room(32 + t.fracTo - t.fracFrom);
  let p = out.pos;
  p = put2(buf, p, Math.floor(t.y / 100));
  p = put2(buf, p, t.y % 100);
  buf[p++] = 45;
  p = put2(buf, p, t.mo);
  buf[p++] = 45;
  p = put2(buf, p, t.d);
  buf[p++] = 84;
  p = put2(buf, p, t.h);
  buf[p++] = COLON;
  p = put2(buf, p, t.mi);
  buf[p++] = COLON;
  p = put2(buf, p, t.s);
  if (t.fracTo > t.fracFrom) {
    buf[p++] = 46;
    for (let i = t.fracFrom; i < t.fracTo; i++) buf[p++] = b[i] as number;
  }
  out.pos = writeOffset(buf, p, offset);
}

/** An offset (minutes) as RFC 3339 writes it (`Z`, `+01:00`) at `p`: the offset past it. */
export function writeOffset(buf: Buffer, p: number, offset: number): number {
  if (offset === 0) {
    buf[p] = 90;
    return p + 1;
  }
  const m = Math.abs(offset);
  buf[p++] = offset < 0 ? 45 : 43;
  p = put2(buf, p, Math.floor(m / 60));
  buf[p++] = COLON;
  return put2(buf, p, m % 60);
}

/** Two digits of `n` (0-99). */
function put2(buf: Buffer, p: number, n: number): number {
  buf[p] = 48 + Math.floor(n / 10);
  buf[p + 1] = 48 + (n % 10);
  return p + 2;
}

/**
 * `yyyy-mm-dd` or `d.m.yyyy` (`.`, `/` or `-`) at `s`, in the order given or decided by the
 * numbers: the offset just past it, -1 when it is not one or its order is unknown.
 */
function parseDate(
  b: Uint8Array,
  s: number,
  e: number,
  t: Parsed,
  order: 'dmy' | 'mdy' | undefined,
): number {
  const a = digits(b, s, e);
  const sep = a < e ? b[a] : -1;
  if (a - s === 4 && sep === 45) {
    if (digits(b, a + 1, e) !== a + 3 || a + 3 >= e || b[a + 3] !== 45) return -1;
    if (digits(b, a + 4, e) !== a + 6) return -1;
    t.y = num(b, s, a);
    t.mo = num(b, a + 1, a + 3);
    t.d = num(b, a + 4, a + 6);
    return a + 6;
  }
  const isSep = (c: number | undefined) => c === 46 || c === 47 || c === 45;
  if (a - s < 1 || a - s > 2 || !isSep(sep)) return -1;
  const m = digits(b, a + 1, e);
  if (m - a - 1 < 1 || m - a - 1 > 2 || m >= e || !isSep(b[m])) return -1;
  const y = digits(b, m + 1, e);
  if (y - m - 1 !== 4) return -1;
  const x = num(b, s, a);
  const z = num(b, a + 1, m);
  const read = order ?? (x > 12 ? 'dmy' : z > 12 ? 'mdy' : sep === 46 ? 'dmy' : undefined);
  if (read === undefined) return -1;
  t.y = num(b, m + 1, y);
  t.mo = read === 'mdy' ? x : z;
  t.d = read === 'mdy' ? z : x;
  return y;
}

/**
 * `h:mm[:ss[.f]]` at `p` running to `e`, or followed by spaces and a zone name (not AM/PM):
 * false when it is not one of these, or out of range.
 */
function parseClock(b: Uint8Array, p: number, e: number, t: Parsed): boolean {
  const h = digits(b, p, e);
  if (h - p < 1 || h - p > 2 || h >= e || b[h] !== COLON) return false;
  if (digits(b, h + 1, e) !== h + 3) return false;
  t.h = num(b, p, h);
  t.mi = num(b, h + 1, h + 3);
  let q = h + 3;
  if (q < e && b[q] === COLON) {
    if (digits(b, q + 1, e) !== q + 3) return false;
    t.s = num(b, q + 1, q + 3);
    q += 3;
    if (q < e && (b[q] === 46 || b[q] === 44)) {
      const f = digits(b, q + 1, e);
      if (f === q + 1) return false;
      const w = f - q - 1;
      const known = w <= 3 ? FRACTIONS.get(w * 1000 + num(b, q + 1, f)) : undefined;
      t.frac = known?.text ?? `.${ascii(b, q + 1, f)}`;
      t.fracMs = known?.ms ?? Number.NaN;
      t.fracFrom = q + 1;
      t.fracTo = f;
      q = f;
    }
  }
  if (t.h > 23 || t.mi > 59 || t.s > 60) return false;
  return q === e || zoneAfter(b, q, e, t);
}

/** Spaces and a zone name from `q` to `e` (not AM/PM, no quote): where it is, in `t`. */
function zoneAfter(b: Uint8Array, q: number, e: number, t: Parsed): boolean {
  if (b[q] !== SPACE) return false;
  while (q < e && b[q] === SPACE) q += 1;
  if (q === e) return false;
  for (let i = q; i < e; i++) {
    const c = b[i] as number;
    if (c <= SPACE || c > 126 || c === 34) return false;
  }
  if (isAmPm(b, q, e)) return false;
  t.zoneFrom = q;
  t.zoneTo = e;
  return true;
}

/** `[AaPp]\.?[Mm]\.?`: a zone name that reads as AM/PM is a 12-hour time (for `rewrite`). */
function isAmPm(b: Uint8Array, s: number, e: number): boolean {
  const c = (b[s] as number) | 0x20;
  if (e - s < 2 || e - s > 4 || (c !== 97 && c !== 112)) return false;
  let p = s + 1;
  if (b[p] === 46) p += 1;
  if (p >= e || ((b[p] as number) | 0x20) !== 109) return false;
  p += 1;
  if (p < e && b[p] === 46) p += 1;
  return p === e;
}
