/**
 * What `normalize` will do to a CSV file, decided once from its inspection profile: which
 * input columns become which output column and how each cell is rewritten.
 */
import {
  type CsvFieldProfile,
  type CsvProfile,
  type NumberStyle,
  numberStyleOf,
} from '../inspect/index.js';
import { joinDateTime, rewriteTime } from './times.js';

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

/** The plan for a profile; `firstDataRow` (from a draft config) overrides the detected one. */
export function planNormalize(profile: CsvProfile, firstDataRow?: number): NormalizePlan {
  const fields = profile.fields;
  const delimiter = profile.dialect.delimiter;
  const date = fields.find(isDateColumn);
  const clock = date ? fields.find((f) => f !== date && hasShape(f, 'time_of_day')) : undefined;
  const columns: OutColumn[] = [];
  for (const f of fields) {
    const header = f.header ?? '';
    if (clock && f === clock) continue;
    if (date && clock && f === date) {
      columns.push({
        from: [date.column - 1, clock.column - 1],
        header: clock.header || 'time',
        kind: 'join',
      });
      continue;
    }
    const style = numberStyle(f, delimiter);
    const time = hasShape(f, 'time_ampm') || hasShape(f, 'time_zone_name');
    columns.push({ from: [f.column - 1], header, kind: style ?? (time ? 'time' : 'copy') });
  }
  const layout = profile.layout;
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
  };
}

/** `1.234,5` → `1234.5`; `1,234.5` → `1234.5`. */
function plainNumber(cell: string, style: NumberStyle): string {
  const t = cell.trim();
  return style === 'decimal_comma' ? t.replace(/\./g, '').replace(',', '.') : t.replace(/,/g, '');
}

/** Rewrites one data row's cells into the output cells, counting what changed. */
export function rewriteRow(
  plan: NormalizePlan,
  cells: readonly string[],
  zone: string | undefined,
  counts: NormalizeCounts,
): string[] {
  const out: string[] = [];
  for (const col of plan.columns) {
    const a = cells[col.from[0] as number] ?? '';
    if (col.kind === 'join') {
      out.push(joinedOrKept(a, cells[col.from[1] as number] ?? '', zone, counts));
    } else if (col.kind === 'copy' || a.trim() === '') {
      out.push(a);
    } else if (col.kind === 'time') {
      const t = rewriteTime(a, zone);
      if (t === undefined) counts.cellsKept += 1;
      else counts.timesRewritten += 1;
      out.push(t ?? a);
    } else {
      const n = plainNumber(a, col.kind);
      if (n !== a) {
        if (col.kind === 'decimal_comma') counts.decimalCommas += 1;
        else counts.thousandsSeparators += 1;
      }
      out.push(n);
    }
  }
  return out;
}

function joinedOrKept(
  date: string,
  clock: string,
  zone: string | undefined,
  counts: NormalizeCounts,
): string {
  if (date.trim() === '' && clock.trim() === '') return '';
  const t = joinDateTime(date, clock, zone);
  if (t === undefined) {
    counts.cellsKept += 1;
    return `${date} ${clock}`.trim();
  }
  counts.timesJoined += 1;
  return t;
}
