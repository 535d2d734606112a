/**
 * `check --full` as an oracle of planted defects. For CSV, Parquet, HDF5, TDMS and ULog,
 * fast-check generates a small clean file (a time column, dataset, channel or field and one
 * to four value channels of random declared types: DOUBLE, FLOAT, INT_32, UINT_32, BOOL,
 * ENUM) with the config that imports it, written here from what was generated. The clean
 * file must check with no error and no warning. Then ONE defect of a random kind is planted
 * at a random row: the time steps back or repeats, a NaN or infinite time, a text time that
 * is no time in the declared format, a missing time, NaN or ±inf in a float channel, an
 * integer outside INT_32 or UINT_32, a fraction in an integer channel, a BOOL value other
 * than 0 and 1, an ENUM key not among the enumTypes. Where the file's stored type cannot
 * hold the planted value, that one channel is stored in the narrowest type that can (the
 * check then reports the values, not the stored type: one fact, one message). The planted
 * file must give exactly one new error or warning: the code the format reports for that
 * defect (CSV reports bad values and enum keys as value_type_mismatch and empty times as
 * csv_time_empty; a NaN or infinite value is written `NaN`, `Infinity` or `-Infinity`), on the config pointer of the time or of that channel, at the first place
 * the docs give (CSV: the file's row and line; Parquet and TDMS: the 1-based row, TDMS with
 * its segment; HDF5: the 0-based index; ULog: the message's index and offset). Every check
 * runs with one job and with two (ranges small enough to be shared), which must agree.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { SchemaElement } from 'hyparquet';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import { afterAll, describe, expect, test } from 'vitest';
import { type DatasetSpec, type Kind as Hdf5Kind, writeHdf5 } from '../../scripts/fixtures/hdf5.js';
import { type RawValue, type SegmentSpec, tdmsBytes } from '../../scripts/fixtures/tdms-writer.js';
import { type FieldSpec, sizeOf, UlogWriter } from '../../scripts/fixtures/ulog-writer.js';
import { type CheckOptions, checkConfig } from '../../src/check/index.js';
import type { ImportDocument } from '../../src/model/document.js';
import type { ChannelDataType } from '../../src/model/enums.js';
import type { Issue, IssueSource } from '../../src/model/issue.js';
import { validateConfig } from '../../src/validate/index.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-planted-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const fileName = (ext: string) => join(dir, `f${files++}${ext}`);

// ---- the table every format writes -------------------------------------------------------

type ValueKind = 'double' | 'float' | 'int32' | 'uint32' | 'bool' | 'enum';
const KINDS: readonly ValueKind[] = ['double', 'float', 'int32', 'uint32', 'bool', 'enum'];

const DECLARED: Record<ValueKind, ChannelDataType> = {
  double: 'CHANNEL_DATA_TYPE_DOUBLE',
  float: 'CHANNEL_DATA_TYPE_FLOAT',
  int32: 'CHANNEL_DATA_TYPE_INT_32',
  uint32: 'CHANNEL_DATA_TYPE_UINT_32',
  bool: 'CHANNEL_DATA_TYPE_BOOL',
  enum: 'CHANNEL_DATA_TYPE_ENUM',
};
const ENUM_TYPES = [
  { name: 'IDLE', key: 0 },
  { name: 'RUN', key: 1 },
  { name: 'STOP', key: 2 },
];

/** 2024-03-01T12:00:00Z. */
const T0_S = 1_709_294_400;
const T0_MS = T0_S * 1000;
const START = '2024-03-01T12:00:00Z';

/** A time that is not a time: NaN or ±inf, text that is no time (the format picks it), none. */
type BadTime =
  | { bad: 'nonfinite'; value: number; variant: number }
  | { bad: 'text'; variant: number }
  | { bad: 'null' };
/** A time: ticks (each format gives them its unit, increasing 10 a row), or a bad one. */
type TimeCell = number | BadTime;

interface Column {
  kind: ValueKind;
  values: number[];
  /** Rows with no value (CSV: an empty cell; Parquet: null); other formats have none. */
  nulls: boolean[];
}

interface Table {
  rows: number;
  time: TimeCell[];
  columns: Column[];
  /** Format options: which time storage and format, how cells are written, row groups... */
  style: number;
}

/** A generated file: its shape, before anything is planted. */
interface Shape {
  rows: number;
  kinds: ValueKind[];
  seed: number;
  style: number;
}

const shapeArb: fc.Arbitrary<Shape> = fc.record({
  rows: fc.integer({ min: 12, max: 150 }),
  kinds: fc.array(fc.constantFrom(...KINDS), { minLength: 1, maxLength: 4 }),
  seed: fc.nat(999),
  style: fc.nat(1_000_000),
});

function cleanValue(kind: ValueKind, r: number, seed: number): number {
  switch (kind) {
    case 'double':
      return (seed % 7) + r * 0.25 + 0.125;
    case 'float':
      return r * 0.5 + 0.25;
    case 'int32':
      return ((r * 37 + seed) % 2001) - 1000;
    case 'uint32':
      return (r * 53 + seed) % 60_000;
    case 'bool':
      return (r + seed) % 2;
    case 'enum':
      return (r * 7 + seed) % 3;
  }
}

function tableOf(s: Shape): Table {
  return {
    rows: s.rows,
    style: s.style,
    time: Array.from({ length: s.rows }, (_, r) => 100 + 10 * r),
    columns: s.kinds.map((kind, c) => ({
      kind,
      values: Array.from({ length: s.rows }, (_, r) => cleanValue(kind, r, s.seed + c)),
      // Some channels have no value in some rows.
      nulls: Array.from(
        { length: s.rows },
        (_, r) => ((s.seed >> c) & 1) === 1 && (r * 31 + c * 7) % 9 === 4,
      ),
    })),
  };
}

// ---- defects ------------------------------------------------------------------------------

type DefectKind =
  | 'time_back'
  | 'time_repeat'
  | 'time_nonfinite'
  | 'time_text'
  | 'time_null'
  | 'not_finite'
  | 'int_outside'
  | 'fraction'
  | 'bool_other'
  | 'enum_unknown';

interface Defect {
  kind: DefectKind;
  row: number;
  /** The channel planted in (channel defects). */
  column: number;
  variant: number;
}

/** The channels a defect can be planted in. */
const CHANNEL_KINDS: Partial<Record<DefectKind, readonly ValueKind[]>> = {
  not_finite: ['double', 'float'],
  int_outside: ['int32', 'uint32'],
  fraction: ['int32', 'uint32'],
  bool_other: ['bool'],
  enum_unknown: ['enum'],
};

const NON_FINITE = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];

/** A defect of one of `kinds` (those the format and the table can hold) at a random row. */
function defectArb(shape: Shape, kinds: readonly DefectKind[]): fc.Arbitrary<Defect> {
  const possible = kinds.filter((k) => {
    const on = CHANNEL_KINDS[k];
    return on === undefined || shape.kinds.some((x) => on.includes(x));
  });
  return fc.constantFrom(...possible).chain((kind) => {
    const on = CHANNEL_KINDS[kind];
    const columns = shape.kinds.flatMap((x, c) => (on?.includes(x) ? [c] : []));
    const first = kind === 'time_back' || kind === 'time_repeat' ? 1 : 0;
    const last = shape.rows - 1;
    return fc.record({
      kind: fc.constant(kind),
      // The first and last rows (which checks read apart from the others) as often as any.
      row: fc.oneof(
        fc.integer({ min: first, max: first + 2 }),
        fc.integer({ min: last - 2, max: last }),
        fc.integer({ min: first, max: last }),
        fc.integer({ min: first, max: last }),
      ),
      column: columns.length > 0 ? fc.constantFrom(...columns) : fc.constant(-1),
      variant: fc.nat(11),
    });
  });
}

function plant(t: Table, d: Defect): Table {
  const time = [...t.time];
  const columns = t.columns.map((c) => ({ ...c, values: [...c.values], nulls: [...c.nulls] }));
  const r = d.row;
  const before = time[r - 1] as number;
  const col = columns[d.column];
  const v = d.variant;
  // A value planted where the channel had none.
  if (col) col.nulls[r] = false;
  switch (d.kind) {
    case 'time_back':
      time[r] = before - 5;
      break;
    case 'time_repeat':
      time[r] = before;
      break;
    case 'time_nonfinite':
      time[r] = { bad: 'nonfinite', value: NON_FINITE[v % 3] as number, variant: v };
      break;
    case 'time_text':
      time[r] = { bad: 'text', variant: v };
      break;
    case 'time_null':
      time[r] = { bad: 'null' };
      break;
    case 'not_finite':
      (col as Column).values[r] = NON_FINITE[v % 3] as number;
      break;
    case 'int_outside':
      (col as Column).values[r] =
        col?.kind === 'int32'
          ? ([2 ** 31, -(2 ** 31) - 1, 3e9, -(2 ** 40)][v % 4] as number)
          : ([-1, -5, 2 ** 32, 2 ** 33][v % 4] as number);
      break;
    case 'fraction':
      (col as Column).values[r] = Math.abs((col as Column).values[r] as number) + 0.5;
      break;
    case 'bool_other':
      (col as Column).values[r] = [2, 3, 255][v % 3] as number;
      break;
    case 'enum_unknown':
      (col as Column).values[r] = [7, 3, 200][v % 3] as number;
      break;
  }
  return { ...t, time, columns };
}

/** What the check must report of a defect. */
interface Expected {
  code: Issue['code'];
  severity: Issue['severity'];
  path: string;
  source: Partial<IssueSource>;
  /** The first place as the message says it. */
  place: string;
}

const SEVERITY: Partial<Record<Issue['code'], Issue['severity']>> = {
  time_decreasing: 'warning',
  time_repeated: 'warning',
  time_not_parseable: 'error',
  time_null: 'error',
  csv_time_empty: 'error',
  value_not_finite: 'warning',
  value_outside_type: 'error',
  value_type_mismatch: 'error',
  enum_value_unknown: 'error',
};

/** The code a defect gets in the formats that read values with the shared tallies. */
function sharedCode(kind: DefectKind): Issue['code'] {
  switch (kind) {
    case 'time_back':
      return 'time_decreasing';
    case 'time_repeat':
      return 'time_repeated';
    case 'time_nonfinite':
    case 'time_text':
      return 'time_not_parseable';
    case 'time_null':
      return 'time_null';
    case 'not_finite':
      return 'value_not_finite';
    case 'enum_unknown':
      return 'enum_value_unknown';
    default:
      return 'value_outside_type';
  }
}

/** The pointer under a channel's config a shared-tally finding is on. */
function sharedChannelPath(kind: DefectKind, channelConfig: string): string {
  if (kind === 'not_finite') return channelConfig;
  if (kind === 'enum_unknown') return `${channelConfig}/enumTypes`;
  return `${channelConfig}/dataType`;
}

const isTimeDefect = (k: DefectKind) => k.startsWith('time_');

function channelConfig(name: string, kind: ValueKind) {
  return {
    name,
    dataType: DECLARED[kind],
    ...(kind === 'enum' ? { enumTypes: ENUM_TYPES } : {}),
  };
}

const iso = (ms: number) => new Date(ms).toISOString();
const dateTime = (ms: number) => iso(ms).replace('T', ' ').replace('Z', '');

/** Text that is no time: for a number format, RFC 3339 (needs a zone) and a date-time (has none). */
function badTimeText(format: 'number' | 'rfc3339' | 'datetime', variant: number): string {
  const near = T0_MS + 1234;
  const choices =
    format === 'rfc3339'
      ? ['soon', iso(near).replace('Z', ''), 'yesterday']
      : format === 'datetime'
        ? ['soon', iso(near), 'yesterday']
        : ['soon', 'n/a', '12:00:05'];
  return choices[variant % choices.length] as string;
}

// ---- the formats --------------------------------------------------------------------------

interface Written {
  path: string;
  document: ImportDocument;
  /** ULog: the file offset of each data message of the configured message. */
  offsets?: number[];
}

interface Format {
  name: string;
  /** The time storage and format a style gives (the fixed examples cover each). */
  timeStyle(style: number): string;
  /** The defects this format's --full reports, for the table's time storage. */
  defects(shape: Shape): DefectKind[];
  write(t: Table): Promise<Written> | Written;
  expected(t: Table, d: Defect, w: Written): Expected;
  /** Options of the check with two jobs (ranges small enough that they are shared). */
  twoJobs: CheckOptions;
}

// CSV -------------------------------------------------------------------------------------

type CsvTime = 'unix_s' | 'unix_ms' | 'relative_s' | 'rfc3339' | 'datetime';
const CSV_TIMES: readonly CsvTime[] = ['unix_s', 'unix_ms', 'relative_s', 'rfc3339', 'datetime'];
const CSV_FORMAT: Record<CsvTime, string> = {
  unix_s: 'TIME_FORMAT_ABSOLUTE_UNIX_SECONDS',
  unix_ms: 'TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS',
  relative_s: 'TIME_FORMAT_RELATIVE_SECONDS',
  rfc3339: 'TIME_FORMAT_ABSOLUTE_RFC3339',
  datetime: 'TIME_FORMAT_ABSOLUTE_DATETIME',
};

function csvStyle(t: { style: number; columns: readonly unknown[] }) {
  const s = t.style;
  return {
    time: CSV_TIMES[s % CSV_TIMES.length] as CsvTime,
    /** The time column's 0-based place among the columns. */
    timeAt: Math.floor(s / 5) % (t.columns.length + 1),
    crlf: Math.floor(s / 25) % 2 === 1,
    boolWords: Math.floor(s / 50) % 2 === 1,
    enumNames: Math.floor(s / 100) % 2 === 1,
    /** Columns whose cells are quoted (a bit a column, the time's last). */
    quoted: Math.floor(s / 200) % 64,
  };
}

function csvTime(cell: TimeCell, time: CsvTime): string {
  if (typeof cell === 'number') {
    switch (time) {
      case 'unix_s':
        return String(T0_S + cell);
      case 'unix_ms':
        return String(T0_MS + cell);
      case 'relative_s':
        return String(cell / 4);
      case 'rfc3339':
        return iso(T0_MS + cell);
      case 'datetime':
        return dateTime(T0_MS + cell);
    }
  }
  if (cell.bad === 'null') return '';
  if (cell.bad === 'nonfinite') {
    // As a number, as text the docs name (NaN and infinite times are time_not_parseable).
    const words = Number.isNaN(cell.value)
      ? ['NaN', 'nan']
      : cell.value > 0
        ? ['inf', 'Infinity']
        : ['-inf', '-Infinity'];
    return words[cell.variant % 2] as string;
  }
  const kind = time === 'rfc3339' ? 'rfc3339' : time === 'datetime' ? 'datetime' : 'number';
  return badTimeText(kind, cell.variant);
}

function csvCell(kind: ValueKind, v: number, style: ReturnType<typeof csvStyle>): string {
  if (kind === 'bool' && style.boolWords && (v === 0 || v === 1)) return v === 1 ? 'true' : 'false';
  if (kind === 'enum' && style.enumNames) {
    const name = ENUM_TYPES.find((e) => e.key === v)?.name;
    if (name !== undefined) return name;
  }
  return String(v);
}

/** The columns of a CSV table: each channel's 1-based column number. */
function csvColumns(t: Table) {
  const style = csvStyle(t);
  const timeColumn = style.timeAt + 1;
  const channelColumn = t.columns.map((_, c) => (c < style.timeAt ? c + 1 : c + 2));
  return { style, timeColumn, channelColumn };
}

const csv: Format = {
  name: 'CSV',
  timeStyle: (style) => CSV_TIMES[style % CSV_TIMES.length] as string,
  defects: () => [
    'time_back',
    'time_repeat',
    'time_nonfinite',
    'time_text',
    'time_null',
    'not_finite',
    'int_outside',
    'fraction',
    'bool_other',
    'enum_unknown',
  ],
  write(t) {
    const { style, timeColumn, channelColumn } = csvColumns(t);
    const width = t.columns.length + 1;
    const header = Array.from({ length: width }, (_, k) =>
      k + 1 === timeColumn ? 'time' : `c${channelColumn.indexOf(k + 1)}`,
    );
    const lines = [header.join(',')];
    const quote = (k: number, cell: string) => ((style.quoted >> k) & 1 ? `"${cell}"` : cell);
    for (let r = 0; r < t.rows; r++) {
      const cells: string[] = new Array(width);
      cells[timeColumn - 1] = quote(5, csvTime(t.time[r] as TimeCell, style.time));
      t.columns.forEach((c, k) => {
        const cell = c.nulls[r] ? '' : csvCell(c.kind, c.values[r] as number, style);
        cells[(channelColumn[k] as number) - 1] = quote(k, cell);
      });
      lines.push(cells.join(','));
    }
    const eol = style.crlf ? '\r\n' : '\n';
    const path = fileName('.csv');
    writeFileSync(path, `${lines.join(eol)}${eol}`);
    const format = CSV_FORMAT[style.time];
    return {
      path,
      document: {
        csvConfig: {
          assetName: 'planted',
          firstDataRow: 2,
          timeColumn: {
            columnNumber: timeColumn,
            format,
            ...(style.time === 'relative_s' ? { relativeStartTime: START } : {}),
          },
          dataColumns: Object.fromEntries(
            t.columns.map((c, k) => [String(channelColumn[k]), channelConfig(`c${k}`, c.kind)]),
          ),
        },
      } as ImportDocument,
    };
  },
  expected(t, d) {
    const { timeColumn, channelColumn } = csvColumns(t);
    // Row 1 is the header: data row r (0-based) is the file's row r + 2, on line r + 2.
    const row = d.row + 2;
    const place = `row ${row} (line ${row})`;
    if (isTimeDefect(d.kind)) {
      const code =
        d.kind === 'time_back'
          ? 'time_decreasing'
          : d.kind === 'time_repeat'
            ? 'time_repeated'
            : d.kind === 'time_null'
              ? 'csv_time_empty'
              : 'time_not_parseable';
      const field = code === 'time_not_parseable' ? 'format' : 'columnNumber';
      return {
        code,
        severity: SEVERITY[code] ?? 'error',
        path: `/csvConfig/timeColumn/${field}`,
        source: { row, line: row, column: timeColumn },
        place,
      };
    }
    const column = channelColumn[d.column] as number;
    if (d.kind === 'not_finite') {
      return {
        code: 'value_not_finite',
        severity: 'warning',
        path: `/csvConfig/dataColumns/${column}`,
        source: { row, line: row, column },
        place,
      };
    }
    return {
      code: 'value_type_mismatch',
      severity: 'error',
      path: `/csvConfig/dataColumns/${column}/dataType`,
      source: { row, line: row, column },
      place,
    };
  },
  twoJobs: { jobs: 2, rangeBytes: 300 },
};

// Parquet -----------------------------------------------------------------------------------

type ParquetTime =
  | 'int64_ms'
  | 'timestamp_us'
  | 'double_s'
  | 'double_relative'
  | 'rfc3339'
  | 'datetime';
const PARQUET_TIMES: readonly ParquetTime[] = [
  'int64_ms',
  'timestamp_us',
  'double_s',
  'double_relative',
  'rfc3339',
  'datetime',
];

function parquetStyle(style: number) {
  return {
    time: PARQUET_TIMES[style % PARQUET_TIMES.length] as ParquetTime,
    optionalTime: Math.floor(style / 6) % 2 === 1,
    /** Rows per row group: a fraction of the rows. */
    groupShare: 1 + (Math.floor(style / 12) % 4),
  };
}

const PARQUET_TIME_FORMAT: Record<ParquetTime, string> = {
  int64_ms: 'TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS',
  timestamp_us: 'TIME_FORMAT_ABSOLUTE_UNIX_MICROSECONDS',
  double_s: 'TIME_FORMAT_ABSOLUTE_UNIX_SECONDS',
  double_relative: 'TIME_FORMAT_RELATIVE_SECONDS',
  rfc3339: 'TIME_FORMAT_ABSOLUTE_RFC3339',
  datetime: 'TIME_FORMAT_ABSOLUTE_DATETIME',
};

function parquetTimeElement(time: ParquetTime): Omit<SchemaElement, 'name' | 'repetition_type'> {
  switch (time) {
    case 'int64_ms':
      return { type: 'INT64' };
    case 'timestamp_us':
      return {
        type: 'INT64',
        logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' },
      };
    case 'double_s':
    case 'double_relative':
      return { type: 'DOUBLE' };
    case 'rfc3339':
    case 'datetime':
      return { type: 'BYTE_ARRAY', logical_type: { type: 'STRING' } };
  }
}

function parquetTimeValue(cell: TimeCell, time: ParquetTime): unknown {
  if (typeof cell !== 'number') {
    if (cell.bad === 'null') return null;
    if (cell.bad === 'nonfinite') return cell.value;
    return badTimeText(time === 'rfc3339' ? 'rfc3339' : 'datetime', cell.variant);
  }
  switch (time) {
    case 'int64_ms':
      return BigInt(T0_MS + cell);
    case 'timestamp_us':
      return BigInt(T0_MS + cell) * 1000n;
    case 'double_s':
      return T0_S + cell / 4;
    case 'double_relative':
      return cell / 4;
    case 'rfc3339':
      return iso(T0_MS + cell);
    case 'datetime':
      return dateTime(T0_MS + cell);
  }
}

const isWhole = (values: readonly number[]) => values.every((v) => Number.isInteger(v));
const within = (values: readonly number[], lo: number, hi: number) =>
  values.every((v) => v >= lo && v <= hi);

/** The narrowest Parquet type that holds a channel's values (its declared type's, if it can). */
function parquetElement(c: Column): {
  element: Omit<SchemaElement, 'name' | 'repetition_type'>;
  value: (v: number) => unknown;
} {
  const asDouble = { element: { type: 'DOUBLE' as const }, value: (v: number) => v };
  const asInt32 = { element: { type: 'INT32' as const }, value: (v: number) => v };
  const asInt64 = { element: { type: 'INT64' as const }, value: (v: number) => BigInt(v) };
  if (c.kind === 'double') return asDouble;
  if (c.kind === 'float') return { element: { type: 'FLOAT' }, value: (v) => v };
  if (!isWhole(c.values)) return asDouble;
  if (c.kind === 'bool' && within(c.values, 0, 1))
    return { element: { type: 'BOOLEAN' }, value: (v) => v === 1 };
  if (c.kind === 'uint32' && within(c.values, 0, 2 ** 31 - 1))
    return {
      element: { type: 'INT32', logical_type: { type: 'INTEGER', bitWidth: 32, isSigned: false } },
      value: (v) => v,
    };
  return within(c.values, -(2 ** 31), 2 ** 31 - 1) ? asInt32 : asInt64;
}

const parquet: Format = {
  name: 'Parquet',
  timeStyle: (style) => {
    const s = parquetStyle(style);
    return `${s.time}${s.optionalTime ? ' (optional)' : ''}`;
  },
  defects(shape) {
    const style = parquetStyle(shape.style);
    return [
      'time_back',
      'time_repeat',
      ...(style.time.startsWith('double') ? (['time_nonfinite'] as const) : []),
      ...(style.time === 'rfc3339' || style.time === 'datetime' ? (['time_text'] as const) : []),
      ...(style.optionalTime ? (['time_null'] as const) : []),
      'not_finite',
      'int_outside',
      'fraction',
      'bool_other',
      'enum_unknown',
    ];
  },
  write(t) {
    const style = parquetStyle(t.style);
    const columns = t.columns.map(parquetElement);
    const schema: SchemaElement[] = [
      { name: 'root', num_children: columns.length + 1 },
      {
        name: 't',
        repetition_type: style.optionalTime ? 'OPTIONAL' : 'REQUIRED',
        ...parquetTimeElement(style.time),
      },
      ...columns.map((c, k) => ({
        ...c.element,
        name: `c${k}`,
        repetition_type: t.columns[k]?.nulls.some(Boolean)
          ? ('OPTIONAL' as const)
          : ('REQUIRED' as const),
      })),
    ];
    const writer = new ByteWriter();
    const pw = new ParquetWriter({ writer, schema });
    const group = Math.max(1, Math.ceil(t.rows / style.groupShare));
    for (let from = 0; from < t.rows; from += group) {
      const rows = Array.from({ length: Math.min(group, t.rows - from) }, (_, i) => from + i);
      pw.write({
        rowGroupSize: rows.length,
        columnData: [
          { name: 't', data: rows.map((r) => parquetTimeValue(t.time[r] as TimeCell, style.time)) },
          ...columns.map((c, k) => ({
            name: `c${k}`,
            data: rows.map((r) =>
              t.columns[k]?.nulls[r] ? null : c.value(t.columns[k]?.values[r] as number),
            ),
          })),
        ] as never,
      });
    }
    pw.finish();
    const path = fileName('.parquet');
    writeFileSync(path, writer.getBytes());
    return {
      path,
      document: {
        parquetConfig: {
          assetName: 'planted',
          flatDataset: {
            timeColumn: {
              path: 't',
              format: PARQUET_TIME_FORMAT[style.time],
              ...(style.time === 'double_relative' ? { relativeStartTime: START } : {}),
            },
            dataColumns: t.columns.map((c, k) => ({
              path: `c${k}`,
              channelConfig: channelConfig(`c${k}`, c.kind),
            })),
          },
        },
      } as ImportDocument,
    };
  },
  expected(_t, d) {
    const code = sharedCode(d.kind);
    const row = d.row + 1;
    const time = isTimeDefect(d.kind);
    const ptr = `/parquetConfig/flatDataset/dataColumns/${d.column}/channelConfig`;
    return {
      code,
      severity: SEVERITY[code] ?? 'error',
      path: time ? '/parquetConfig/flatDataset/timeColumn/path' : sharedChannelPath(d.kind, ptr),
      source: { row, column: time ? 't' : `c${d.column}` },
      place: `first at row ${row}`,
    };
  },
  twoJobs: { jobs: 2, rangeBytes: 1 },
};

// HDF5 --------------------------------------------------------------------------------------

type Hdf5Time = 'int64_ns' | 'float64_s' | 'float64_relative' | 'rfc3339' | 'datetime';
const HDF5_TIMES: readonly Hdf5Time[] = [
  'int64_ns',
  'float64_s',
  'float64_relative',
  'rfc3339',
  'datetime',
];
const HDF5_TIME_FORMAT: Record<Hdf5Time, string> = {
  int64_ns: 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS',
  float64_s: 'TIME_FORMAT_ABSOLUTE_UNIX_SECONDS',
  float64_relative: 'TIME_FORMAT_RELATIVE_SECONDS',
  rfc3339: 'TIME_FORMAT_ABSOLUTE_RFC3339',
  datetime: 'TIME_FORMAT_ABSOLUTE_DATETIME',
};

const hdf5Time = (style: number) => HDF5_TIMES[style % HDF5_TIMES.length] as Hdf5Time;

function hdf5TimeDataset(t: Table): DatasetSpec {
  const time = hdf5Time(t.style);
  const value = (cell: TimeCell): number | bigint | string => {
    if (typeof cell !== 'number') {
      if (cell.bad === 'nonfinite') return cell.value;
      return badTimeText(
        time === 'rfc3339' ? 'rfc3339' : 'datetime',
        cell.bad === 'text' ? cell.variant : 0,
      );
    }
    switch (time) {
      case 'int64_ns':
        return BigInt(T0_MS + cell) * 1_000_000n;
      case 'float64_s':
        return T0_S + cell / 4;
      case 'float64_relative':
        return cell / 4;
      case 'rfc3339':
        return iso(T0_MS + cell);
      case 'datetime':
        return dateTime(T0_MS + cell);
    }
  };
  const kind: Hdf5Kind =
    time === 'int64_ns' ? 'int64' : time.startsWith('float') ? 'float64' : 'string';
  return { path: '/time', kind, values: t.time.map(value) };
}

/** The narrowest HDF5 type that holds a channel's values (its declared type's, if it can). */
function hdf5Kind(c: Column, style: number): Hdf5Kind {
  if (c.kind === 'double') return 'float64';
  if (c.kind === 'float') return 'float32';
  if (!isWhole(c.values)) return 'float64';
  if (c.kind === 'bool') return 'bool';
  if (c.kind === 'enum') return style % 2 === 0 ? 'int32' : 'uint8';
  if (c.kind === 'uint32' && within(c.values, 0, 2 ** 32 - 1)) return 'uint32';
  return within(c.values, -(2 ** 31), 2 ** 31 - 1) ? 'int32' : 'int64';
}

const hdf5: Format = {
  name: 'HDF5',
  timeStyle: hdf5Time,
  defects(shape) {
    const time = hdf5Time(shape.style);
    return [
      'time_back',
      'time_repeat',
      ...(time.startsWith('float') ? (['time_nonfinite'] as const) : []),
      ...(time === 'rfc3339' || time === 'datetime' ? (['time_text'] as const) : []),
      'not_finite',
      'int_outside',
      'fraction',
      'bool_other',
      'enum_unknown',
    ];
  },
  async write(t) {
    const time = hdf5Time(t.style);
    // Contiguous, or in chunks of a share of the rows (deflated or not).
    const share = Math.floor(t.style / 10) % 4;
    const chunking =
      share === 0
        ? {}
        : {
            chunks: [Math.max(1, Math.ceil(t.rows / (share + 1)))],
            ...(share === 3 ? { deflate: 4 } : {}),
          };
    const datasets: DatasetSpec[] = [
      // h5wasm deflates no variable-length strings.
      { ...hdf5TimeDataset(t), ...(time === 'rfc3339' || time === 'datetime' ? {} : chunking) },
      ...t.columns.map((c, k) => ({
        path: `/c${k}`,
        kind: hdf5Kind(c, Math.floor(t.style / 5) + k),
        values: c.values,
        ...chunking,
      })),
    ];
    const path = fileName('.h5');
    await writeHdf5(path, datasets);
    return {
      path,
      document: {
        hdf5Config: {
          assetName: 'planted',
          timeFormat: HDF5_TIME_FORMAT[time],
          ...(time === 'float64_relative' ? { relativeStartTime: START } : {}),
          data: t.columns.map((c, k) => ({
            timeDataset: '/time',
            valueDataset: `/c${k}`,
            channelConfig: channelConfig(`c${k}`, c.kind),
          })),
        },
      } as ImportDocument,
    };
  },
  expected(_t, d) {
    const code = sharedCode(d.kind);
    const time = isTimeDefect(d.kind);
    const ptr = `/hdf5Config/data/${d.column}/channelConfig`;
    return {
      code,
      severity: SEVERITY[code] ?? 'error',
      // The time's findings are on the first entry that reads the time dataset.
      path: time ? '/hdf5Config/data/0/timeDataset' : sharedChannelPath(d.kind, ptr),
      source: { row: d.row, dataset: time ? '/time' : `/c${d.column}` },
      place: `first at index ${d.row}`,
    };
  },
  twoJobs: { jobs: 2, rangeBytes: 64 },
};

// TDMS --------------------------------------------------------------------------------------

function tdmsStyle(style: number) {
  return {
    /** A timestamp time channel, or seconds (f64) from relativeStartTime. */
    time: style % 2 === 0 ? ('timestamp' as const) : ('f64' as const),
    segments: 1 + (Math.floor(style / 2) % 3),
    interleaved: Math.floor(style / 6) % 2 === 1,
    bigEndian: Math.floor(style / 12) % 2 === 1,
  };
}

/** The narrowest TDMS type that holds a channel's values (its declared type's, if it can). */
function tdmsType(c: Column, style: number): string {
  if (c.kind === 'double') return 'f64';
  if (c.kind === 'float') return 'f32';
  if (!isWhole(c.values)) return 'f64';
  if (c.kind === 'bool') return 'bool';
  if (c.kind === 'enum') return style % 2 === 0 ? 'u8' : 'i32';
  if (c.kind === 'uint32' && within(c.values, 0, 2 ** 32 - 1))
    return style % 2 === 0 ? 'u32' : 'u16';
  if (c.kind === 'int32' && within(c.values, -(2 ** 15), 2 ** 15 - 1) && style % 2 === 1)
    return 'i16';
  return within(c.values, -(2 ** 31), 2 ** 31 - 1) ? 'i32' : 'i64';
}

/** The first row of each segment, and the end. */
function tdmsCuts(t: Table): number[] {
  const n = tdmsStyle(t.style).segments;
  return Array.from({ length: n + 1 }, (_, k) => Math.round((k * t.rows) / n));
}

const tdms: Format = {
  name: 'TDMS',
  timeStyle: (style) => tdmsStyle(style).time,
  defects(shape) {
    return [
      'time_back',
      'time_repeat',
      ...(tdmsStyle(shape.style).time === 'f64' ? (['time_nonfinite'] as const) : []),
      'not_finite',
      'int_outside',
      'fraction',
      'bool_other',
      'enum_unknown',
    ];
  },
  write(t) {
    const style = tdmsStyle(t.style);
    const types = t.columns.map((c, k) => tdmsType(c, Math.floor(t.style / 24) + k));
    const time = (cell: TimeCell): RawValue => {
      if (typeof cell !== 'number') return cell.bad === 'nonfinite' ? cell.value : 0;
      return style.time === 'timestamp' ? iso(T0_MS + cell) : cell / 4;
    };
    const value = (type: string, v: number): RawValue => (type === 'i64' ? BigInt(v) : v);
    const cuts = tdmsCuts(t);
    const segments: SegmentSpec[] = cuts.slice(1).map((end, s) => {
      const from = cuts[s] as number;
      const count = end - from;
      return {
        ...(style.interleaved ? { interleaved: true } : {}),
        ...(style.bigEndian ? { bigEndian: true } : {}),
        objects: [
          { path: ['G'] },
          { path: ['G', 'Time'], data: { type: style.time, count } },
          ...types.map((type, k) => ({ path: ['G', `c${k}`], data: { type, count } })),
        ],
        values: {
          'G/Time': t.time.slice(from, end).map(time),
          ...Object.fromEntries(
            t.columns.map((c, k) => [
              `G/c${k}`,
              c.values.slice(from, end).map((v) => value(types[k] as string, v)),
            ]),
          ),
        },
      };
    });
    const path = fileName('.tdms');
    writeFileSync(path, tdmsBytes(segments).data);
    return {
      path,
      document: {
        tdmsConfig: {
          assetName: 'planted',
          data: t.columns.map((c, k) => ({
            groupName: 'G',
            channelName: `c${k}`,
            timeChannelName: 'Time',
            channelConfig: channelConfig(`G.c${k}`, c.kind),
          })),
          fallbackMethod: 'TDMS_FALLBACK_METHOD_FAIL_ON_ERROR',
          ...(style.time === 'f64'
            ? { timeFormat: 'TIME_FORMAT_RELATIVE_SECONDS', relativeStartTime: START }
            : {}),
        },
      } as ImportDocument,
    };
  },
  expected(t, d) {
    const code = sharedCode(d.kind);
    const time = isTimeDefect(d.kind);
    const row = d.row + 1;
    const segment = tdmsCuts(t).filter((c) => c <= d.row).length;
    const ptr = `/tdmsConfig/data/${d.column}/channelConfig`;
    return {
      code,
      severity: SEVERITY[code] ?? 'error',
      // The time's findings are on the first entry that reads the time channel.
      path: time ? '/tdmsConfig/data/0/timeChannelName' : sharedChannelPath(d.kind, ptr),
      source: { row, dataset: time ? "/'G'/'Time'" : `/'G'/'c${d.column}'` },
      place: `first at row ${row} (segment ${segment})`,
    };
  },
  twoJobs: { jobs: 2 },
};

// ULog --------------------------------------------------------------------------------------

/** The narrowest ULog type that holds a channel's values (its declared type's, if it can). */
function ulogType(c: Column): string {
  if (c.kind === 'double') return 'double';
  if (c.kind === 'float') return 'float';
  if (!isWhole(c.values)) return 'double';
  if (c.kind === 'bool') return within(c.values, 0, 1) ? 'bool' : 'uint8_t';
  if (c.kind === 'enum') return 'uint8_t';
  if (c.kind === 'uint32' && within(c.values, 0, 2 ** 32 - 1)) return 'uint32_t';
  if (c.kind === 'int32' && within(c.values, 0, 2 ** 32 - 1) && !within(c.values, 0, 2 ** 31 - 1))
    return 'uint32_t';
  return within(c.values, -(2 ** 31), 2 ** 31 - 1) ? 'int32_t' : 'int64_t';
}

function setField(dv: DataView, at: number, type: string, v: number): void {
  switch (type) {
    case 'double':
      dv.setFloat64(at, v, true);
      return;
    case 'float':
      dv.setFloat32(at, v, true);
      return;
    case 'bool':
    case 'uint8_t':
      dv.setUint8(at, v);
      return;
    case 'uint32_t':
      dv.setUint32(at, v, true);
      return;
    case 'int32_t':
      dv.setInt32(at, v, true);
      return;
    case 'int64_t':
      dv.setBigInt64(at, BigInt(v), true);
      return;
    default:
      throw new Error(`no ULog type ${type}`);
  }
}

/** Microseconds since boot of a time's ticks. */
const ulogTime = (cell: TimeCell) => 1_000_000n + BigInt(cell as number) * 1000n;

const ulog: Format = {
  name: 'ULog',
  timeStyle: () => 'timestamp',
  defects: () => [
    'time_back',
    'time_repeat',
    'not_finite',
    'int_outside',
    'fraction',
    'bool_other',
    'enum_unknown',
  ],
  write(t) {
    const fields: FieldSpec[] = [
      { type: 'uint64_t', name: 'timestamp' },
      ...t.columns.map((c, k) => ({ type: ulogType(c), name: `c${k}` })),
    ];
    const format = { name: 'm', fields };
    const size = sizeOf('m', [format]);
    // Another message the config does not name, every few data messages.
    const other = {
      name: 'n',
      fields: [
        { type: 'uint64_t', name: 'timestamp' },
        { type: 'float', name: 'y' },
      ],
    };
    const every = t.style % 4;
    const w = new UlogWriter(1_000_000n);
    w.flagBits();
    w.format(format);
    if (every > 0) w.format(other);
    w.infoText('sys_name', 'PX4');
    w.subscribe(0, 0, 'm');
    if (every > 0) w.subscribe(0, 1, 'n');
    const offsets: number[] = [];
    for (let r = 0; r < t.rows; r++) {
      const b = new Uint8Array(size);
      const dv = new DataView(b.buffer);
      dv.setBigUint64(0, ulogTime(t.time[r] as TimeCell), true);
      let at = 8;
      fields.slice(1).forEach((f, k) => {
        setField(dv, at, f.type, t.columns[k]?.values[r] as number);
        at += sizeOf(f.type, []);
      });
      offsets.push(w.length);
      w.data(0, b);
      if (every > 0 && r % every === 0) {
        const n = new Uint8Array(12);
        new DataView(n.buffer).setBigUint64(0, 1_000_000n + BigInt(r) * 10_000n, true);
        w.data(1, n);
      }
    }
    const path = fileName('.ulg');
    writeFileSync(path, w.bytes());
    return {
      path,
      offsets,
      document: {
        ulogConfig: {
          assetName: 'planted',
          relativeStartTime: START,
          data: t.columns.map((c, k) => ({
            messageName: 'm',
            instance: '0',
            fieldName: `c${k}`,
            channelConfig: channelConfig(`m_0.c${k}`, c.kind),
          })),
        },
      } as ImportDocument,
    };
  },
  expected(t, d, w) {
    const code = sharedCode(d.kind);
    const time = isTimeDefect(d.kind);
    const offset = w.offsets?.[d.row] as number;
    const ptr = `/ulogConfig/data/${d.column}/channelConfig`;
    return {
      code,
      severity: SEVERITY[code] ?? 'error',
      // The time's findings are on the first entry that reads the message instance.
      path: time ? '/ulogConfig/data/0' : sharedChannelPath(d.kind, ptr),
      source: { row: d.row, offset },
      place: `first at message ${d.row} of m_0 (offset ${offset}, timestamp ${ulogTime(t.time[d.row] as TimeCell)} µs)`,
    };
  },
  twoJobs: { jobs: 2, rangeBytes: 256 },
};

// ---- the property -------------------------------------------------------------------------

/** check --full with one job and with two: the two must agree; returns the one job's issues. */
async function fullCheck(f: Format, w: Written): Promise<Issue[]> {
  const one = await checkConfig(w.document, w.path, { full: true, jobs: 1 });
  const two = await checkConfig(w.document, w.path, { full: true, ...f.twoJobs });
  expect(two, `${f.name}: jobs 2 against jobs 1`).toEqual(one);
  return one;
}

const notInfo = (issues: readonly Issue[]) => issues.filter((i) => i.severity !== 'info');
const said = (issues: readonly Issue[]) =>
  issues.map((i) => ({
    code: i.code,
    severity: i.severity,
    path: i.path,
    message: i.message,
    source: i.source,
  }));

async function plantedProperty(f: Format, numRuns: number): Promise<void> {
  const arb = shapeArb.chain((shape) =>
    fc.tuple(fc.constant(shape), defectArb(shape, f.defects(shape))),
  );
  await fc.assert(
    fc.asyncProperty(arb, async ([shape, defect]) => {
      const clean = tableOf(shape);
      const cleanFile = await f.write(clean);
      expect(
        validateConfig(cleanFile.document).issues.filter((i) => i.severity === 'error'),
      ).toEqual([]);
      const before = await fullCheck(f, cleanFile);
      expect(said(notInfo(before)), `${f.name}: the clean file`).toEqual([]);

      const planted = plant(clean, defect);
      const plantedFile = await f.write(planted);
      const after = await fullCheck(f, plantedFile);
      // Info issues (columns left out) are those of the clean file.
      expect(said(after.filter((i) => i.severity === 'info'))).toEqual(
        said(before.filter((i) => i.severity === 'info')).map((i) => ({
          ...i,
          source: i.source && { ...i.source, file: plantedFile.path },
        })),
      );
      const want = f.expected(planted, defect, plantedFile);
      expect(said(notInfo(after)), `${f.name}: ${defect.kind} at data row ${defect.row}`).toEqual([
        {
          code: want.code,
          severity: want.severity,
          path: want.path,
          message: expect.stringContaining(want.place),
          source: { file: plantedFile.path, ...want.source },
        },
      ]);
    }),
    { numRuns, examples: edgeExamples(f) },
  );
}

/**
 * Fixed cases run before the random ones: every defect kind the format reports, planted
 * in the first or the last rows (which checks also read apart from the rest), each time
 * defect under every time storage and format the styles give.
 */
function edgeExamples(f: Format): Array<[[Shape, Defect]]> {
  const out: Array<[[Shape, Defect]]> = [];
  const seen = new Set<string>();
  for (let style = 0; style < 48; style++) {
    const kinds: ValueKind[] =
      out.length % 2 === 0
        ? ['double', 'int32', 'bool', 'enum']
        : ['float', 'uint32', 'bool', 'enum'];
    const shape: Shape = { rows: 12, kinds, seed: 1, style };
    for (const kind of f.defects(shape)) {
      const on = CHANNEL_KINDS[kind];
      const key = `${kind} ${on ? '' : f.timeStyle(style)}`;
      const column = on ? kinds.findIndex((k) => on.includes(k)) : -1;
      if (seen.has(key) || (on && column < 0)) continue;
      seen.add(key);
      const atEnd = out.length % 2 === 1;
      const row = atEnd ? shape.rows - 1 : kind === 'time_back' || kind === 'time_repeat' ? 1 : 0;
      out.push([[shape, { kind, row, column, variant: atEnd ? 5 : 1 }]]);
    }
  }
  return out;
}

describe('check --full finds exactly the one defect planted in a clean file', () => {
  test('CSV', async () => {
    await plantedProperty(csv, 40);
  }, 60_000);

  test('Parquet', async () => {
    await plantedProperty(parquet, 40);
  }, 60_000);

  test('HDF5', async () => {
    await plantedProperty(hdf5, 30);
  }, 60_000);

  test('TDMS', async () => {
    await plantedProperty(tdms, 40);
  }, 60_000);

  test('ULog', async () => {
    await plantedProperty(ulog, 40);
  }, 60_000);
});
