/**
 * What a CSV check counts as it reads records: per checked column the values that do not
 * fit, per time column the empty, unparseable and backward cells, the field count of each
 * row, header lines repeated in the data. A tally covers one range of records and holds
 * only plain data, so a tally made in a worker thread crosses to the main thread as is;
 * `mergeTally` folds the tallies of consecutive ranges in file order into exactly what one
 * pass over the whole file counts (offenders in row order, a decrease across the seam of
 * two ranges included).
 *
 * Rows of a range are numbered from 1 within it; `mergeTally` moves them to file rows.
 */

import type { ChannelDataType, TimeFormat } from '../../model/index.js';
import { isoMillis } from '../../values/iso-time.js';
import { isBool, numberOf } from './check-cells.js';
import {
  afterSign,
  BAD,
  isPlainDecimal,
  isShortInt,
  J_BOOL,
  J_DOUBLE,
  J_INT,
  J_NONE,
  type Judge,
  judge,
  judgeOf,
  LOSSY,
  NOT_FINITE,
  OK,
} from './check-judge.js';
import { type CsvRecord, fieldText } from './scan.js';
import { keepCell, sameCell, seamRepeats } from './time-cells.js';

export const MAX_OFFENDERS = 3;

/** A place in the file for an offending cell; `row` and `line` when known. */
export interface Place {
  row?: number;
  line?: number;
  offset: number;
  value: string;
}

/** What a tally checks: plain data (it is posted to worker threads). */
export interface TallySpec {
  columns: Array<{ column: number; dataType: ChannelDataType; enumTypes?: string[] }>;
  time?: { column: number; format: TimeFormat };
  /** The header's cells, to find the header line again inside the data. */
  header: string[];
}

export interface ColumnTally {
  nonEmpty: number;
  bad: number;
  offenders: Place[];
  allSmallInts: boolean;
  lossy: number;
  firstLossy: Place | undefined;
  /** DOUBLE and FLOAT cells that read as NaN, +inf or -inf (`nan`, `inf`, `infinity`). */
  nan: number;
  posInf: number;
  negInf: number;
  firstNonFinite: Place | undefined;
}

export interface TimeTally {
  nonEmpty: number;
  bad: number;
  offenders: Place[];
  empty: number;
  emptyAt: Place[];
  decreases: number;
  firstDecrease: Place | undefined;
  /** Rows whose time is the row before's (`check --full` reports them). */
  repeats: number;
  firstRepeat: Place | undefined;
  /**
   * The last time's cell as written, kept when its number is past 2^53 (nanoseconds): two
   * such numbers can be one double and still two times, which their text tells apart.
   */
  prevCell: Uint8Array;
  prevCellLength: number;
  /** The first time that parsed, with its row: a decrease from the range before shows there. */
  first: { t: number; row: number; place: Place } | undefined;
  prev: number;
  prevRow: number;
  min: number;
  max: number;
  withZone: number;
  withoutZone: number;
}

export interface Tally {
  /** Records read (blank lines and the rows before the checked ones included). */
  rows: number;
  dataRows: number;
  /**
   * Data rows of each field count (below MAX_FIELD_COUNTS): as long as the largest count
   * seen needs, from FIRST_FIELD_COUNTS.
   */
  fieldCounts: Int32Array;
  columns: ColumnTally[];
  time: TimeTally | undefined;
  again: { count: number; first: Place[] };
}

/** Field counts tallied: a row of more fields is counted as a data row, not by its count. */
const MAX_FIELD_COUNTS = 1024;
/**
 * The field counts a tally starts with room for. A tally of a small file's rows made 4 KiB
 * of zeroed memory for counts up to 1,024 (bench/many-files: three tallies a file).
 */
const FIRST_FIELD_COUNTS = 64;

/** `counts` made long enough for `count` (below MAX_FIELD_COUNTS), its counts kept. */
function roomFor(counts: Int32Array, count: number): Int32Array {
  if (count < counts.length) return counts;
  const grown = new Int32Array(MAX_FIELD_COUNTS);
  grown.set(counts);
  return grown;
}

/** Counts a data row of `count` fields (below MAX_FIELD_COUNTS), with room made for it. */
function countFields(tally: Tally, count: number): void {
  if (count >= MAX_FIELD_COUNTS) return;
  if (count >= tally.fieldCounts.length) tally.fieldCounts = roomFor(tally.fieldCounts, count);
  const counts = tally.fieldCounts;
  counts[count] = (counts[count] as number) + 1;
}

export function emptyTally(spec: TallySpec): Tally {
  return {
    rows: 0,
    dataRows: 0,
    fieldCounts: new Int32Array(FIRST_FIELD_COUNTS),
    columns: spec.columns.map(() => ({
      nonEmpty: 0,
      bad: 0,
      offenders: [],
      allSmallInts: true,
      lossy: 0,
      firstLossy: undefined,
      nan: 0,
      posInf: 0,
      negInf: 0,
      firstNonFinite: undefined,
    })),
    time: spec.time
      ? {
          nonEmpty: 0,
          bad: 0,
          offenders: [],
          empty: 0,
          emptyAt: [],
          decreases: 0,
          firstDecrease: undefined,
          repeats: 0,
          firstRepeat: undefined,
          prevCell: new Uint8Array(32),
          prevCellLength: 0,
          first: undefined,
          prev: Number.NaN,
          prevRow: 0,
          min: Number.POSITIVE_INFINITY,
          max: Number.NEGATIVE_INFINITY,
          withZone: 0,
          withoutZone: 0,
        }
      : undefined,
    again: { count: 0, first: [] },
  };
}

export interface TallyOptions {
  /** Records before this row are read but not checked (rows before firstDataRow). */
  skipBefore?: number;
  /** False for records whose row numbers are not known (a slice from the end): no rows, no decreases. */
  rowsKnown?: boolean;
}

/** A record callback and the tally it counts into. */
export interface RecordTally {
  readonly tally: Tally;
  onRecord: (rec: CsvRecord) => undefined;
  /**
   * Counts from now on into a fresh tally (`tally` is then that one), with the same
   * callback. The ranges a thread scans one after another take one callback this way
   * (check-range.ts): a new callback a range made the engine optimize the scan's call of
   * it again, without inlining. Measured on bench/check (1 GB in the ranges of 2 jobs, one
   * thread): 5.4 s with a callback a range, 5.2 s with one, 5.0 s in one range.
   */
  restart(): Tally;
}

/**
 * A record callback that tallies into a fresh tally. The hot loop of `--full`: no
 * allocation per row or cell for values that fit (cells are judged on their bytes).
 */
export function tallyRecords(spec: TallySpec, options: TallyOptions = {}): RecordTally {
  let tally = emptyTally(spec);
  const skipBefore = options.skipBefore ?? 0;
  const rowsKnown = options.rowsKnown !== false;
  const judges = spec.columns.map((c) => judgeOf(c.column - 1, c.dataType, c.enumTypes));
  // What the hot loop reads of each judge, in flat arrays.
  const judgeAt = Int32Array.from(judges, (j) => j.at);
  const judgeKind = Uint8Array.from(judges, (j) => j.kind);
  const judgeSigned = Uint8Array.from(judges, (j) => (j.signed ? 1 : 0));
  let { columns, time } = tally;
  const timeAt = spec.time ? spec.time.column - 1 : -1;
  const timeFormat = spec.time?.format ?? 'TIME_FORMAT_UNSPECIFIED';
  const again = headerAgain(spec.header);
  const onRecord = (rec: CsvRecord): undefined => {
    tally.rows += 1;
    if (rowsKnown && rec.row < skipBefore) return;
    const count = rec.count;
    const starts = rec.starts;
    const ends = rec.ends;
    const b = rec.bytes;
    if (count === 1 && ends[0] === starts[0]) return; // blank line
    if (again.test(rec)) {
      tally.again.count += 1;
      if (tally.again.first.length < MAX_OFFENDERS)
        tally.again.first.push(placeAt(rec, 0, starts[0] as number, ends[0] as number, rowsKnown));
      return;
    }
    tally.dataRows += 1;
    countFields(tally, count);
    if (time && timeAt < count) {
      let s = starts[timeAt] as number;
      let e = ends[timeAt] as number;
      while (s < e && (b[s] as number) <= 32) s += 1;
      while (e > s && (b[e - 1] as number) <= 32) e -= 1;
      tallyTime(time, timeFormat, rec, timeAt, s, e, rowsKnown);
    }
    for (let c = 0; c < judges.length; c++) {
      const i = judgeAt[c] as number;
      const kind = judgeKind[c] as number;
      if (i >= count || kind === J_NONE) continue;
      let s = starts[i] as number;
      let e = ends[i] as number;
      while (s < e && (b[s] as number) <= 32) s += 1;
      while (e > s && (b[e - 1] as number) <= 32) e -= 1;
      if (s >= e) continue;
      const col = columns[c] as ColumnTally;
      col.nonEmpty += 1;
      // The common cases inline: a plain decimal in a DOUBLE column (once it has shown one
      // value that is not a small integer), a short integer, a boolean. Anything else goes
      // to the full judgement.
      if (kind === J_DOUBLE) {
        if (!col.allSmallInts && isPlainDecimal(b, s, e)) continue;
      } else if (kind === J_INT) {
        if (isShortInt(b, s, e, judgeSigned[c] === 1)) continue;
      } else if (kind === J_BOOL && isBool(b, s, e)) continue;
      const verdict = judge(b, s, e, judges[c] as Judge, col, rec, i);
      if (verdict !== OK) countVerdict(verdict, col, rec, i, s, e, rowsKnown);
    }
  };
  return {
    get tally() {
      return tally;
    },
    onRecord,
    restart: () => {
      tally = emptyTally(spec);
      ({ columns, time } = tally);
      return tally;
    },
  };
}

function tallyTime(
  time: TimeTally,
  format: TimeFormat,
  rec: CsvRecord,
  i: number,
  s: number,
  e: number,
  rowsKnown: boolean,
): void {
  const b = rec.bytes;
  if (s === e) {
    time.empty += 1;
    if (time.emptyAt.length < MAX_OFFENDERS) time.emptyAt.push(placeAt(rec, i, s, e, rowsKnown));
    return;
  }
  time.nonEmpty += 1;
  const t =
    format === 'TIME_FORMAT_ABSOLUTE_RFC3339' || format === 'TIME_FORMAT_ABSOLUTE_DATETIME'
      ? timeValue(b, s, e, format, time)
      : numberOf(b, s, e);
  if (!Number.isFinite(t)) {
    time.bad += 1;
    if (time.offenders.length < MAX_OFFENDERS)
      time.offenders.push(placeAt(rec, i, s, e, rowsKnown));
    return;
  }
  if (t < time.min) time.min = t;
  if (t > time.max) time.max = t;
  const next = rowsKnown && time.prevRow === rec.row - 1;
  if (t < time.prev && next) {
    time.decreases += 1;
    if (!time.firstDecrease) time.firstDecrease = placeAt(rec, i, s, e, rowsKnown);
  } else if (t === time.prev && next && sameCell(time, b, s, e)) {
    time.repeats += 1;
    if (!time.firstRepeat) time.firstRepeat = placeAt(rec, i, s, e, rowsKnown);
  }
  if (time.first === undefined && rowsKnown)
    time.first = { t, row: rec.row, place: placeAt(rec, i, s, e, rowsKnown) };
  keepCell(time, t, b, s, e);
  time.prev = t;
  time.prevRow = rowsKnown ? rec.row : -1;
}

/**
 * Folds the tally of the next range into `total`, in file order: the range's rows are
 * numbered from `rowBase + 1` and its lines from `lineBase + 1` in the file.
 */
export function mergeTally(total: Tally, next: Tally, rowBase: number, lineBase: number): void {
  const at = (p: Place): Place => rebase(p, rowBase, lineBase);
  total.rows += next.rows;
  total.dataRows += next.dataRows;
  total.fieldCounts = roomFor(total.fieldCounts, next.fieldCounts.length - 1);
  for (let n = 0; n < next.fieldCounts.length; n++)
    total.fieldCounts[n] = (total.fieldCounts[n] as number) + (next.fieldCounts[n] as number);
  total.columns.forEach((col, c) => {
    const more = next.columns[c] as ColumnTally;
    col.nonEmpty += more.nonEmpty;
    col.bad += more.bad;
    col.offenders = firstFew(col.offenders, more.offenders.map(at));
    col.allSmallInts &&= more.allSmallInts;
    col.lossy += more.lossy;
    col.firstLossy ??= more.firstLossy && at(more.firstLossy);
    col.nan += more.nan;
    col.posInf += more.posInf;
    col.negInf += more.negInf;
    col.firstNonFinite ??= more.firstNonFinite && at(more.firstNonFinite);
  });
  if (total.time && next.time) mergeTime(total.time, next.time, rowBase, at);
  total.again.count += next.again.count;
  total.again.first = firstFew(total.again.first, next.again.first.map(at));
}

function mergeTime(t: TimeTally, more: TimeTally, rowBase: number, at: (p: Place) => Place) {
  t.nonEmpty += more.nonEmpty;
  t.bad += more.bad;
  t.offenders = firstFew(t.offenders, more.offenders.map(at));
  t.empty += more.empty;
  t.emptyAt = firstFew(t.emptyAt, more.emptyAt.map(at));
  const first = more.first;
  const seam = first !== undefined && t.prevRow === rowBase + first.row - 1;
  if (seam && first.t < t.prev) {
    // The seam: the range's first time is below the last time of the row just before it.
    t.decreases += 1;
    t.firstDecrease ??= at(first.place);
  } else if (seam && first.t === t.prev && seamRepeats(t, first)) {
    t.repeats += 1;
    t.firstRepeat ??= at(first.place);
  }
  t.decreases += more.decreases;
  t.firstDecrease ??= more.firstDecrease && at(more.firstDecrease);
  t.repeats += more.repeats;
  t.firstRepeat ??= more.firstRepeat && at(more.firstRepeat);
  t.first ??= first && { ...first, row: rowBase + first.row, place: at(first.place) };
  if (!Number.isNaN(more.prev)) {
    t.prev = more.prev;
    t.prevRow = more.prevRow === -1 ? -1 : rowBase + more.prevRow;
    t.prevCell = more.prevCell;
    t.prevCellLength = more.prevCellLength;
  }
  t.min = Math.min(t.min, more.min);
  t.max = Math.max(t.max, more.max);
  t.withZone += more.withZone;
  t.withoutZone += more.withoutZone;
}

function rebase(p: Place, rowBase: number, lineBase: number): Place {
  const out: Place = { offset: p.offset, value: p.value };
  if (p.row !== undefined) out.row = p.row + rowBase;
  if (p.line !== undefined) out.line = p.line + lineBase;
  return out;
}

function firstFew(a: Place[], b: Place[]): Place[] {
  return a.length >= MAX_OFFENDERS ? a : [...a, ...b].slice(0, MAX_OFFENDERS);
}

// ---------------------------------------------------------------------------------------
// Judging cells

/** A place in the file for an offending cell (made only for the few offenders kept). */
function placeAt(rec: CsvRecord, i: number, s: number, e: number, rowsKnown: boolean): Place {
  const p: Place = { offset: rec.offset, value: decodeCell(rec, i, s, e) };
  if (rowsKnown) {
    p.row = rec.row;
    p.line = rec.line;
  }
  return p;
}

const UTF8 = new TextDecoder();

function decodeCell(rec: CsvRecord, i: number, s: number, e: number): string {
  if (rec.anyQuoted && rec.quoted[i]) return fieldText(rec, i).trim();
  return UTF8.decode(rec.bytes.subarray(s, e));
}

/** A time cell as epoch milliseconds (absolute) or its number (relative); NaN when it does not parse. */
function timeValue(b: Uint8Array, s: number, e: number, format: TimeFormat, t: TimeTally): number {
  switch (format) {
    case 'TIME_FORMAT_ABSOLUTE_RFC3339': {
      const r = isoMillis(b, s, e);
      if (!r) return Number.NaN;
      if (!r.zone) {
        t.withoutZone += 1;
        return Number.NaN;
      }
      return r.ms;
    }
    case 'TIME_FORMAT_ABSOLUTE_DATETIME': {
      const r = isoMillis(b, s, e);
      if (!r) return Number.NaN;
      if (r.zone) {
        t.withZone += 1;
        return Number.NaN;
      }
      return r.ms;
    }
    default:
      return numberOf(b, s, e);
  }
}

/** Counts a cell the full judgement did not pass: a bad value, a lossy one, NaN or ±inf. */
function countVerdict(
  verdict: number,
  col: ColumnTally,
  rec: CsvRecord,
  i: number,
  s: number,
  e: number,
  rowsKnown: boolean,
): void {
  if (verdict === BAD) {
    col.bad += 1;
    if (col.offenders.length < MAX_OFFENDERS) col.offenders.push(placeAt(rec, i, s, e, rowsKnown));
  } else if (verdict === LOSSY) {
    col.lossy += 1;
    if (!col.firstLossy) col.firstLossy = placeAt(rec, i, s, e, rowsKnown);
  } else if (verdict === NOT_FINITE) {
    countNotFinite(col, rec.bytes, s);
    if (!col.firstNonFinite) col.firstNonFinite = placeAt(rec, i, s, e, rowsKnown);
  }
}

/** Counts a word number by its kind: NaN (any sign), -inf, +inf. */
function countNotFinite(col: ColumnTally, b: Uint8Array, s: number): void {
  if ((afterSign(b, s) | 32) === 110) col.nan += 1;
  else if (b[s] === 45) col.negInf += 1;
  else col.posInf += 1;
}

/** Finds the header line again inside the data (two logs concatenated), cheaply per record. */
function headerAgain(header: string[]): { test(rec: CsvRecord): boolean } {
  const cells = header.map((h) => h.trim());
  const firstLength = Buffer.byteLength(header[0] ?? '', 'utf8');
  return {
    test(rec: CsvRecord): boolean {
      if (cells.length < 2 || rec.count !== cells.length) return false;
      if ((rec.ends[0] as number) - (rec.starts[0] as number) !== firstLength) return false;
      for (let i = 0; i < cells.length; i++)
        if (fieldText(rec, i).trim() !== cells[i]) return false;
      return true;
    },
  };
}
