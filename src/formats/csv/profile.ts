/**
 * What CSV inspection gives (the profile of a file and of each of its columns), its options,
 * and how much of a file it reads.
 */
import type { BaseProfile, FieldProfile } from '../../inspect/shared.js';
import type { CellKind, CsvColumnType, TextShape, TimeTextKind } from './cells.js';
import type { CsvDialect } from './dialect.js';
import type { CsvHeadRows } from './head.js';

export const KiB = 1024;
export const MiB = 1024 * KiB;

/** How much of a CSV file inspection reads by default. */
export const CSV_HEAD_BYTES = 4 * MiB;
export const CSV_HEAD_ROWS = 10_000;
export const CSV_SLICE_BYTES = 64 * KiB;
/** The most fields a table row may have: wider rows are not a table the platform reads. */
export const MAX_CSV_COLUMNS = 100_000;

export interface CsvInspectOptions {
  /** Read every row instead of the head and a few slices. */
  full?: boolean;
  /** The delimiter (`,` `;` `\t` `|`), instead of detecting it. */
  delimiter?: string;
  /** The 1-based header row (0: no header), instead of detecting it. */
  headerRow?: number;
  /** Head size limits (tests make them small). */
  headBytes?: number;
  headRows?: number;
  sliceBytes?: number;
  /** Progress of a full scan, in bytes of the file. */
  onProgress?: (done: number, total: number) => void;
  /** Keep the first this many rows of the head as text, with their kinds (`head`). */
  headRecords?: number;
}

/** One column of a CSV file. */
export interface CsvFieldProfile extends FieldProfile {
  column: number;
  name: string;
  /** The header cell as written (`speed (m/s)`), when there is a header. */
  header?: string;
  /** The channel type the values fit: BOOL, INT_32, INT_64, UINT_64, DOUBLE, STRING (EMPTY: no values). */
  physicalType: CsvColumnType;
  /** What time-like text holds: rfc3339, datetime, date_dmy, date_mdy, date_ambiguous, mixed. */
  logicalType?: TimeTextKind | 'mixed';
  /** Where the units came from. */
  unitsFrom?: 'header' | 'units-row';
  nullCount: number;
  /** Non-empty values seen. */
  valueCount: number;
  /** Count of each kind of value seen. */
  kinds: Partial<Record<CellKind, number>>;
  first?: string;
  last?: string;
  /** Values never go down (numbers by value, ISO dates by text). */
  increasing: boolean;
  /** Where the values first go down: a 1-based file row in the head, or a slice. */
  firstDecrease?: string;
  /** The first numeric values, in order (for the spacing of time columns). */
  numericHead?: number[];
  /** The type the head alone showed, when a later slice widened it. */
  headType?: CsvColumnType;
  widenedBy?: { value: string; where: string };
  /** The JSON object of the platform's embedded config for this column. */
  embedded?: Record<string, unknown>;
  /** A few text cells in a column of numbers, booleans or times (odd rows): count and the first. */
  stray?: CellPlace & { count: number };
  /** Where the first empty cells are (`row 7`). */
  emptyAt?: string[];
  /** Text cells of shapes the platform cannot read (`20,1`, `1:05 PM`), each with its first. */
  textShapes?: Partial<Record<TextShape, CellPlace & { count: number }>>;
}

/** A cell's value and where it is: `row 12` (a 1-based file row) or a later part of the file. */
export interface CellPlace {
  value: string;
  where: string;
}

export interface CsvSlice {
  offset: number;
  length: number;
  rows: number;
  /** False when no row start could be found (skipped). */
  aligned: boolean;
}

/** What inspection learned about a CSV file. */
export interface CsvProfile extends BaseProfile {
  format: 'csv';
  fields: CsvFieldProfile[];
  dialect: CsvDialect & { gzip: boolean };
  layout: {
    columnCount: number;
    preambleRows: number;
    /** 1-based rows of the embedded config. */
    embeddedConfigRows: number[];
    /** 1-based header row, 0 for none. */
    headerRow: number;
    headerConfidence: 'high' | 'medium' | 'low';
    headerReason: string;
    /** 1-based units row, 0 for none. */
    unitsRow: number;
    /** 1-based first data row. */
    firstDataRow: number;
  };
  sampling: {
    mode: 'whole' | 'head' | 'head+slices' | 'full';
    headRows: number;
    headBytes: number;
    slices: CsvSlice[];
    /** Rows that did not have the table's number of fields. */
    raggedRows: number;
    /** The fields of a last row cut short (no line end, fewer fields than the table). */
    lastRowFields?: number;
  };
  /** Data rows (known when the whole file was read). */
  rowCount?: number;
  /** The first rows as text and what each is (when the `headRecords` option asks). */
  head?: CsvHeadRows;
}
