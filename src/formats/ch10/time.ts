/**
 * Time data packets, format 1 (data type 0x11): the channel-specific word, then the time
 * as binary-coded decimal digits in 16-bit little-endian words, the layout irig106lib's
 * `SuTime_MsgDayFmt` / `SuTime_MsgDmyFmt` read. Its packet's relative time counter is
 * the tick at which that time held, which places every other packet in absolute time.
 *
 * The day-of-year format carries no year: irig106lib then takes 1970 and pyChapter10 the
 * current year. Neither is known, so such a time stays a day of an unnamed year and no
 * absolute time is made of it.
 */

export interface Ch10Time {
  /** `dmy`: day, month and year; `day`: day of the year, no year. */
  format: 'dmy' | 'day';
  /** The time as written: `2024-03-01T12:00:00.000Z`, or `day 061 12:00:00.000`. */
  text: string;
  /** UTC milliseconds since 1970 (`dmy` only). */
  ms?: number;
  /** The channel-specific word's time source (0 internal, 1 external, 2 internal from RMM, 15 none). */
  source: number;
}

/** Bytes of a time packet's body that hold the time: the channel-specific word and four words. */
export const TIME_BODY = 12;

/** The time of a time packet's body (its first 12 bytes), or undefined when its digits are not a time. */
export function decodeTime(body: Uint8Array): Ch10Time | undefined {
  if (body.byteLength < TIME_BODY) return undefined;
  const v = new DataView(body.buffer, body.byteOffset, TIME_BODY);
  const csdw = v.getUint32(0, true);
  const w = [4, 6, 8, 10].map((at) => v.getUint16(at, true)) as [number, number, number, number];
  const digit = (word: number, shift: number, bits = 4) => (word >> shift) & ((1 << bits) - 1);
  const digits = [
    digit(w[0], 0), // tens of ms
    digit(w[0], 4), // hundreds of ms
    digit(w[0], 8), // seconds
    digit(w[0], 12, 3), // tens of seconds
    digit(w[1], 0), // minutes
    digit(w[1], 4, 3), // tens of minutes
    digit(w[1], 8), // hours
    digit(w[1], 12, 2), // tens of hours
    digit(w[2], 0), // days
    digit(w[2], 4), // tens of days
  ];
  if (digits.some((d) => d > 9)) return undefined;
  const [tms, hms, s, ts, m, tm, h, th, d, td] = digits as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const clock = { h: th * 10 + h, m: tm * 10 + m, s: ts * 10 + s, ms: hms * 100 + tms * 10 };
  if (clock.h > 23 || clock.m > 59 || clock.s > 60) return undefined;
  const source = csdw & 0xf;
  if (((csdw >> 9) & 1) === 0)
    return dayOfYear(clock, td * 10 + d + 100 * digit(w[2], 8, 2), source);
  return monthAndYear(clock, td * 10 + d, w, source);
}

interface Clock {
  h: number;
  m: number;
  s: number;
  ms: number;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const clockText = (c: Clock) => `${pad(c.h)}:${pad(c.m)}:${pad(c.s)}.${pad(c.ms, 3)}`;

function dayOfYear(clock: Clock, day: number, source: number): Ch10Time | undefined {
  if (day > 366) return undefined;
  return { format: 'day', text: `day ${pad(day, 3)} ${clockText(clock)}`, source };
}

function monthAndYear(
  clock: Clock,
  day: number,
  w: readonly [number, number, number, number],
  source: number,
): Ch10Time | undefined {
  const month = ((w[2] >> 12) & 1) * 10 + ((w[2] >> 8) & 0xf);
  const yearDigits = [w[3] & 0xf, (w[3] >> 4) & 0xf, (w[3] >> 8) & 0xf, (w[3] >> 12) & 0x3];
  if (yearDigits.some((x) => x > 9)) return undefined;
  const [y, ty, hy, oy] = yearDigits as [number, number, number, number];
  const year = oy * 1000 + hy * 100 + ty * 10 + y;
  // A year before 1970 is a clock never set (and Date.UTC reads 0-99 as 1900-1999).
  if (year < 1970 || month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  const ms = Date.UTC(year, month - 1, day, clock.h, clock.m, clock.s, clock.ms);
  // Date.UTC rolls 31 February over into March: such digits are not a date.
  if (new Date(ms).getUTCDate() !== day) return undefined;
  return { format: 'dmy', text: new Date(ms).toISOString(), ms, source };
}
