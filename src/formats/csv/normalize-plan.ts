/**
 * What `normalize` will do to a CSV file, decided once from its inspection profile: which
 * input columns become which output column and how each cell is rewritten.
 */

import { type NumberStyle, numberStyleOf } from './cells.js';
import { type DateOrder, dateOrderOf, type TimeWriter } from './normalize-times.js';
import type { CsvFieldProfile, CsvProfile } from './profile.js';

/** Counts of what was changed, by kind. */
export interface NormalizeCounts {
  decimalCommas: number;
  thousandsSeparators: number;
  timesJoined: number;
  timesRewritten: number;
  repeatedHeaders: number;
  /** Cells that could not be rewritten and were written as they were. */
  cellsKept: number;
}

/** One column of the output: the input columns it reads (0-based) and how. */
export interface OutColumn {
  from: number[];
  header: string;
  kind: 'copy' | NumberStyle | 'join' | 'time';
  /**
   * Times: the order of day and month in its dates, when known (given, or decided by the
   * values); `undecided` when its dates are day-first or month-first and nothing decided yet.
   */
  dateOrder?: DateOrder;
  undecided?: boolean;
  /** A join: the headers of its date and time-of-day columns. */
  parts?: [string, string];
}

/** What the plan is made with besides the profile. */
export interface PlanOptions {
  /** The first data row, from a draft config (overrides the detected one). */
  firstDataRow?: number | undefined;
  /** The order of day and month in dates that do not decide it themselves. */
  dateOrder?: DateOrder | undefined;
  /** Local times are in this zone: times without an offset are rewritten with its offsets. */
  timezone?: string | undefined;
}

export interface NormalizePlan {
  columns: OutColumn[];
  /** Input columns read (trailing empty columns are not). */
  inputWidth: number;
  /** 1-based header row (0: none), 1-based first data row. */
  headerRow: number;
  firstDataRow: number;
  delimiter: string;
  bom: boolean;
  /** Nothing to rewrite cell by cell: bytes can be copied (repeated headers left out). */
  bytesOnly: boolean;
  /** Columns copied although a good part of their values are times normalize rewrites. */
  kept: KeptColumn[];
}

/**
 * A column left as written whose values read include times the platform cannot read and
 * normalize rewrites, but fewer than half of them: how many of each shape, of how many
 * values read.
 */
export interface KeptColumn {
  /** 1-based. */
  column: number;
  header: string;
  values: number;
  ampm: number;
  zoneNamed: number;
  ordered: number;
  all: number;
}

/**
 * The rewritable times of a column planned as a copy (half of its values read or fewer),
 * when they are at least a quarter of them (fewer are odd cells of a text column).
 */
function keptTimes(f: CsvFieldProfile): KeptColumn | undefined {
  const { ampm, zoneNamed, ordered, all } = rewritableTimes(f);
  if (all === 0 || all * 4 < f.valueCount) return undefined;
  return {
    column: f.column,
    header: f.header ?? '',
    values: f.valueCount,
    ampm,
    zoneNamed,
    ordered,
    all,
  };
}

function hasShape(
  f: CsvFieldProfile,
  shape: 'date_only' | 'time_of_day' | 'time_ampm' | 'time_zone_name',
) {
  const seen = f.textShapes?.[shape];
  return seen !== undefined && seen.count * 2 > f.valueCount;
}

function isDateColumn(f: CsvFieldProfile): boolean {
  return (
    hasShape(f, 'date_only') ||
    (f.logicalType?.startsWith('date_') === true && f.samples.every((v) => !v.includes(':')))
  );
}

function numberStyle(f: CsvFieldProfile, delimiter: string): NumberStyle | undefined {
  if (f.physicalType !== 'STRING' || !f.textShapes) return undefined;
  const numbers = (f.kinds.int ?? 0) + (f.kinds.double ?? 0);
  return numberStyleOf(f.textShapes, f.valueCount, numbers, delimiter);
}

/**
 * The plan for a profile: which columns are copied, which have their numbers or times
 * rewritten, which two are joined into one time column.
 */
export function planNormalize(profile: CsvProfile, options: PlanOptions = {}): NormalizePlan {
  const fields = profile.fields;
  const delimiter = profile.dialect.delimiter;
  const date = fields.find(isDateColumn);
  const clock = date ? fields.find((f) => f !== date && hasShape(f, 'time_of_day')) : undefined;
  const columns: OutColumn[] = [];
  const kept: KeptColumn[] = [];
  for (const f of fields) {
    const header = f.header ?? '';
    if (clock && f === clock) continue;
    if (date && clock && f === date) {
      const from = [date.column - 1, clock.column - 1];
      const parts: [string, string] = [date.header ?? '', clock.header ?? ''];
      const header = clock.header || 'time';
      columns.push({ from, header, kind: 'join', parts, ...order(date, options) });
      continue;
    }
    const style = numberStyle(f, delimiter);
    const kind = style ?? (isRewrittenTime(f, options.timezone) ? 'time' : 'copy');
    const times = kind === 'copy' ? keptTimes(f) : undefined;
    if (times) kept.push(times);
    columns.push({
      from: [f.column - 1],
      header,
      kind,
      ...(kind === 'time' ? order(f, options) : {}),
    });
  }
  const layout = profile.layout;
  const { firstDataRow } = options;
  const first = firstDataRow ?? layout.firstDataRow;
  const headerRow = firstDataRow !== undefined ? (first > 1 ? first - 1 : 0) : layout.headerRow;
  const bom = profile.dialect.encoding === 'utf-8-bom';
  return {
    columns,
    inputWidth: fields.length,
    headerRow: layout.unitsRow > 0 && layout.unitsRow === headerRow ? layout.headerRow : headerRow,
    firstDataRow: first,
    delimiter,
    bom,
    bytesOnly:
      !profile.dialect.gzip &&
      delimiter === ',' &&
      profile.dialect.quoteChar === '"' &&
      fields.length === layout.columnCount &&
      columns.every((c) => c.kind === 'copy'),
    kept,
  };
}

/** Day-first or month-first dates (one column, or a date beside a time of day). */
const ORDERED = new Set(['date_dmy', 'date_mdy', 'date_ambiguous']);

/**
 * A column of times written so the platform cannot read them: AM/PM, a zone name, dates
 * day-first or month-first, or (when the zone of local times is given) no offset at all.
 */
function isRewrittenTime(f: CsvFieldProfile, zone: string | undefined): boolean {
  if (ORDERED.has(f.logicalType ?? '')) return true;
  // Most of the column such times, of one shape or several (day-first dates, some with
  // AM/PM); a column mostly of AM/PM or of zone-named times among them.
  if (rewritableTimes(f).all * 2 > f.valueCount) return true;
  return zone !== undefined && f.logicalType === 'datetime';
}

/** The values of a column that are times normalize rewrites, by shape, and all of them. */
function rewritableTimes(f: CsvFieldProfile) {
  const ampm = f.textShapes?.time_ampm?.count ?? 0;
  const zoneNamed = f.textShapes?.time_zone_name?.count ?? 0;
  const ordered = (f.kinds.date_dmy ?? 0) + (f.kinds.date_mdy ?? 0) + (f.kinds.date_ambiguous ?? 0);
  return { ampm, zoneNamed, ordered, all: Math.min(f.valueCount, ampm + zoneNamed + ordered) };
}

/** A time column's date order: given, or as its sampled values decide; else still to decide. */
function order(
  f: CsvFieldProfile,
  options: PlanOptions,
): Pick<OutColumn, 'dateOrder' | 'undecided'> {
  if (options.dateOrder) return { dateOrder: options.dateOrder };
  if (f.logicalType === 'date_dmy') return { dateOrder: 'dmy' };
  if (f.logicalType === 'date_mdy') return { dateOrder: 'mdy' };
  if (f.logicalType === 'date_ambiguous') return { undecided: true };
  // Times with a zone name are text to the inspection, whatever their date: the sampled
  // cells say whether they are day-first or month-first, and which when one decides.
  if (!f.samples.some((v) => SLASH_DATE.test(v.trim()))) return {};
  const orders = new Set(f.samples.map(dateOrderOf).filter((o) => o !== undefined));
  if (orders.size > 1) return {};
  const [decided] = orders;
  return decided ? { dateOrder: decided } : { undecided: true };
}

/** A cell that begins with a day-first or month-first date. */
const SLASH_DATE = /^\d{1,2}([./-])\d{1,2}\1\d{4}(?:[ T]|$)/;

/** `1.234,5` → `1234.5`; `1,234.5` → `1234.5`. */
function plainNumber(cell: string, style: NumberStyle): string {
  const t = cell.trim();
  return style === 'decimal_comma' ? t.replace(/\./g, '').replace(',', '.') : t.replace(/,/g, '');
}

/**
 * Rewrites one cell of a data row (`a`; `b` is the time of day a join reads beside its date),
 * counting what changed. `writer` is the column's time writer, which reads it in row order.
 */
export function rewriteCell(
  col: OutColumn,
  a: string,
  b: string,
  writer: TimeWriter | undefined,
  counts: NormalizeCounts,
  row: number,
): string {
  if (col.kind === 'join' && writer) return joinedOrKept(a, b, writer, counts, row);
  if (col.kind === 'copy' || a.trim() === '') return a;
  if (col.kind === 'time' && writer) {
    const t = writer.rewrite(a, row);
    if (t === undefined) counts.cellsKept += 1;
    else counts.timesRewritten += 1;
    return t ?? a;
  }
  const n = plainNumber(a, col.kind as NumberStyle);
  if (n !== a) {
    if (col.kind === 'decimal_comma') counts.decimalCommas += 1;
    else counts.thousandsSeparators += 1;
  }
  return n;
}

function joinedOrKept(
  date: string,
  clock: string,
  writer: TimeWriter,
  counts: NormalizeCounts,
  row: number,
): string {
  if (date.trim() === '' && clock.trim() === '') return '';
  const t = writer.join(date, clock, row);
  if (t === undefined) {
    counts.cellsKept += 1;
    return `${date} ${clock}`.trim();
  }
  counts.timesJoined += 1;
  return t;
}
