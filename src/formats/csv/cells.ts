/**
 * What one CSV cell is (a number, a boolean, a date ...), judged from its text alone, and
 * the running facts of a column built from its cells. Integers are judged exactly: digit
 * strings are compared as strings or BigInts, never rounded through floats.
 */
import { INT64_MAX, INT64_MIN, UINT64_MAX } from '../../model/plain.js';
import { compareIntStrings } from './int-text.js';

export type CellKind =
  | 'empty'
  | 'bool'
  | 'int'
  | 'double'
  | 'rfc3339'
  | 'datetime'
  | 'date_dmy'
  | 'date_mdy'
  | 'date_ambiguous'
  | 'string';

/** Channel types a CSV column can have, in the platform's short names. */
export type CsvColumnType =
  | 'BOOL'
  | 'INT_32'
  | 'INT_64'
  | 'UINT_64'
  | 'DOUBLE'
  | 'STRING'
  | 'EMPTY';

/** What the text of a time-like column holds. */
export type TimeTextKind = 'rfc3339' | 'datetime' | 'date_dmy' | 'date_mdy' | 'date_ambiguous';

/**
 * Shapes of text cells the platform cannot read as numbers or times, though people mean
 * them so: `20,1` (decimal comma), `1,234.5` (thousands separators), `1.234,5` (both),
 * `1,234` (either), a date alone, a time of day alone, `1:05 PM`, a time with a zone name.
 */
export type TextShape =
  | 'decimal_comma'
  | 'decimal_comma_grouped'
  | 'thousands'
  | 'comma_ambiguous'
  | 'date_only'
  | 'time_of_day'
  | 'time_ampm'
  | 'time_zone_name';

export const TEXT_SHAPES: readonly TextShape[] = [
  'decimal_comma',
  'decimal_comma_grouped',
  'thousands',
  'comma_ambiguous',
  'date_only',
  'time_of_day',
  'time_ampm',
  'time_zone_name',
];

const COMMA_GROUPS_RE = /^[+-]?\d{1,3}(?:,\d{3})+(\.\d+)?$/;
const DECIMAL_COMMA_RE = /^[+-]?\d+,\d+$/;
const DOT_GROUPS_COMMA_RE = /^[+-]?\d{1,3}(?:\.\d{3})+,\d+$/;
const DATE_ONLY_RE = /^(?:\d{4}-\d{2}-\d{2}|\d{1,2}[./-]\d{1,2}[./-]\d{4})$/;
const TIME_OF_DAY_RE = /^\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?$/;
const AMPM_RE = /(?:^|[ T])\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s*[AaPp]\.?[Mm]\.?$/;
/**
 * A date and time with a zone name or abbreviation after it: the date ISO, day-first or
 * month-first (`21.02.2024 18:30:34 CET`), the clock 24-hour or 12-hour.
 */
const ZONE_NAME_RE =
  /^(?:\d{4}-\d{2}-\d{2}[T ]\d{2}|\d{1,2}[./-]\d{1,2}[./-]\d{4}[T ]\d{1,2}):\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:\s*[AaPp]\.?[Mm]\.?)?\s*(?:[A-Z]{2,5}|[A-Za-z]+\/[A-Za-z_]+(?:\/[A-Za-z_]+)?)$/;

/** The shape of a text cell (trimmed) that is not a number or time the platform reads. */
export function textShape(s: string): TextShape | undefined {
  const c = s.charCodeAt(0);
  const digitStart = (c >= 48 && c <= 57) || c === 43 || c === 45;
  if (!digitStart) return undefined;
  if (s.includes(',')) {
    const groups = COMMA_GROUPS_RE.exec(s);
    if (groups)
      return groups[1] !== undefined || s.split(',').length > 2 ? 'thousands' : 'comma_ambiguous';
    if (DECIMAL_COMMA_RE.test(s)) return 'decimal_comma';
    if (DOT_GROUPS_COMMA_RE.test(s)) return 'decimal_comma_grouped';
  }
  if (!(c >= 48 && c <= 57)) return undefined;
  if (DATE_ONLY_RE.test(s)) return 'date_only';
  if (TIME_OF_DAY_RE.test(s)) return 'time_of_day';
  if (AMPM_RE.test(s)) return 'time_ampm';
  if (ZONE_NAME_RE.test(s)) return 'time_zone_name';
  return undefined;
}

/** How a column writes its numbers when it writes them as text the platform cannot read. */
export type NumberStyle = 'decimal_comma' | 'thousands';

/**
 * The number style of a column from its counts of text shapes: any decimal comma makes it
 * a decimal-comma column (`1,234` then reads 1.234); else any `1,234.5` or `1,234,567` makes
 * it thousands; `1,234` alone reads as thousands in a comma-delimited file (the cell was
 * quoted) and as a decimal comma otherwise. Undefined when the column is not mostly such numbers.
 */
export function numberStyleOf(
  shapes: Partial<Record<TextShape, { count: number }>>,
  values: number,
  numbers: number,
  delimiter: string,
): NumberStyle | undefined {
  const decimal = (shapes.decimal_comma?.count ?? 0) + (shapes.decimal_comma_grouped?.count ?? 0);
  const thousands = shapes.thousands?.count ?? 0;
  const either = shapes.comma_ambiguous?.count ?? 0;
  const styled = decimal + thousands + either;
  if (styled === 0 || values - styled - numbers > strayLimit(values)) return undefined;
  if (decimal > 0) return 'decimal_comma';
  if (thousands > 0) return 'thousands';
  return delimiter === ',' ? 'thousands' : 'decimal_comma';
}

/** How many odd cells a column of `values` non-empty cells tolerates before they decide its type. */
export function strayLimit(values: number): number {
  return values < 4 ? 0 : Math.max(1, Math.floor(values * 0.01));
}

const SPECIAL_DOUBLE = new Set([
  'nan',
  'inf',
  '+inf',
  '-inf',
  'infinity',
  '+infinity',
  '-infinity',
]);
const ISO_RE =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const SLASH_DATE_RE =
  /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/;

const INT32_MIN = -2_147_483_648n;
const INT32_MAX = 2_147_483_647n;

/**
 * Scans a decimal number by hand (no regex, no allocation): 'int' for `[+-]digits`,
 * 'double' for a fraction or exponent, 'lead0' for `007`-style codes, undefined otherwise.
 */
function scanNumber(s: string): 'int' | 'double' | 'lead0' | undefined {
  const n = s.length;
  let i = 0;
  const c0 = s.charCodeAt(0);
  if (c0 === 43 || c0 === 45) i = 1;
  const intStart = i;
  let mantissa = 0;
  while (i < n) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) break;
    mantissa = mantissa * 10 + d;
    i++;
  }
  const intDigits = i - intStart;
  let frac = 0;
  let dot = false;
  if (i < n && s.charCodeAt(i) === 46) {
    dot = true;
    i++;
    const f = i;
    while (i < n) {
      const d = s.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      mantissa = mantissa * 10 + d;
      i++;
    }
    frac = i - f;
  }
  if (intDigits + frac === 0) return undefined;
  let exp = false;
  const e0 = s.charCodeAt(i);
  if (i < n && (e0 === 101 || e0 === 69)) {
    i++;
    const sign = s.charCodeAt(i);
    if (i < n && (sign === 43 || sign === 45)) i++;
    const e = i;
    while (i < n && isDigit(s.charCodeAt(i))) i++;
    if (i === e) return undefined;
    exp = true;
  }
  if (i !== n) return undefined;
  // A leading zero followed by a digit (007, 00.5) is a code, not a number.
  if (intDigits > 1 && s.charCodeAt(intStart) === 48) return 'lead0';
  // Up to 15 digits the mantissa is exact, and one division by an exact power of ten is
  // correctly rounded: the same double Number(s) gives, without its cost.
  if (!exp && intDigits + frac <= 15) {
    const v = frac === 0 ? mantissa : mantissa / POW10[frac]!;
    scanned = c0 === 45 ? -v : v;
  }
  return dot || exp ? 'double' : 'int';
}

const POW10 = Array.from({ length: 16 }, (_, i) => 10 ** i);

/** The value of the last number `classifyCell` scanned (NaN when it was not simple). */
let scanned = Number.NaN;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** The kind of one cell's text (trimmed). `007` is a string: a code, not a number. */
export function classifyCell(raw: string): CellKind {
  scanned = Number.NaN;
  const s =
    raw.length > 0 && (raw.charCodeAt(0) <= 32 || raw.charCodeAt(raw.length - 1) <= 32)
      ? raw.trim()
      : raw;
  if (s.length === 0) return 'empty';
  const c = s.charCodeAt(0);
  // digits, sign, dot
  if ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46) {
    const num = scanNumber(s);
    if (num === 'int' || num === 'double') return num;
    if (num === 'lead0') return 'string';
    if (c >= 48 && c <= 57) {
      const fast = scanIso(s);
      if (fast !== undefined) return fast;
      const iso = ISO_RE.exec(s);
      if (iso) return validIso(iso) ? (iso[7] ? 'rfc3339' : 'datetime') : 'string';
      const sl = SLASH_DATE_RE.exec(s);
      if (sl) return slashKind(sl);
    }
    if (SPECIAL_DOUBLE.has(s.toLowerCase())) return 'double';
    return 'string';
  }
  const lower = s.length <= 9 ? s.toLowerCase() : '';
  if (lower === 'true' || lower === 'false') return 'bool';
  if (SPECIAL_DOUBLE.has(lower)) return 'double';
  return 'string';
}

function digits(s: string, from: number, count: number): number {
  let v = 0;
  for (let i = from; i < from + count; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
    v = v * 10 + (c - 48);
  }
  return v;
}

/**
 * The common ISO shapes by hand, without a regex: `YYYY-MM-DD[T ]hh:mm:ss[.f...]` with an
 * optional `Z`. Undefined when the text has another shape (the regex then decides).
 */
function scanIso(s: string): 'rfc3339' | 'datetime' | 'string' | undefined {
  const n = s.length;
  if (n < 19 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return undefined;
  const sep = s.charCodeAt(10);
  if ((sep !== 84 && sep !== 32) || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58)
    return undefined;
  const y = digits(s, 0, 4);
  const mo = digits(s, 5, 2);
  const d = digits(s, 8, 2);
  const h = digits(s, 11, 2);
  const mi = digits(s, 14, 2);
  const sec = digits(s, 17, 2);
  if (y < 0 || mo < 0 || d < 0 || h < 0 || mi < 0 || sec < 0) return undefined;
  let i = 19;
  if (i < n && s.charCodeAt(i) === 46) {
    i++;
    const f = i;
    while (i < n && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
    if (i === f) return undefined;
  }
  let zone = false;
  if (i === n - 1 && (s.charCodeAt(i) === 90 || s.charCodeAt(i) === 122)) {
    zone = true;
    i++;
  }
  if (i !== n) return undefined;
  const ok = mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h <= 23 && mi <= 59 && sec <= 60;
  if (!ok) return 'string';
  return zone ? 'rfc3339' : 'datetime';
}

function validIso(m: RegExpExecArray): boolean {
  const mo = Number(m[2]);
  const d = Number(m[3]);
  const h = Number(m[4]);
  const mi = Number(m[5]);
  const sec = m[6] === undefined ? 0 : Number(m[6]);
  return mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h <= 23 && mi <= 59 && sec <= 60;
}

function slashKind(m: RegExpExecArray): CellKind {
  const a = Number(m[1]);
  const b = Number(m[3]);
  if (a < 1 || b < 1 || a > 31 || b > 31 || (a > 12 && b > 12)) return 'string';
  if (m[5] !== undefined && (Number(m[5]) > 23 || Number(m[6]) > 59)) return 'string';
  if (a > 12) return 'date_dmy';
  if (b > 12) return 'date_mdy';
  return 'date_ambiguous';
}

/** The channel type an integer range needs: INT_32, INT_64, UINT_64 (only beyond int64), else DOUBLE. */
export function intRangeType(min: string, max: string): CsvColumnType {
  const lo = BigInt(min.replace(/^\+/, ''));
  const hi = BigInt(max.replace(/^\+/, ''));
  if (lo >= INT32_MIN && hi <= INT32_MAX) return 'INT_32';
  if (lo >= INT64_MIN && hi <= INT64_MAX) return 'INT_64';
  if (lo >= 0n && hi <= UINT64_MAX) return 'UINT_64';
  return 'DOUBLE';
}

/** Every kind of cell, in the order `kinds` lists them (copied from NO_KINDS, each 0). */
export const KIND_LIST: readonly CellKind[] = [
  'empty',
  'bool',
  'int',
  'double',
  'rfc3339',
  'datetime',
  'date_dmy',
  'date_mdy',
  'date_ambiguous',
  'string',
];
const KIND_INDEX = new Map<CellKind, number>(KIND_LIST.map((k, i) => [k, i]));
const NO_KINDS = Object.fromEntries(KIND_LIST.map((k) => [k, 0])) as Record<CellKind, number>;
const K_EMPTY = 0;
const K_INT = 2;
const K_DOUBLE = 3;
const K_RFC3339 = 4;
const K_DATETIME = 5;
const K_STRING = 9;

/** Running facts of one column over the rows seen. JSON-free; summarised by `columnType`. */
export class ColumnStats {
  cells = 0;
  empty = 0;
  /** Count of each kind, by its index in KIND_LIST (numbers keep the hot loop monomorphic). */
  private readonly counts = new Float64Array(KIND_LIST.length);
  private readonly firstOf: Array<{ value: string; index: number } | undefined> = new Array(
    KIND_LIST.length,
  ).fill(undefined);
  /** Exact smallest/largest integer text seen (int cells only). */
  intMin: string | undefined;
  intMax: string | undefined;
  private intMinN = 0;
  private intMaxN = 0;
  /** Smallest/largest numeric value (int and double cells) as numbers, for ranges. */
  numMin = Number.POSITIVE_INFINITY;
  numMax = Number.NEGATIVE_INFINITY;
  /** Exact text of the smallest/largest numeric value. */
  numMinText: string | undefined;
  numMaxText: string | undefined;
  firstValue: string | undefined;
  lastValue: string | undefined;
  /** Non-decreasing so far (numbers by value, dates by text order). */
  increasing = true;
  /** Where (as given to `add`) the first value smaller than the one before it was. */
  firstDecrease: number | undefined;
  /** The first few distinct non-empty values. */
  readonly samples: string[] = [];
  /** The first numeric values in order (for the spacing of time columns). */
  readonly head: number[] = [];
  /** Text cells of each shape the platform cannot read (decimal comma, a date alone ...), with the first. */
  readonly shapes: Partial<Record<TextShape, { count: number; value: string; index: number }>> = {};
  /** Where (as given to `add`) the first empty cells were. */
  readonly emptyAt: number[] = [];
  private prevText = '';
  private prevKind = -1;
  /** The last cell's number, or its time (ms) when it was RFC 3339 (prevKind says which). */
  private prevNum = Number.NaN;
  private fed = 0;

  constructor(
    private readonly maxSamples = 5,
    private readonly maxHead = 200,
  ) {}

  /** Count of each kind of cell seen: a new object each time (read it once, not per kind). */
  get kinds(): Record<CellKind, number> {
    // A copy of a fixed shape: built key by key, it cost a small file tens of KiB of garbage.
    const out = { ...NO_KINDS };
    for (let i = 0; i < KIND_LIST.length; i++) out[KIND_LIST[i] as CellKind] = this.counts[i] ?? 0;
    return out;
  }

  /** The first value of each kind seen, with where it was. */
  get firstOfKind(): Partial<Record<CellKind, { value: string; index: number }>> {
    const out: Partial<Record<CellKind, { value: string; index: number }>> = {};
    KIND_LIST.forEach((k, i) => {
      const f = this.firstOf[i];
      if (f) out[k] = f;
    });
    return out;
  }

  /** Adds one cell; `where` locates it (a row number) in reports. */
  add(raw: string, where: number = this.fed): void {
    this.fed += 1;
    this.cells += 1;
    const k = KIND_INDEX.get(classifyCell(raw)) as number;
    const value = scanned;
    this.counts[k] = (this.counts[k] as number) + 1;
    if (k === K_EMPTY) {
      this.empty += 1;
      if (this.emptyAt.length < 3) this.emptyAt.push(where);
      return;
    }
    if (this.firstOf[k] === undefined) this.firstOf[k] = { value: raw, index: where };
    const text = raw.charCodeAt(0) <= 32 || raw.charCodeAt(raw.length - 1) <= 32 ? raw.trim() : raw;
    if (k === K_STRING) this.addShape(text, where);
    if (this.firstValue === undefined) this.firstValue = text;
    this.lastValue = text;
    if (this.samples.length < this.maxSamples && !this.samples.includes(text))
      this.samples.push(text);
    if (k === K_INT || k === K_DOUBLE) {
      const n = Number.isNaN(value) ? Number(text) : value;
      if (k === K_INT) {
        const exact = text.length > 15;
        if (
          this.intMin === undefined ||
          (exact || this.intMin.length > 15
            ? compareIntStrings(text, this.intMin) < 0
            : n < this.intMinN)
        ) {
          this.intMin = text;
          this.intMinN = n;
        }
        if (
          this.intMax === undefined ||
          (exact || this.intMax.length > 15
            ? compareIntStrings(text, this.intMax) > 0
            : n > this.intMaxN)
        ) {
          this.intMax = text;
          this.intMaxN = n;
        }
      }
      if (n < this.numMin || this.numMinText === undefined) {
        this.numMin = n;
        this.numMinText = text;
      }
      if (n > this.numMax || this.numMaxText === undefined) {
        this.numMax = n;
        this.numMaxText = text;
      }
      if (this.head.length < this.maxHead) this.head.push(n);
      if (this.prevKind === K_INT || this.prevKind === K_DOUBLE) {
        const smaller =
          k === K_INT && this.prevKind === K_INT && text.length > 15
            ? compareIntStrings(text, this.prevText) < 0
            : n < this.prevNum;
        if (smaller) this.markDecrease(where);
      }
      this.prevNum = n;
    } else if (k === K_RFC3339) {
      // Each time parsed once, kept for the comparison with the next.
      const ms = Date.parse(text.replace(' ', 'T'));
      if (this.prevKind === K_RFC3339 && ms < this.prevNum) this.markDecrease(where);
      this.prevNum = ms;
    } else if (k === K_DATETIME && this.prevKind === K_DATETIME && text < this.prevText) {
      this.markDecrease(where);
    }
    this.prevKind = k;
    this.prevText = text;
  }

  private addShape(text: string, where: number): void {
    const shape = textShape(text);
    if (shape === undefined) return;
    const seen = this.shapes[shape];
    if (seen) seen.count += 1;
    else this.shapes[shape] = { count: 1, value: text, index: where };
  }

  /** String cells that have none of the text shapes. */
  get plainStrings(): number {
    let n = this.counts[K_STRING] as number;
    for (const s of Object.values(this.shapes)) n -= s.count;
    return n;
  }

  private markDecrease(index: number): void {
    if (this.increasing) {
      this.increasing = false;
      this.firstDecrease = index;
    }
  }

  /** Values that were not empty. */
  get values(): number {
    return this.cells - this.empty;
  }

  /** Kinds seen (other than empty), most frequent first. */
  kindsSeen(): CellKind[] {
    const kinds = this.kinds;
    return (Object.keys(kinds) as CellKind[])
      .filter((k) => k !== 'empty' && kinds[k] > 0)
      .sort((a, b) => kinds[b] - kinds[a]);
  }

  /** The time text kind when the values are dates/times of one family; 'mixed' when not. */
  timeTextKind(): TimeTextKind | 'mixed' | undefined {
    const seen = this.kindsSeen();
    const times = seen.filter(isTimeKind);
    if (times.length === 0) return undefined;
    if (times.length < seen.length && !(seen.length === times.length + 1 && this.hasStrays()))
      return 'mixed';
    const iso = times.filter((k) => k === 'rfc3339' || k === 'datetime');
    if (iso.length > 0)
      return iso.length === 1 && times.length === 1 ? (iso[0] as TimeTextKind) : 'mixed';
    const { date_dmy: dmy, date_mdy: mdy } = this.kinds;
    if (dmy > 0) return mdy > 0 ? 'mixed' : 'date_dmy';
    return mdy > 0 ? 'date_mdy' : 'date_ambiguous';
  }

  /** True when the column's text cells are few enough to be odd cells, not its type. */
  hasStrays(): boolean {
    const strings = this.counts[K_STRING] as number;
    return strings > 0 && strings <= strayLimit(this.values) && this.values - strings >= 4;
  }

  /** Folds another column's facts (a later part of the same column) into this one. */
  merge(other: ColumnStats, placesKnown = true): void {
    for (let i = 0; i < KIND_LIST.length; i++) {
      this.counts[i] = (this.counts[i] as number) + (other.counts[i] as number);
      if (this.firstOf[i] === undefined && other.firstOf[i] !== undefined)
        this.firstOf[i] = other.firstOf[i];
    }
    this.cells += other.cells;
    this.empty += other.empty;
    for (const [k, v] of Object.entries(other.shapes) as Array<
      [TextShape, { count: number; value: string; index: number }]
    >) {
      const seen = this.shapes[k];
      if (seen) seen.count += v.count;
      else this.shapes[k] = { ...v, index: placesKnown ? v.index : -1 };
    }
    if (placesKnown)
      for (const at of other.emptyAt) if (this.emptyAt.length < 3) this.emptyAt.push(at);
    if (
      other.intMin !== undefined &&
      (this.intMin === undefined || compareIntStrings(other.intMin, this.intMin) < 0)
    ) {
      this.intMin = other.intMin;
      this.intMinN = other.intMinN;
    }
    if (
      other.intMax !== undefined &&
      (this.intMax === undefined || compareIntStrings(other.intMax, this.intMax) > 0)
    ) {
      this.intMax = other.intMax;
      this.intMaxN = other.intMaxN;
    }
    if (
      other.numMinText !== undefined &&
      (this.numMinText === undefined || other.numMin < this.numMin)
    ) {
      this.numMin = other.numMin;
      this.numMinText = other.numMinText;
    }
    if (
      other.numMaxText !== undefined &&
      (this.numMaxText === undefined || other.numMax > this.numMax)
    ) {
      this.numMax = other.numMax;
      this.numMaxText = other.numMaxText;
    }
    if (other.lastValue !== undefined) this.lastValue = other.lastValue;
    this.firstValue ??= other.firstValue;
    for (const v of other.samples)
      if (this.samples.length < this.maxSamples && !this.samples.includes(v)) this.samples.push(v);
  }
}

export function isTimeKind(k: CellKind): boolean {
  return k === 'rfc3339' || k === 'datetime' || k.startsWith('date_');
}

/** The channel type of a column from the kinds of its values; empty cells never count. */
export function columnType(stats: ColumnStats): CsvColumnType {
  const k = stats.kinds;
  const numeric = k.int + k.double;
  // A few text cells among numbers or booleans are odd rows (reported), not the column's type.
  const strings = stats.hasStrays() ? 0 : k.string;
  const other = strings + k.rfc3339 + k.datetime + k.date_dmy + k.date_mdy + k.date_ambiguous;
  if (numeric + other + k.bool === 0) return 'EMPTY';
  if (other > 0) return 'STRING';
  if (k.bool > 0) return numeric > 0 ? 'STRING' : 'BOOL';
  if (k.double > 0) return 'DOUBLE';
  return intRangeType(stats.intMin ?? '0', stats.intMax ?? '0');
}

const ORDER: CsvColumnType[] = ['EMPTY', 'BOOL', 'INT_32', 'INT_64', 'UINT_64', 'DOUBLE', 'STRING'];

/** True when `to` is a wider type than `from` (a later slice contradicted the head). */
export function isWidening(from: CsvColumnType, to: CsvColumnType): boolean {
  return from !== 'EMPTY' && from !== to && ORDER.indexOf(to) > ORDER.indexOf(from);
}
