/**
 * Times the platform cannot read, rewritten as RFC 3339: a date and a time of day from two
 * columns, 12-hour times with AM/PM, times with a zone name or abbreviation, dates written
 * day-first or month-first, and (with a zone given) local times without an offset. Local
 * times get the offset of the given IANA zone at that moment (daylight saving included),
 * else `Z`. A local time the zone repeats (the hour summer time ends) is read in row order:
 * as summer time first, as standard time once the clock has gone back; its rows are named.
 */

import { isKnownZone } from '../../values/index.js';

/** Fixed offsets (minutes) of common zone abbreviations; ambiguous ones (IST) are left out. */
const ABBREVIATIONS: Record<string, number> = {
  UTC: 0,
  GMT: 0,
  Z: 0,
  WET: 0,
  WEST: 60,
  BST: 60,
  CET: 60,
  CEST: 120,
  MET: 60,
  MEST: 120,
  EET: 120,
  EEST: 180,
  MSK: 180,
  EST: -300,
  EDT: -240,
  CST: -360,
  CDT: -300,
  MST: -420,
  MDT: -360,
  PST: -480,
  PDT: -420,
  AKST: -540,
  AKDT: -480,
  HST: -600,
  JST: 540,
  KST: 540,
  AWST: 480,
  ACST: 570,
  AEST: 600,
  AEDT: 660,
  NZST: 720,
  NZDT: 780,
};

/** The parts of a local date and time. */
export interface Local {
  y: number;
  mo: number;
  d: number;
  h: number;
  mi: number;
  s: number;
  /** Fraction of the second as written (`.123`), or ''. */
  frac: string;
}

/** The zone a cell names: a fixed offset (an abbreviation), or an IANA zone; none: the column's. */
export interface CellZone {
  fixed?: number[];
  name?: string;
}

const UTC = [0];

/** The zone a name written in a cell stands for; undefined when it is not one. */
export function zoneNamed(named: string): CellZone | undefined {
  const fixed = ABBREVIATIONS[named.toUpperCase()];
  if (fixed !== undefined) return { fixed: [fixed] };
  return isKnownZone(named) ? { name: named } : undefined;
}

/** A local time's wall clock read as if it were UTC (ms). */
export function wallOf(t: Local): number {
  return Date.UTC(t.y, t.mo - 1, t.d, t.h, t.mi, t.s) + Number(`0${t.frac || '.'}`) * 1000;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The offset (minutes east of UTC) of an IANA zone at the instant `ms`. */
function zoneOffsetAt(zone: string, ms: number): number {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(new Date(ms))) p[part.type] = Number(part.value);
  const asUtc = Date.UTC(
    p.year ?? 0,
    (p.month ?? 1) - 1,
    p.day ?? 1,
    p.hour ?? 0,
    p.minute ?? 0,
    p.second ?? 0,
  );
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60000);
}

const offsetCache = new Map<string, number[]>();

/**
 * The offsets a local wall-clock time can have in an IANA zone: one; two (the earlier
 * instant's first) in the hour the zone repeats when summer time ends; cached per zone and
 * hour. In the hour it skips, the offset of the moment before.
 */
function localOffsets(zone: string, t: Local): number[] {
  const l = lastHour;
  if (l.zone === zone && l.h === t.h && l.d === t.d && l.mo === t.mo && l.y === t.y)
    return l.offsets;
  const key = `${zone} ${t.y}-${t.mo}-${t.d} ${t.h}`;
  const offsets = offsetCache.get(key) ?? hourOffsets(zone, t, key);
  lastHour = { zone, y: t.y, mo: t.mo, d: t.d, h: t.h, offsets };
  return offsets;
}

/** The hour `localOffsets` answered last (times in a file mostly keep to one hour a while). */
let lastHour = { zone: '', y: 0, mo: 0, d: 0, h: 0, offsets: [0] };

/** `localOffsets` worked out, and cached under `key`. */
function hourOffsets(zone: string, t: Local, key: string): number[] {
  const wall = Date.UTC(t.y, t.mo - 1, t.d, t.h, t.mi, t.s);
  const day = 24 * 3600_000;
  const around = [zoneOffsetAt(zone, wall - day), zoneOffsetAt(zone, wall + day)];
  // An offset fits when the instant it gives has that offset in the zone.
  const fits = [...new Set(around)]
    .filter((o) => zoneOffsetAt(zone, wall - o * 60000) === o)
    .sort((x, y) => y - x);
  const offsets = fits.length > 0 ? fits : [around[0] ?? 0];
  if (offsetCache.size > 10_000) offsetCache.clear();
  offsetCache.set(key, offsets);
  return offsets;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function offsetText(minutes: number): string {
  if (minutes === 0) return 'Z';
  const sign = minutes < 0 ? '-' : '+';
  const m = Math.abs(minutes);
  return `${sign}${pad(Math.floor(m / 60))}:${pad(m % 60)}`;
}

/** `00` to `99`: two digits without a call to `padStart` (a time is written per cell). */
const TWO = Array.from({ length: 100 }, (_, n) => pad(n));
const two = (n: number) => TWO[n] ?? pad(n);

function rfc3339(t: Local, offsetMinutes: number): string {
  return `${pad(t.y, 4)}-${two(t.mo)}-${two(t.d)}T${two(t.h)}:${two(t.mi)}:${two(t.s)}${t.frac}${offsetMinutes === 0 ? 'Z' : offsetText(offsetMinutes)}`;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DMY_DATE = /^(\d{1,2})([./-])(\d{1,2})[./-](\d{4})$/;
const CLOCK = /^(\d{1,2}):(\d{2})(?::(\d{2})([.,]\d+)?)?(?:\s*([AaPp])\.?[Mm]\.?)?$/;

/** The order of a date's day and month: day-first (30.03.2024) or month-first (03/30/2024). */
export type DateOrder = 'dmy' | 'mdy';

/**
 * The order a date cell's own numbers decide: a first number above 12 is a day (dmy), a
 * second one above 12 is a day (mdy); a date written with dots is day-first (no convention
 * writes month-first with dots). Undefined when the cell does not decide (or is ISO).
 */
export function dateOrderOf(text: string): DateOrder | undefined {
  const m = DMY_DATE.exec(text.trim().split(/[ T]/)[0] ?? '');
  if (!m) return undefined;
  if (Number(m[1]) > 12) return 'dmy';
  if (Number(m[3]) > 12) return 'mdy';
  return m[2] === '.' ? 'dmy' : undefined;
}

/** A date cell → year, month, day, in `order` unless the cell decides; undefined when unsure. */
function parseDate(
  text: string,
  order: DateOrder | undefined,
): Pick<Local, 'y' | 'mo' | 'd'> | undefined {
  const iso = ISO_DATE.exec(text);
  if (iso) return { y: Number(iso[1]), mo: Number(iso[2]), d: Number(iso[3]) };
  const m = DMY_DATE.exec(text);
  if (!m) return undefined;
  const a = Number(m[1]);
  const b = Number(m[3]);
  const read = order ?? dateOrderOf(text);
  if (read === undefined) return undefined;
  return { y: Number(m[4]), mo: read === 'mdy' ? a : b, d: read === 'mdy' ? b : a };
}

function parseClock(text: string): Omit<Local, 'y' | 'mo' | 'd'> | undefined {
  const m = CLOCK.exec(text);
  if (!m) return undefined;
  let h = Number(m[1]);
  const half = m[5]?.toUpperCase();
  if (half) {
    if (h < 1 || h > 12) return undefined;
    h = (h % 12) + (half === 'P' ? 12 : 0);
  }
  const mi = Number(m[2]);
  const s = m[3] === undefined ? 0 : Number(m[3]);
  if (h > 23 || mi > 59 || s > 60) return undefined;
  return { h, mi, s, frac: m[4] ? `.${m[4].slice(1)}` : '' };
}

function valid(t: Local): boolean {
  return t.mo >= 1 && t.mo <= 12 && t.d >= 1 && t.d <= 31;
}

/** How a column's local times are read: their zone (default UTC) and their date order. */
export interface TimeReading {
  zone?: string | undefined;
  dateOrder?: DateOrder | undefined;
}

/**
 * Rewrites the cells of one time column, row after row: a date and a time of day from two
 * cells (`join`), or one cell (`rewrite`), as RFC 3339; undefined when a cell does not
 * parse (or its date order is not known). Remembers the last instant, so that a local time
 * the zone repeats is read as summer time until the clock goes back, and collects the rows
 * of such times (`repeated`).
 */
export class TimeWriter {
  /** Rows (1-based, of the file) whose local time the zone repeats. */
  readonly repeated: number[] = [];
  /**
   * Dates whose own numbers read in the other order than the one given (`04/29/2024` under
   * `dmy`: 29 is no month), which were not rewritten: how many, and the first.
   */
  readonly contradicted: { count: number; first?: { row: number; date: string } } = { count: 0 };
  /**
   * The last instant written (ms), which decides a repeated local time: none before the
   * first, unless a range of rows read apart was started after it (`restart`).
   */
  last = Number.NEGATIVE_INFINITY;
  /**
   * True when a local time the zone repeats came before any instant was known (`last`
   * none): its reading is summer time, and the rows before, when there are any (a range
   * of rows read apart from them), may say otherwise.
   */
  unsure = false;

  constructor(private readonly reading: TimeReading) {}

  /** Notes nothing, for a range of rows read after the rows that end at `last` (if given). */
  restart(last = Number.NEGATIVE_INFINITY): void {
    this.repeated.length = 0;
    this.contradicted.count = 0;
    delete this.contradicted.first;
    this.last = last;
    this.unsure = false;
  }

  /** How the column's times are read: given to the writer of another range of rows. */
  get readingOf(): TimeReading {
    return this.reading;
  }

  /** The order of day and month in its dates, when known. */
  get dateOrder(): DateOrder | undefined {
    return this.reading.dateOrder;
  }

  join(date: string, clock: string, row: number): string | undefined {
    const d = parseDate(date.trim(), this.reading.dateOrder);
    const c = parseClock(clock.trim());
    const out = d && c ? this.written({ ...d, ...c }, undefined, row) : undefined;
    if (out === undefined) this.noteOrder(date.trim(), row);
    return out;
  }

  /** A date not rewritten: counted when its numbers read in the other order than the one given. */
  private noteOrder(date: string, row: number): void {
    const given = this.reading.dateOrder;
    const own = dateOrderOf(date);
    if (given === undefined || own === undefined || own === given) return;
    this.contradicted.count += 1;
    this.contradicted.first ??= { row, date };
  }

  /**
   * One cell holding a date and a time: `3/1/2024 1:05:00 PM`, `30.03.2024 23:58:00`,
   * `2024-03-01 12:00:00 CET`, `2024-03-01 12:00 Europe/Berlin`, or a date alone
   * (`10/18/2010`: midnight). A zone written in the cell wins over the column's; an unknown
   * abbreviation gives undefined.
   */
  rewrite(cell: string, row: number): string | undefined {
    const text = cell.trim();
    const m =
      /^(\S+)(?:[ T](\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:\s*[AaPp]\.?[Mm]\.?)?)(?:\s+(\S+))?)?$/.exec(
        text,
      );
    if (!m) return undefined;
    const d = parseDate(m[1] as string, this.reading.dateOrder);
    const c = m[2] === undefined ? { h: 0, mi: 0, s: 0, frac: '' } : parseClock(m[2]);
    const out = d && c ? this.zoned({ ...d, ...c }, m[3], row) : undefined;
    if (out === undefined) this.noteOrder(m[1] as string, row);
    return out;
  }

  /**
   * A local time read from a cell, with the zone name written after it (or none) → RFC 3339;
   * undefined for an unknown name or an impossible date.
   */
  private zoned(t: Local, named: string | undefined, row: number): string | undefined {
    const zone = named === undefined ? {} : zoneNamed(named);
    if (zone === undefined) return undefined;
    const offset = this.offsetOf(t, wallOf(t), zone, row);
    return offset === undefined ? undefined : rfc3339(t, offset);
  }

  private written(t: Local, fixed: number[] | undefined, row: number): string | undefined {
    const offset = this.offsetOf(t, wallOf(t), fixed ? { fixed } : {}, row);
    return offset === undefined ? undefined : rfc3339(t, offset);
  }

  /**
   * The offset (minutes) a local time is written with: given, or its zone's (the cell's,
   * else the column's) at that moment, in row order; undefined for an impossible date.
   * `wall` is the time's wall clock as if it were UTC (`wallOf`).
   */
  offsetOf(t: Local, wall: number, zone: CellZone, row: number): number | undefined {
    if (!valid(t)) return undefined;
    const name = zone.name ?? this.reading.zone;
    const offsets = zone.fixed ?? (name ? localOffsets(name, t) : UTC);
    // Twice the same wall time: summer time first, standard time once the clock went back.
    let offset = offsets[0] ?? 0;
    if (offsets.length > 1) {
      this.repeated.push(row);
      if (this.last === Number.NEGATIVE_INFINITY) this.unsure = true;
      const later = offsets[1] ?? offset;
      if (wall - offset * 60000 <= this.last) offset = later;
    }
    this.last = wall - offset * 60000;
    return offset;
  }
}
