/**
 * Generated CSV tables for property tests: column types, a time column in one of the time
 * formats (relative ones under a unit-bearing header), delimiters, quoting with embedded
 * delimiters and line ends, BOM, CRLF, a units row, empty cells, a header or none. Each
 * table comes with what wrote it, so a test knows the draft inference must give back.
 */
import fc from 'fast-check';

export type DataType = 'BOOL' | 'INT_32' | 'INT_64' | 'UINT_64' | 'DOUBLE' | 'STRING';
type TimeKind = 'rfc3339' | 'datetime' | 'unix_s' | 'unix_ms' | 'unix_us' | 'unix_ns' | 'relative';

const TIME_FORMATS: Record<Exclude<TimeKind, 'relative'>, string> = {
  rfc3339: 'TIME_FORMAT_ABSOLUTE_RFC3339',
  datetime: 'TIME_FORMAT_ABSOLUTE_DATETIME',
  unix_s: 'TIME_FORMAT_ABSOLUTE_UNIX_SECONDS',
  unix_ms: 'TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS',
  unix_us: 'TIME_FORMAT_ABSOLUTE_UNIX_MICROSECONDS',
  unix_ns: 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS',
};
const RELATIVE = [
  { header: 'time_s', format: 'TIME_FORMAT_RELATIVE_SECONDS' },
  { header: 't_ms', format: 'TIME_FORMAT_RELATIVE_MILLISECONDS' },
  { header: 'time [us]', format: 'TIME_FORMAT_RELATIVE_MICROSECONDS' },
  { header: 'elapsed (min)', format: 'TIME_FORMAT_RELATIVE_MINUTES' },
] as const;
const NAMES = ['speed', 'volts', 'temp', 'mode', 'flag', 'count', 'load', 'note'];
const UNITS = ['m/s', 'V', 'degC', '%', 'rpm', 'kPa'];
const WORDS = [
  'alpha',
  'beta gamma',
  'x,y',
  'semi;colon',
  'pi|pe',
  'tab\there',
  'say "hi"',
  'two\nlines',
  'ok',
];

/** The start time given for relative tables. */
export const TABLE_START = '2024-03-01T12:00:00Z';
const T0 = Date.UTC(2024, 2, 1, 12);

/** How a table is written. */
export const tableSpec = fc.record({
  types: fc.array(
    fc.constantFrom<DataType>('BOOL', 'INT_32', 'INT_64', 'UINT_64', 'DOUBLE', 'STRING'),
    { minLength: 1, maxLength: 5 },
  ),
  time: fc.constantFrom<TimeKind>(
    'rfc3339',
    'datetime',
    'unix_s',
    'unix_ms',
    'unix_us',
    'unix_ns',
    'relative',
  ),
  relative: fc.integer({ min: 0, max: RELATIVE.length - 1 }),
  timeAt: fc.nat(),
  delimiter: fc.constantFrom(',', ';', '\t', '|'),
  bom: fc.boolean(),
  crlf: fc.boolean(),
  header: fc.boolean(),
  unitsRow: fc.boolean(),
  rows: fc.integer({ min: 5, max: 40 }),
  emptyRate: fc.constantFrom(0, 0.1, 0.3),
  seed: fc.integer(),
});
export type TableSpec = typeof tableSpec extends fc.Arbitrary<infer T> ? T : never;

/** One column of a written table. */
export interface TableColumn {
  header: string;
  units?: string;
  type: DataType | 'TIME';
}

/** A table as written, with what wrote it. */
export interface Table {
  text: string;
  columns: TableColumn[];
  /** Whether a header row (and a units row under it) was written. */
  header: boolean;
  unitsRow: boolean;
  /** The time column, 0-based, and its format. */
  timeColumn: number;
  format: string;
  relative: boolean;
}

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 2246822519) + 3266489917) >>> 0;
    return s / 2 ** 32;
  };
}

function cellOf(type: DataType, r: () => number, row: number): string {
  switch (type) {
    case 'BOOL':
      return r() < 0.5 ? 'true' : 'false';
    case 'INT_32':
      return String(Math.floor(r() * 2_000_000) - 1_000_000);
    case 'INT_64':
      // Negative, beyond int32: never a plausible unix time.
      return String(-3_000_000_000 - Math.floor(r() * 1e12));
    case 'UINT_64':
      return (9_223_372_036_854_775_808n + BigInt(Math.floor(r() * 1e9))).toString();
    case 'DOUBLE':
      return (r() * 2000 - 1000).toFixed(3);
    case 'STRING':
      return row === 0 ? 'alpha' : (WORDS[Math.floor(r() * WORDS.length)] as string);
  }
}

function timeCell(kind: TimeKind, row: number, rel: number): string {
  const ms = T0 + row * 250;
  switch (kind) {
    case 'rfc3339':
      return new Date(ms).toISOString();
    case 'datetime':
      return new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
    case 'unix_s':
      return (ms / 1000).toFixed(2);
    case 'unix_ms':
      return String(ms);
    case 'unix_us':
      return String(ms * 1000 + 7);
    case 'unix_ns':
      return (BigInt(ms) * 1_000_000n + 123n).toString();
    case 'relative':
      return rel === 3
        ? (row * 0.5).toFixed(1)
        : rel === 0
          ? (row * 0.01).toFixed(2)
          : String(row * 40);
  }
}

function quote(cell: string, d: string): string {
  return cell.includes(d) || /["\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/** The text of a value cell: of data column `column` (0-based, time column not counted) in `row`. */
export type CellWriter = (column: number, row: number, random: () => number) => string;

/**
 * Writes the table a spec describes. A relative time always gets a header (its unit is
 * there). `cell` writes the value cells instead of the column types' generator, and
 * `names` are the headers of the data columns (by their place in the table) instead of
 * the generator's.
 */
export function writeTable(s: TableSpec, cell?: CellWriter, names?: string[]): Table {
  const relative = s.time === 'relative';
  const header = s.header || relative;
  const unitsRow = header && s.unitsRow;
  const r = rng(s.seed);
  const nCols = s.types.length + 1;
  const timeColumn = s.timeAt % nCols;
  const rel = RELATIVE[s.relative] as (typeof RELATIVE)[number];
  const columns: TableColumn[] = [];
  let t = 0;
  const dataIndex: number[] = [];
  for (let c = 0; c < nCols; c++) {
    dataIndex.push(c === timeColumn ? -1 : t);
    if (c === timeColumn) {
      const h = relative ? rel.header : s.time === 'datetime' ? 'datetime' : 'timestamp';
      columns.push({ header: h, type: 'TIME' });
    } else {
      columns.push({
        header: names?.[c] ?? `${NAMES[c % NAMES.length]}_${c}`,
        type: s.types[t++] as DataType,
        units: UNITS[c % UNITS.length] as string,
      });
    }
  }
  const lines: string[][] = [];
  if (header) lines.push(columns.map((c) => c.header));
  if (unitsRow) lines.push(columns.map((c) => (c.type === 'TIME' ? '' : (c.units ?? ''))));
  for (let row = 0; row < s.rows; row++) {
    lines.push(
      columns.map((c, i) => {
        if (c.type === 'TIME') return timeCell(s.time, row, s.relative);
        if (row > 0 && r() < s.emptyRate) return '';
        return cell ? cell(dataIndex[i] as number, row, r) : cellOf(c.type, r, row);
      }),
    );
  }
  const nl = s.crlf ? '\r\n' : '\n';
  const body = lines.map((l) => l.map((c) => quote(c, s.delimiter)).join(s.delimiter)).join(nl);
  return {
    text: `${s.bom ? '\ufeff' : ''}${body}${nl}`,
    columns,
    header,
    unitsRow,
    timeColumn,
    format: relative ? rel.format : TIME_FORMATS[s.time as Exclude<TimeKind, 'relative'>],
    relative,
  };
}
