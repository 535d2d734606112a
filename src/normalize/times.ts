/**
 * Times the platform cannot read, rewritten as RFC 3339: a date and a time of day from two
 * columns, 12-hour times with AM/PM, times with a zone name or abbreviation. Local times get
 * the offset of the given IANA zone at that moment (daylight saving included), else `Z`.
 */

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
interface Local {
  y: number;
  mo: number;
  d: number;
  h: number;
  mi: number;
  s: number;
  /** Fraction of the second as written (`.123`), or ''. */
  frac: string;
}

/** True when `zone` is an IANA zone this runtime knows (`Europe/Berlin`, `UTC`). */
export function isKnownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
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

const offsetCache = new Map<string, number>();

/** The offset of a local wall-clock time in an IANA zone (cached per zone and hour). */
function localOffset(zone: string, t: Local): number {
  const key = `${zone} ${t.y}-${t.mo}-${t.d} ${t.h}`;
  const cached = offsetCache.get(key);
  if (cached !== undefined) return cached;
  const wall = Date.UTC(t.y, t.mo - 1, t.d, t.h, t.mi, t.s);
  let offset = zoneOffsetAt(zone, wall);
  offset = zoneOffsetAt(zone, wall - offset * 60000);
  if (offsetCache.size > 10_000) offsetCache.clear();
  offsetCache.set(key, offset);
  return offset;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function offsetText(minutes: number): string {
  if (minutes === 0) return 'Z';
  const sign = minutes < 0 ? '-' : '+';
  const m = Math.abs(minutes);
  return `${sign}${pad(Math.floor(m / 60))}:${pad(m % 60)}`;
}

function rfc3339(t: Local, offsetMinutes: number): string {
  return `${pad(t.y, 4)}-${pad(t.mo)}-${pad(t.d)}T${pad(t.h)}:${pad(t.mi)}:${pad(t.s)}${t.frac}${offsetText(offsetMinutes)}`;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DMY_DATE = /^(\d{1,2})[./-](\d{1,2})[./-](\d{4})$/;
const CLOCK = /^(\d{1,2}):(\d{2})(?::(\d{2})([.,]\d+)?)?(?:\s*([AaPp])\.?[Mm]\.?)?$/;

/**
 * A date cell → year, month, day. `monthFirst` reads `3/1/2024` as March 1 (US files with
 * AM/PM); a first number above 12 is always a day.
 */
function parseDate(text: string, monthFirst: boolean): Pick<Local, 'y' | 'mo' | 'd'> | undefined {
  const iso = ISO_DATE.exec(text);
  if (iso) return { y: Number(iso[1]), mo: Number(iso[2]), d: Number(iso[3]) };
  const m = DMY_DATE.exec(text);
  if (!m) return undefined;
  const a = Number(m[1]);
  const b = Number(m[2]);
  const mdy = monthFirst ? a <= 12 : b > 12;
  return { y: Number(m[3]), mo: mdy ? a : b, d: mdy ? b : a };
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

/** The offset for a local time: the given IANA zone's at that moment, else UTC. */
function offsetFor(t: Local, zone: string | undefined): number {
  return zone ? localOffset(zone, t) : 0;
}

/** A date cell and a time-of-day cell → RFC 3339; undefined when either does not parse. */
export function joinDateTime(date: string, clock: string, zone?: string): string | undefined {
  const d = parseDate(date.trim(), clock.match(/[AaPp]\.?[Mm]\.?$/) !== null);
  const c = parseClock(clock.trim());
  if (!d || !c) return undefined;
  const t = { ...d, ...c };
  return valid(t) ? rfc3339(t, offsetFor(t, zone)) : undefined;
}

/**
 * One cell holding a date and a time the platform cannot read: `3/1/2024 1:05:00 PM`,
 * `2024-03-01 12:00:00 CET`, `2024-03-01 12:00 Europe/Berlin` → RFC 3339. A zone written in
 * the cell wins over `zone`; an unknown abbreviation gives undefined.
 */
export function rewriteTime(cell: string, zone?: string): string | undefined {
  const text = cell.trim();
  const m =
    /^(\S+)[ T](\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:\s*[AaPp]\.?[Mm]\.?)?)(?:\s+(\S+))?$/.exec(
      text,
    );
  if (!m) return undefined;
  const named = m[3];
  if (named === undefined) return joinDateTime(m[1] as string, m[2] as string, zone);
  const d = parseDate(m[1] as string, /[AaPp]\.?[Mm]\.?$/.test(m[2] as string));
  const c = parseClock(m[2] as string);
  if (!d || !c) return undefined;
  const t = { ...d, ...c };
  if (!valid(t)) return undefined;
  const fixed = ABBREVIATIONS[named.toUpperCase()];
  if (fixed !== undefined) return rfc3339(t, fixed);
  return isKnownZone(named) ? rfc3339(t, localOffset(named, t)) : undefined;
}
