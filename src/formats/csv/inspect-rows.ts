/**
 * Typing the head's data rows into per-column stats (the measured hot loop of inspect), and
 * what the later parts share with it: header lines repeated in the data, the first cell of
 * each kind, whether one value comes before another.
 */
import { type CellKind, ColumnStats, type CsvColumnType, columnType } from './cells.js';
import type { CsvDialect } from './dialect.js';
import { type HeadTable, isBlankRow } from './inspect-head.js';
import type { CsvLayout } from './layout.js';

export interface HeadScan {
  stats: ColumnStats[];
  headTypes: CsvColumnType[];
  ragged: number;
  firstRagged: number | undefined;
  dataRows: number;
  /** The row after the head's last data row. */
  headLimit: number;
  headerCells: string[] | undefined;
  repeated: RepeatedHeader;
  /** Whether the head's rows are the whole file. */
  whole: boolean;
}

/**
 * Types every data row of the head into per-column stats. The measured hot loop of
 * inspect: quote-free lines are split in place, without a row array per line.
 */
export function scanHeadRows(
  table: HeadTable,
  layout: CsvLayout,
  dialect: CsvDialect,
  headRows: number,
): HeadScan {
  const { rows, lines } = table;
  const n = layout.columnCount;
  const headLimit = Math.min(table.rowCount, layout.firstData + headRows);
  const stats = Array.from({ length: n }, () => new ColumnStats());
  let ragged = 0;
  let firstRagged: number | undefined;
  let dataRows = 0;
  const delim = dialect.delimiter;
  const headerCells = layout.header >= 0 ? (rows[layout.header] ?? []) : undefined;
  const headerLine = headerCells?.join(delim);
  const repeated: RepeatedHeader = { count: 0, first: [] };
  for (let r = layout.firstData; r < headLimit; r++) {
    if (lines && r >= rows.length) {
      let line = lines[r] as string;
      if (dialect.lineEnding === 'mixed' && line.endsWith('\r')) line = line.slice(0, -1);
      if (line.indexOf(delim) < 0 && line.trim() === '') continue;
      if (line === headerLine) {
        noteRepeat(repeated, { row: r + 1, line: r + 1 });
        continue;
      }
      let fields = 0;
      let from = 0;
      for (;;) {
        const at = line.indexOf(delim, from);
        if (fields < n)
          (stats[fields] as ColumnStats).add(
            line.substring(from, at < 0 ? line.length : at),
            r + 1,
          );
        fields += 1;
        if (at < 0) break;
        from = at + delim.length;
      }
      for (let c = fields; c < n; c++) (stats[c] as ColumnStats).add('', r + 1);
      if (fields !== n) {
        ragged += 1;
        firstRagged ??= r + 1;
      }
      dataRows += 1;
      continue;
    }
    const row = rows[r] as string[];
    if (isBlankRow(row)) continue;
    if (headerCells && sameCells(row, headerCells)) {
      noteRepeat(repeated, lines ? { row: r + 1, line: r + 1 } : { row: r + 1 });
      continue;
    }
    if (row.length !== n) {
      ragged += 1;
      firstRagged ??= r + 1;
    }
    dataRows += 1;
    for (let c = 0; c < n; c++) (stats[c] as ColumnStats).add(row[c] ?? '', r + 1);
  }
  const headTypes = stats.map(columnType);
  const whole = table.complete && headLimit === table.rowCount;
  return {
    stats,
    headTypes,
    ragged,
    firstRagged,
    dataRows,
    headLimit,
    headerCells,
    repeated,
    whole,
  };
}

/** Header lines repeated inside the data (two logs concatenated): how many, and the first. */
export interface RepeatedHeader {
  count: number;
  first: Array<{ row?: number; line?: number; where?: string }>;
}

export function noteRepeat(
  into: RepeatedHeader,
  at: { row?: number; line?: number; where?: string },
) {
  into.count += 1;
  if (into.first.length < 3) into.first.push(at);
}

export function sameCells(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if ((a[i] ?? '').trim() !== (b[i] ?? '').trim()) return false;
  return true;
}

export type KindWhere = Partial<Record<CellKind, { value: string; where: string }>>;

export function noteKinds(
  into: KindWhere[],
  c: number,
  part: ColumnStats,
  where: (index: number) => string,
): void {
  const target = into[c] as KindWhere;
  for (const k of Object.keys(part.firstOfKind) as CellKind[]) {
    const f = part.firstOfKind[k];
    if (f && target[k] === undefined) target[k] = { value: f.value.trim(), where: where(f.index) };
  }
}

/** True when `b` comes before `a` (numbers by value, ISO text by order). */
export function decreases(a: string, b: string): boolean {
  const x = Number(a);
  const y = Number(b);
  if (a.trim() !== '' && b.trim() !== '' && Number.isFinite(x) && Number.isFinite(y)) return y < x;
  if (/^\d{4}-\d{2}-\d{2}/.test(a) && /^\d{4}-\d{2}-\d{2}/.test(b)) {
    const pa = Date.parse(a.replace(' ', 'T'));
    const pb = Date.parse(b.replace(' ', 'T'));
    return Number.isFinite(pa) && Number.isFinite(pb) ? pb < pa : b < a;
  }
  return false;
}
