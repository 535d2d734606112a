import { Readable } from 'node:stream';
import Papa from 'papaparse';
import {
  type BaseProfile,
  type ByteSource,
  type FieldProfile,
  gunzipChunks,
  InspectError,
  isGzip,
  openForInspection,
  refuseEmptyFile,
} from '../../inspect/shared.js';
import { type Issue, issue } from '../../model/plain.js';
import {
  type CellKind,
  ColumnStats,
  type CsvColumnType,
  columnType,
  isWidening,
  TEXT_SHAPES,
  type TextShape,
  type TimeTextKind,
} from './cells.js';
import {
  type CsvDialect,
  decodeText,
  detectDelimiter,
  detectLineEnding,
  newlineOf,
} from './dialect.js';
import { type CsvHeadRows, headRowsOf, refuseUnreadableCsv } from './head.js';
import { type CsvLayout, detectLayout, parseJsonObject, splitHeaderUnits } from './layout.js';

export type { CellKind, CsvColumnType, TextShape, TimeTextKind } from './cells.js';
export type { CsvDialect } from './dialect.js';
export type { CsvHeadRows, CsvRowKind } from './head.js';

const KiB = 1024;
const MiB = 1024 * KiB;

/** How much of a CSV file inspection reads by default. */
export const CSV_HEAD_BYTES = 4 * MiB;
export const CSV_HEAD_ROWS = 10_000;
export const CSV_SLICE_BYTES = 64 * KiB;
/** The most fields a table row may have: wider rows are not a table the platform reads. */
export const MAX_CSV_COLUMNS = 100_000;
/** Rows of the head kept as arrays for the layout (preamble, header, units) when typing in place. */
const LAYOUT_ROWS = 2000;

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
  };
  /** Data rows (known when the whole file was read). */
  rowCount?: number;
  /** The first rows as text and what each is (when the `headRecords` option asks). */
  head?: CsvHeadRows;
}

function fail(file: string, code: Issue['code'], message: string, hint?: string): never {
  throw new InspectError({
    code,
    severity: 'error',
    path: '',
    message: `${file}: ${message}`,
    ...(hint ? { hint } : {}),
    source: { file },
  });
}

/** Yields the file's bytes (decompressed for gzip) in chunks from the start. */
async function* contentChunks(source: ByteSource, gzip: boolean, chunk = MiB) {
  if (gzip) {
    yield* gunzipChunks(source, 64 * KiB);
    return;
  }
  for (let offset = 0; offset < source.size; offset += chunk) {
    yield await source.read(offset, chunk);
  }
}

function countNewlines(bytes: Uint8Array): number {
  let n = 0;
  let i = bytes.indexOf(10);
  while (i >= 0) {
    n += 1;
    i = bytes.indexOf(10, i + 1);
  }
  // Old Mac files: CR only.
  if (n === 0) {
    i = bytes.indexOf(13);
    while (i >= 0) {
      n += 1;
      i = bytes.indexOf(13, i + 1);
    }
  }
  return n;
}

/** Reads the head: up to `maxBytes` or about `maxLines` lines, whichever comes first. */
async function readHead(
  source: ByteSource,
  gzip: boolean,
  maxBytes: number,
  maxLines: number,
): Promise<{ bytes: Uint8Array; complete: boolean }> {
  const parts: Uint8Array[] = [];
  let total = 0;
  let lines = 0;
  let complete = true;
  const it = contentChunks(source, gzip, Math.min(256 * KiB, Math.max(64 * KiB, maxBytes)));
  for await (const c of it) {
    parts.push(c);
    total += c.byteLength;
    lines += countNewlines(c);
    if (total >= maxBytes || lines > maxLines) {
      complete = gzip ? false : total >= source.size;
      break;
    }
  }
  const all = Buffer.concat(parts, total);
  const bytes = all.subarray(0, Math.min(total, maxBytes));
  if (bytes.byteLength < total) complete = false;
  return { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), complete };
}

/** The byte just after the `n`-th line end, or after the last one when there are fewer. */
function cutAfterLines(bytes: Uint8Array, n: number): number {
  let count = 0;
  let last = -1;
  const nl = bytes.indexOf(10) >= 0 ? 10 : 13;
  let i = bytes.indexOf(nl);
  while (i >= 0) {
    last = i;
    count += 1;
    if (count >= n) break;
    i = bytes.indexOf(nl, i + 1);
  }
  return last + 1;
}

/**
 * The head's rows as strings, through papaparse, not the byte scanner `check` uses
 * (`csv/scan.ts`). The scanner is the faster reader when cells are judged on their bytes
 * (a check looks at a few cells of a row); inspection turns every cell into a string to
 * type it, and there papaparse over the decoded text was the faster, measured on a 4 MiB
 * head, one run on a loaded 2-core machine: quoted cells 409-677 ms against 786-1,055 ms for
 * the scanner with a string per cell; quote-free 186-521 ms against 605-1,158 ms (and
 * quote-free heads are split in place below, without either). The text is also decoded
 * once, with the Latin-1 fallback for bytes that are not UTF-8, which the scanner's cells
 * would not share.
 */
function parseRows(
  text: string,
  dialect: CsvDialect,
): { rows: string[][]; lastRowBroken: boolean } {
  const parsed = Papa.parse<string[]>(text, {
    delimiter: dialect.delimiter,
    newline: newlineOf(dialect.lineEnding),
    quoteChar: dialect.quoteChar,
    skipEmptyLines: false,
  });
  const rows = parsed.data;
  const last = rows[rows.length - 1];
  if (last && last.length === 1 && last[0] === '') rows.pop();
  if (dialect.lineEnding === 'mixed') stripCr(rows);
  const lastIndex = rows.length - 1;
  const lastRowBroken = parsed.errors.some(
    (e) => e.type === 'Quotes' && (e.row === undefined || e.row >= lastIndex),
  );
  return { rows, lastRowBroken };
}

/** The index just after the `n`-th line end of the text (its length when it has fewer). */
function cutTextAfterLines(text: string, n: number, nl: string): number {
  let count = 0;
  let i = text.indexOf(nl);
  while (i >= 0) {
    count += 1;
    if (count >= n) return i + 1;
    i = text.indexOf(nl, i + 1);
  }
  return text.length;
}

function stripCr(rows: string[][]): void {
  for (const r of rows) {
    const i = r.length - 1;
    const v = r[i];
    if (v?.endsWith('\r')) r[i] = v.slice(0, -1);
  }
}

function isBlankRow(r: readonly string[]): boolean {
  return r.length === 1 && (r[0] ?? '').trim() === '';
}

/**
 * Inspects a CSV file (or `.csv.gz`): dialect, layout (preamble, embedded config, header,
 * units), and per column a channel type, empty count, samples and time facts. Reads the
 * head (4 MiB or 10,000 rows, whichever is less) and a few slices from the middle and the
 * end, cut at row boundaries; `full` reads every row instead.
 */
export async function inspectCsv(
  path: string,
  options: CsvInspectOptions = {},
): Promise<CsvProfile> {
  const source = await openForInspection(path);
  try {
    return await inspectCsvSource(source, options);
  } finally {
    await source.close();
  }
}

/** `inspectCsv` over an open byte source (tests pass a counting one). */
export async function inspectCsvSource(
  source: ByteSource,
  options: CsvInspectOptions = {},
): Promise<CsvProfile> {
  const file = source.name;
  const issues: Issue[] = [];
  const startRead = source.bytesRead;
  const head = await readHeadText(source, options.headBytes ?? CSV_HEAD_BYTES, options, issues);
  const { dialect, sample } = chooseDialect(head.text, head.decoded, options, file, issues);
  const headRows = options.headRows ?? CSV_HEAD_ROWS;
  const table = splitHeadRows(head, sample, dialect, options, headRows, file);
  const layout = detectLayout(
    table.rows,
    options.headerRow === undefined ? {} : { headerRow: options.headerRow },
  );
  const scan = scanHeadRows(table, layout, dialect, headRows);
  const later = await readLaterParts(source, head, table, scan, dialect, options, issues);
  await fileIssues(source, later.tail, head.gzip, dialect, scan, file, issues);
  const fields = fieldsOf(table.rows, layout, scan, later, file, issues);
  const { dataRows } = scan;
  if (later.rowCount === 0 || (dataRows === 0 && later.mode !== 'full'))
    issues.push(
      issue('csv_no_data_rows', '', `${file}: no data rows after row ${layout.firstData}`, {
        source: { file },
      }),
    );
  const profile: CsvProfile = {
    format: 'csv',
    file: { path: file, size: source.size },
    // The 4 magic bytes are read again with the head: each byte of the file counts once.
    bytesRead: source.bytesRead - startRead - head.magicBytes,
    fields,
    issues,
    dialect: { ...dialect, gzip: head.gzip },
    layout: {
      columnCount: layout.columnCount,
      preambleRows: layout.preambleRows,
      embeddedConfigRows: layout.embeddedRows.map((r) => r + 1),
      headerRow: layout.header + 1,
      headerConfidence: layout.headerConfidence,
      headerReason: layout.headerReason,
      unitsRow: layout.units + 1,
      firstDataRow: layout.firstData + 1,
    },
    sampling: {
      mode: later.mode,
      headRows: dataRows,
      headBytes: table.cut,
      slices: later.slices,
      raggedRows: scan.ragged,
    },
  };
  if (later.rowCount !== undefined) profile.rowCount = later.rowCount;
  if (options.headRecords !== undefined)
    profile.head = headRowsOf(table.rows, layout, options.headRecords);
  return profile;
}

interface HeadText {
  gzip: boolean;
  magicBytes: number;
  /** The head's bytes (decompressed when gzip). */
  bytes: Uint8Array;
  /** Whether the head holds the whole file. */
  complete: boolean;
  decoded: ReturnType<typeof decodeText>;
  text: string;
  /** Where the decoded text ends in the head's bytes (whole lines). */
  cut: number;
}

/**
 * The head (up to `maxBytes`, or `headRows` plus a margin of lines), cut after its last
 * whole line and decoded; UTF-16, binary, line-less or empty files are refused here.
 */
async function readHeadText(
  source: ByteSource,
  maxBytes: number,
  options: CsvInspectOptions,
  issues: Issue[],
): Promise<HeadText> {
  const file = source.name;
  refuseEmptyFile(source);
  const magic = await source.read(0, Math.min(4, source.size));
  const gzip = isGzip(magic);
  const head = await readHead(source, gzip, maxBytes, (options.headRows ?? CSV_HEAD_ROWS) + 1000);
  refuseUnreadableCsv(file, head.bytes);
  const cut = head.complete
    ? head.bytes.byteLength
    : cutAfterLines(head.bytes, Number.MAX_SAFE_INTEGER);
  if (!head.complete && cut === 0)
    fail(
      file,
      'csv_line_too_long',
      `no line end in the first ${(head.bytes.byteLength / MiB).toFixed(0)} MiB: not a table of rows`,
      'Check that this is a CSV file and that its lines end with LF or CRLF.',
    );
  const decoded = decodeText(head.bytes.subarray(0, cut));
  if (decoded.text.trim() === '')
    fail(file, 'csv_empty', 'the file holds no rows (only blank lines)');
  if (!decoded.validUtf8)
    issues.push(
      issue(
        'csv_encoding_not_utf8',
        '',
        `${file}: some bytes are not valid UTF-8; they were read as Latin-1`,
        {
          hint: 'Re-save the file as UTF-8 so names and text import as written.',
          source: { file },
        },
      ),
    );
  const { bytes, complete } = head;
  return { gzip, magicBytes: magic.byteLength, bytes, complete, decoded, text: decoded.text, cut };
}

/** Line ending, delimiter (given, or detected on the first 64 KiB) and quote character. */
function chooseDialect(
  text: string,
  decoded: HeadText['decoded'],
  options: CsvInspectOptions,
  file: string,
  issues: Issue[],
): { dialect: CsvDialect; sample: string } {
  const lineEnding = detectLineEnding(text);
  const sample = text.slice(0, 64 * KiB);
  let delimiter: ReturnType<typeof detectDelimiter>;
  if (options.delimiter !== undefined) {
    delimiter = {
      ...detectDelimiter(sample, newlineOf(lineEnding), [options.delimiter]),
      reason: 'as given',
      rivals: [],
    };
  } else {
    delimiter = detectDelimiter(sample, newlineOf(lineEnding));
  }
  const dialect: CsvDialect = {
    encoding: decoded.bom ? 'utf-8-bom' : 'utf-8',
    validUtf8: decoded.validUtf8,
    lineEnding,
    delimiter: delimiter.delimiter,
    quoteChar: delimiter.quoteChar,
    delimiterReason: delimiter.reason,
    delimiterRivals: delimiter.rivals,
  };
  if (lineEnding === 'mixed')
    issues.push(
      issue('csv_mixed_line_endings', '', `${file}: the file mixes CRLF and LF line ends`, {
        source: { file },
      }),
    );
  if (delimiter.rivals.length > 0)
    issues.push(
      issue(
        'csv_delimiter_uncertain',
        '',
        `${file}: ${[delimiter.delimiter, ...delimiter.rivals].map(showDelimiter).join(' and ')} split the rows equally well; chose ${showDelimiter(delimiter.delimiter)}`,
        { hint: 'Set the `delimiter` option to say which one the file uses.', source: { file } },
      ),
    );
  return { dialect, sample };
}

interface HeadTable {
  /** Parsed rows: all of the head's, or (quote-free text) the first LAYOUT_ROWS. */
  rows: string[][];
  /** The head's lines, when quote-free: the rows past `rows` are typed from these. */
  lines: string[] | undefined;
  /** How many rows the head holds. */
  rowCount: number;
  /** Whether the head's rows are the whole file. */
  complete: boolean;
  /** Where the head's rows end, in bytes of the file's content. */
  cut: number;
}

/** The head's rows: the preamble and header (from the sample) plus `headRows` data rows. */
function splitHeadRows(
  head: HeadText,
  sample: string,
  dialect: CsvDialect,
  options: CsvInspectOptions,
  headRows: number,
  file: string,
): HeadTable {
  const sampleRows = parseRows(sample, dialect).rows;
  refuseTooWide(file, sampleRows);
  const lead = detectLayout(
    sampleRows,
    options.headerRow === undefined ? {} : { headerRow: options.headerRow },
  ).firstData;
  const { lineEnding } = dialect;
  let { text, complete, cut } = head;
  const lineCut = cutTextAfterLines(text, lead + headRows, lineEnding === 'CR' ? '\r' : '\n');
  if (lineCut < text.length) {
    text = text.slice(0, lineCut);
    complete = false;
    const { bom, validUtf8 } = head.decoded;
    cut = (bom ? 3 : 0) + (validUtf8 ? Buffer.byteLength(text, 'utf8') : text.length);
  }
  // Text without the quote character splits exactly as papaparse would (its fast mode):
  // then only the first rows become arrays (for the layout) and the rest are typed in place.
  const quoteFree = text.indexOf(dialect.quoteChar) < 0;
  let rows: string[][];
  let lines: string[] | undefined;
  if (quoteFree) {
    lines = text.split(newlineOf(lineEnding));
    if (lines[lines.length - 1] === '') lines.pop();
    const mixed = lineEnding === 'mixed';
    rows = lines
      .slice(0, LAYOUT_ROWS)
      .map((l) => (mixed && l.endsWith('\r') ? l.slice(0, -1) : l).split(dialect.delimiter));
  } else {
    const parsedHead = parseRows(text, dialect);
    rows = parsedHead.rows;
    // The last row may be cut inside a quoted field when the head is not the whole file.
    if (!complete && parsedHead.lastRowBroken && rows.length > 1) rows.pop();
  }
  refuseTooWide(file, rows);
  const rowCount = lines ? lines.length : rows.length;
  if (options.headerRow !== undefined && options.headerRow > rowCount)
    fail(
      file,
      'csv_header_row_out_of_range',
      `header row ${options.headerRow} is beyond the ${rowCount} rows read`,
    );
  return { rows, lines, rowCount, complete, cut };
}

interface HeadScan {
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
function scanHeadRows(
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

interface LaterParts {
  mode: CsvProfile['sampling']['mode'];
  rowCount: number | undefined;
  slices: CsvSlice[];
  /** The file's last bytes when a read already holds them (the whole head, the end slice). */
  tail: Uint8Array | undefined;
  /** Per column: the stats of the rows after the head. */
  rest: ColumnStats[];
  /** Per column: where the values first go down after the head, when they do. */
  restWhere: string[];
  restKinds: KindWhere[];
}

/**
 * What follows the head: nothing (the head is the whole file), every row (`full`), or a
 * few slices (none for gzip, which cannot be read from the middle). Adds to `scan`'s counts.
 */
async function readLaterParts(
  source: ByteSource,
  head: HeadText,
  table: HeadTable,
  scan: HeadScan,
  dialect: CsvDialect,
  options: CsvInspectOptions,
  issues: Issue[],
): Promise<LaterParts> {
  const file = source.name;
  const n = scan.stats.length;
  const later: LaterParts = {
    mode: scan.whole ? 'whole' : 'head',
    rowCount: scan.whole ? scan.dataRows : undefined,
    slices: [],
    tail: head.complete && !head.gzip ? head.bytes : undefined,
    rest: Array.from({ length: n }, () => new ColumnStats()),
    restWhere: [],
    restKinds: Array.from({ length: n }, () => ({})),
  };
  if (scan.whole) return later;
  if (options.full) {
    later.mode = 'full';
    const full = await scanRest(
      source,
      head.gzip,
      dialect,
      scan.headLimit,
      n,
      later.rest,
      { header: scan.headerCells, repeated: scan.repeated },
      options.onProgress,
    );
    scan.ragged += full.ragged;
    scan.firstRagged ??= full.firstRagged;
    later.rowCount = scan.dataRows + full.dataRows;
    for (let c = 0; c < n; c++)
      noteKinds(later.restKinds, c, later.rest[c] as ColumnStats, (i) => `row ${i}`);
  } else if (head.gzip) {
    issues.push(
      issue(
        'csv_gzip_head_only',
        '',
        `${file}: gzip content cannot be read from the middle; only the first ${scan.dataRows} data rows were inspected`,
        { hint: 'Set the `full` option to read every row.', source: { file } },
      ),
    );
  } else {
    later.mode = 'head+slices';
    const sliceBytes = options.sliceBytes ?? CSV_SLICE_BYTES;
    for (const offset of sliceOffsets(table.cut, source.size, sliceBytes)) {
      const slice = await readSlice(
        source,
        offset,
        sliceBytes,
        dialect,
        n,
        offset === table.cut,
        head.bytes,
      );
      later.slices.push(slice.info);
      if (offset + slice.bytes.byteLength >= source.size) later.tail = slice.bytes;
      if (!slice.info.aligned) {
        issues.push(
          issue(
            'csv_slice_skipped',
            '',
            `${file}: the slice at byte ${offset} could not be aligned to whole rows; skipped`,
            { hint: 'Set the `full` option to read every row.', source: { file, offset } },
          ),
        );
        continue;
      }
      addSlice(slice.rows, offset, scan, later);
    }
  }
  return later;
}

/** Types an aligned slice's rows into `later`, noting where its values go down. */
function addSlice(rows: string[][], offset: number, scan: HeadScan, later: LaterParts) {
  const n = scan.stats.length;
  const part = Array.from({ length: n }, () => new ColumnStats());
  for (const [i, row] of rows.entries()) {
    if (scan.headerCells && sameCells(row, scan.headerCells)) {
      noteRepeat(scan.repeated, { where: `the slice at byte ${offset}, row ${i + 1}` });
      continue;
    }
    if (row.length !== n) scan.ragged += 1;
    for (let c = 0; c < n; c++) (part[c] as ColumnStats).add(row[c] ?? '', i + 1);
  }
  const where = `the slice at byte ${offset}`;
  for (let c = 0; c < n; c++) {
    const p = part[c] as ColumnStats;
    if (p.firstDecrease !== undefined) later.restWhere[c] ??= `${where}, row ${p.firstDecrease}`;
    noteKinds(later.restKinds, c, p, (i) => `${where}, row ${i}`);
    (later.rest[c] as ColumnStats).merge(p, false);
  }
  // Order across parts: the slice must not start below where the head ended.
  for (let c = 0; c < n; c++) {
    const p = part[c] as ColumnStats;
    const prev = (scan.stats[c] as ColumnStats).lastValue;
    if (prev !== undefined && p.firstValue !== undefined && decreases(prev, p.firstValue))
      later.restWhere[c] ??= `the slice at byte ${offset}, row 1`;
  }
}

/** Repeated header lines, a last row cut short, ragged rows. */
async function fileIssues(
  source: ByteSource,
  tail: Uint8Array | undefined,
  gzip: boolean,
  dialect: CsvDialect,
  scan: HeadScan,
  file: string,
  issues: Issue[],
) {
  const n = scan.stats.length;
  if (scan.repeated.count > 0) issues.push(repeatedHeaderIssue(file, scan.repeated));
  const cutShort = gzip ? undefined : await lastRowShort(source, tail, dialect, n);
  if (cutShort) issues.push(lastRowIssue(file, cutShort, n));
  const { ragged, firstRagged } = scan;
  if (ragged > 0)
    issues.push(
      issue(
        'csv_ragged_rows',
        '',
        `${file}: ${ragged} row(s) do not have ${n} fields${firstRagged ? ` (first: row ${firstRagged})` : ''}`,
        {
          hint: 'Check the delimiter and quoting; set the `delimiter` option if it was guessed wrong.',
          source: { file, ...(firstRagged ? { row: firstRagged } : {}) },
        },
      ),
    );
}

/** One field per column, from the head's and the later parts' stats; duplicate names noted. */
function fieldsOf(
  rows: string[][],
  layout: CsvLayout,
  scan: HeadScan,
  later: LaterParts,
  file: string,
  issues: Issue[],
): CsvFieldProfile[] {
  const headerRow = layout.header >= 0 ? (rows[layout.header] ?? []) : [];
  const unitsRow = layout.units >= 0 ? (rows[layout.units] ?? []) : [];
  const fields: CsvFieldProfile[] = [];
  const seenNames = new Map<string, number>();
  for (let c = 0; c < layout.columnCount; c++) {
    const s = scan.stats[c] as ColumnStats;
    const r = later.rest[c] as ColumnStats;
    const headType = scan.headTypes[c] as CsvColumnType;
    const head = {
      increasing: s.increasing,
      firstDecrease: s.firstDecrease,
      last: s.lastValue,
      strings: s.kinds.string,
    };
    s.merge(r);
    const type = columnType(s);
    const field = describeField(c, s, type, layout, headerRow, unitsRow, rows);
    if (s.hasStrays()) {
      const first = s.firstOfKind.string;
      const laterString = later.restKinds[c]?.string;
      field.stray = {
        count: s.kinds.string,
        value: (first?.value ?? '').trim(),
        where:
          head.strings > 0 && first
            ? `row ${first.index}`
            : (laterString?.where ?? 'a later part of the file'),
      };
    }
    orderOf(field, head, r, later.restWhere[c], later.mode, scan.headLimit);
    if (isWidening(headType, type)) {
      field.headType = headType;
      const by = widenedBy(later.restKinds[c] ?? {}, type);
      if (by) field.widenedBy = by;
      issues.push(
        issue(
          'csv_type_widened',
          '',
          `${file}: column ${c + 1} (${field.name}) looked ${headType} in the first rows but holds ${by ? `'${by.value}' in ${by.where}` : 'wider values later'}: typed ${type}`,
          {
            hint: 'Check the value; set the `full` option to scan every row.',
            source: { file, column: c + 1 },
          },
        ),
      );
    }
    const prev = seenNames.get(field.name);
    if (prev !== undefined && layout.header >= 0)
      issues.push(
        issue(
          'csv_duplicate_column_name',
          '',
          `${file}: columns ${prev} and ${c + 1} are both named '${field.name}'`,
          { source: { file, column: c + 1 } },
        ),
      );
    else seenNames.set(field.name, c + 1);
    fields.push(field);
  }
  dropTrailingEmpty(fields, layout, file, issues);
  return fields;
}

/** Whether a column's values only go up, and where they first go down: head, later, seam. */
function orderOf(
  field: CsvFieldProfile,
  head: { increasing: boolean; firstDecrease: number | undefined; last: string | undefined },
  rest: ColumnStats,
  restWhere: string | undefined,
  mode: CsvProfile['sampling']['mode'],
  headLimit: number,
) {
  if (!head.increasing && head.firstDecrease !== undefined) {
    field.increasing = false;
    field.firstDecrease = `row ${head.firstDecrease}`;
  } else if (restWhere !== undefined || !rest.increasing) {
    field.increasing = false;
    field.firstDecrease = restWhere ?? 'a later part of the file';
  } else if (
    mode === 'full' &&
    rest.firstValue !== undefined &&
    head.last !== undefined &&
    decreases(head.last, rest.firstValue)
  ) {
    field.increasing = false;
    field.firstDecrease = `row ${headLimit + 1}`;
  }
}

type KindWhere = Partial<Record<CellKind, { value: string; where: string }>>;

function noteKinds(
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

function showDelimiter(d: string): string {
  return d === '\t' ? 'tab' : `'${d}'`;
}

/** True when `b` comes before `a` (numbers by value, ISO text by order). */
function decreases(a: string, b: string): boolean {
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

function widenedBy(
  rest: KindWhere,
  type: CsvColumnType,
): { value: string; where: string } | undefined {
  const order: CellKind[] =
    type === 'STRING'
      ? [
          'string',
          'rfc3339',
          'datetime',
          'date_dmy',
          'date_mdy',
          'date_ambiguous',
          'bool',
          'double',
          'int',
        ]
      : type === 'DOUBLE'
        ? ['double', 'int']
        : ['int'];
  for (const k of order) {
    const f = rest[k];
    if (f) return f;
  }
  return undefined;
}

function describeField(
  c: number,
  s: ColumnStats,
  type: CsvColumnType,
  layout: CsvLayout,
  headerRow: readonly string[],
  unitsRow: readonly string[],
  rows: readonly (readonly string[])[],
): CsvFieldProfile {
  let rawHeader = layout.header >= 0 ? (headerRow[c] ?? '').trim() : '';
  if (layout.commentedHeader && c === 0) rawHeader = rawHeader.replace(/^#\s*(?=[\p{L}_])/u, '');
  const split = splitHeaderUnits(rawHeader);
  const name = split.name !== '' ? split.name : `column_${c + 1}`;
  const kinds: Partial<Record<CellKind, number>> = {};
  for (const k of Object.keys(s.kinds) as CellKind[])
    if (k !== 'empty' && s.kinds[k] > 0) kinds[k] = s.kinds[k];
  const field: CsvFieldProfile = {
    column: c + 1,
    name,
    physicalType: type,
    nullCount: s.empty,
    valueCount: s.values,
    kinds,
    samples: s.samples,
    increasing: s.increasing,
  };
  if (layout.header >= 0) field.header = rawHeader;
  const unitCell = (unitsRow[c] ?? '').trim();
  if (unitCell !== '') {
    field.units = unitCell;
    field.unitsFrom = 'units-row';
  } else if (split.units) {
    field.units = split.units;
    field.unitsFrom = 'header';
  }
  const timeKind = s.timeTextKind();
  if (timeKind) field.logicalType = timeKind;
  if (s.emptyAt.length > 0) field.emptyAt = s.emptyAt.map(placeText);
  for (const shape of TEXT_SHAPES) {
    const seen = s.shapes[shape];
    if (!seen) continue;
    field.textShapes ??= {};
    field.textShapes[shape] = {
      count: seen.count,
      value: seen.value,
      where: placeText(seen.index),
    };
  }
  if (s.firstValue !== undefined) field.first = s.firstValue;
  if (s.lastValue !== undefined) field.last = s.lastValue;
  if (
    s.numMinText !== undefined &&
    s.numMaxText !== undefined &&
    (type === 'DOUBLE' || type.startsWith('INT') || type === 'UINT_64')
  ) {
    field.stats = {
      min: type === 'DOUBLE' ? s.numMinText : (s.intMin ?? s.numMinText),
      max: type === 'DOUBLE' ? s.numMaxText : (s.intMax ?? s.numMaxText),
    };
    field.numericHead = s.head.slice(0, 20);
  } else if (
    timeKind &&
    s.samples.length > 0 &&
    s.firstValue !== undefined &&
    s.lastValue !== undefined
  ) {
    field.stats = { min: s.firstValue, max: s.lastValue };
  }
  for (const r of layout.embeddedRows) {
    const obj = parseJsonObject((rows[r] ?? [])[c] ?? '');
    if (obj) field.embedded = { ...(field.embedded ?? {}), ...obj };
  }
  return field;
}

function placeText(index: number): string {
  return index > 0 ? `row ${index}` : 'a later part of the file';
}

/**
 * Spreadsheet exports often end each row with delimiters: trailing columns with no name and
 * no values. They are left out of the fields (the file keeps them), with an info issue.
 */
function dropTrailingEmpty(
  fields: CsvFieldProfile[],
  layout: CsvLayout,
  file: string,
  issues: Issue[],
): void {
  let drop = 0;
  for (let c = fields.length - 1; c > 0; c--) {
    const f = fields[c] as CsvFieldProfile;
    if (f.physicalType !== 'EMPTY' || (layout.header >= 0 && (f.header ?? '') !== '')) break;
    drop += 1;
  }
  if (drop === 0) return;
  const from = fields.length - drop + 1;
  fields.splice(fields.length - drop, drop);
  issues.push(
    issue(
      'csv_trailing_empty_columns',
      '',
      `${file}: column${drop === 1 ? ` ${from} has` : `s ${from}-${from + drop - 1} have`} no name and no values (trailing delimiters): left out of the draft`,
      { hint: '`importkit normalize` drops them from the file.', source: { file, column: from } },
    ),
  );
}

/** Offsets of the slices after the head: the middle and the end of what remains. */
function sliceOffsets(headEnd: number, size: number, sliceBytes: number): number[] {
  const remaining = size - headEnd;
  if (remaining <= 0) return [];
  if (remaining <= sliceBytes * 3) return [headEnd];
  const offsets = [
    headEnd + Math.floor(remaining / 3),
    headEnd + Math.floor((2 * remaining) / 3),
    size - sliceBytes,
  ];
  return offsets;
}

/**
 * Reads a slice and finds a row start in it: after a line end, the first position from
 * which the next rows parse to the table's width without quote errors (a slice can start
 * inside a quoted field that holds line ends). The last row is dropped unless the slice
 * reaches the end of the file.
 */
async function readSlice(
  source: ByteSource,
  offset: number,
  length: number,
  dialect: CsvDialect,
  columns: number,
  rowStart: boolean,
  /** Bytes already read from the start of the file: a slice inside them is not read again. */
  read: Uint8Array,
): Promise<{ rows: string[][]; info: CsvSlice; bytes: Uint8Array }> {
  const bytes =
    offset + length <= read.byteLength || read.byteLength >= source.size
      ? read.subarray(offset, offset + length)
      : await source.read(offset, length);
  const atEnd = offset + bytes.byteLength >= source.size;
  const nl = dialect.lineEnding === 'CR' ? 13 : 10;
  const info: CsvSlice = { offset, length: bytes.byteLength, rows: 0, aligned: false };
  // Cut the end at the last line end (whole rows only) unless the slice reaches the end.
  const endCut = atEnd ? bytes.byteLength : bytes.lastIndexOf(nl) + 1;
  // A slice that starts where the head ended starts on a row; others skip to a line end first.
  let from = rowStart ? 0 : bytes.indexOf(nl) + 1;
  if (!rowStart && from === 0) from = -1; // no line end at all
  for (let attempt = 0; attempt < 32 && from >= 0 && from < endCut; attempt++) {
    const text = decodeText(bytes.subarray(from, endCut)).text;
    const parsed = Papa.parse<string[]>(text, {
      delimiter: dialect.delimiter,
      newline: newlineOf(dialect.lineEnding),
      quoteChar: dialect.quoteChar,
      skipEmptyLines: true,
    });
    const rows = parsed.data;
    if (dialect.lineEnding === 'mixed') stripCr(rows);
    // The slice's last row may be cut inside a quoted field: drop it, and its errors.
    const lastRow = rows.length - 1;
    const errors = parsed.errors.filter((e) => e.type === 'Quotes');
    if (!atEnd && lastRow >= 0 && errors.some((e) => e.row === lastRow || e.row === undefined))
      rows.pop();
    const quoteErrors = errors.filter((e) => e.row !== undefined && e.row < rows.length).length;
    const firstRows = rows.slice(0, 3);
    const width = rows.filter((r) => r.length === columns).length;
    if (
      rows.length > 0 &&
      quoteErrors === 0 &&
      firstRows.every((r) => r.length === columns) &&
      width >= rows.length * 0.9
    ) {
      info.rows = rows.length;
      info.aligned = true;
      return { rows, info, bytes };
    }
    const next = bytes.indexOf(nl, from);
    from = next < 0 ? -1 : next + 1;
  }
  return { rows: [], info, bytes };
}

/** Streams every row after the head's rows (counting from row 0) into `rest`. */
async function scanRest(
  source: ByteSource,
  gzip: boolean,
  dialect: CsvDialect,
  skipRows: number,
  columns: number,
  rest: ColumnStats[],
  repeats: { header: readonly string[] | undefined; repeated: RepeatedHeader },
  onProgress?: (done: number, total: number) => void,
): Promise<{ dataRows: number; ragged: number; firstRagged?: number }> {
  let done = 0;
  let row = 0;
  let dataRows = 0;
  let ragged = 0;
  let firstRagged: number | undefined;
  const decoder = new TextDecoder('utf-8');
  let first = true;
  async function* text() {
    for await (const chunk of contentChunks(source, gzip, 4 * MiB)) {
      done += chunk.byteLength;
      onProgress?.(gzip ? Math.min(source.bytesRead, source.size) : done, source.size);
      let s = decoder.decode(chunk, { stream: true });
      if (first && s.charCodeAt(0) === 0xfeff) s = s.slice(1);
      first = false;
      yield s;
    }
    const tail = decoder.decode();
    if (tail) yield tail;
  }
  await new Promise<void>((resolve, reject) => {
    Papa.parse<string[]>(Readable.from(text()) as unknown as File, {
      delimiter: dialect.delimiter,
      newline: newlineOf(dialect.lineEnding),
      quoteChar: dialect.quoteChar,
      skipEmptyLines: false,
      step: (result) => {
        const r = result.data;
        row += 1;
        if (row <= skipRows) return;
        if (r.length === 1 && (r[0] ?? '').trim() === '') return;
        if (dialect.lineEnding === 'mixed') stripCr([r]);
        if (repeats.header && sameCells(r, repeats.header)) {
          noteRepeat(repeats.repeated, { row });
          return;
        }
        dataRows += 1;
        if (r.length !== columns) {
          ragged += 1;
          firstRagged ??= row;
        }
        for (let c = 0; c < columns; c++) (rest[c] as ColumnStats).add(r[c] ?? '', row);
      },
      complete: () => resolve(),
      error: (err: Error) => reject(err),
    });
  });
  return firstRagged === undefined ? { dataRows, ragged } : { dataRows, ragged, firstRagged };
}

/** Header lines repeated inside the data (two logs concatenated): how many, and the first. */
interface RepeatedHeader {
  count: number;
  first: Array<{ row?: number; line?: number; where?: string }>;
}

function noteRepeat(into: RepeatedHeader, at: { row?: number; line?: number; where?: string }) {
  into.count += 1;
  if (into.first.length < 3) into.first.push(at);
}

function sameCells(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if ((a[i] ?? '').trim() !== (b[i] ?? '').trim()) return false;
  return true;
}

function repeatedHeaderIssue(file: string, repeated: RepeatedHeader): Issue {
  const places = repeated.first.map(
    (p) => p.where ?? `row ${p.row}${p.line !== undefined ? ` (line ${p.line})` : ''}`,
  );
  const first = repeated.first[0];
  return issue(
    'csv_header_repeated',
    '',
    `${file}: the header line is repeated inside the data ${repeated.count} time(s), at ${places.join(', ')}${repeated.count > places.length ? ', ...' : ''}; the import fails there unless the line is removed`,
    {
      hint: 'Remove the repeated header lines (`importkit normalize` does), or import each log on its own.',
      source: {
        file,
        ...(first?.row !== undefined ? { row: first.row } : {}),
        ...(first?.line !== undefined ? { line: first.line } : {}),
      },
    },
  );
}

function refuseTooWide(file: string, rows: readonly (readonly string[])[]): void {
  const widest = rows.reduce((w, r) => Math.max(w, r.length), 0);
  if (widest > MAX_CSV_COLUMNS)
    fail(
      file,
      'csv_too_many_columns',
      `a row has ${widest} fields; a table has at most ${MAX_CSV_COLUMNS} columns`,
      'Check the delimiter (the `delimiter` option) and that this is a CSV file of rows.',
    );
}

/**
 * The last row when the file ends without a line end and that row has fewer fields than the
 * table: a file still being written, or cut. Uses the bytes already read at the end (the
 * whole head, the end slice), else reads the last 64 KiB (plain files only: not gzip).
 */
async function lastRowShort(
  source: ByteSource,
  tail: Uint8Array | undefined,
  dialect: CsvDialect,
  columns: number,
): Promise<{ fields: number; text: string } | undefined> {
  if (columns < 2) return undefined;
  const last = tail ? tail.subarray(tail.byteLength - 1) : await source.read(source.size - 1, 1);
  if (last[0] === 10 || last[0] === 13) return undefined;
  const bytes = tail ?? (await source.read(Math.max(0, source.size - 64 * KiB), 64 * KiB));
  const nl = Math.max(bytes.lastIndexOf(10), bytes.lastIndexOf(13));
  if (nl < 0 && bytes.byteLength < source.size) return undefined;
  const text = decodeText(bytes.subarray(nl + 1)).text;
  const fields = Papa.parse<string[]>(text, {
    delimiter: dialect.delimiter,
    quoteChar: dialect.quoteChar,
  }).data[0]?.length;
  return fields !== undefined && fields < columns ? { fields, text } : undefined;
}

function lastRowIssue(
  file: string,
  short: { fields: number; text: string },
  columns: number,
): Issue {
  const preview = short.text.length > 40 ? `${short.text.slice(0, 40)}...` : short.text;
  return issue(
    'csv_last_row_incomplete',
    '',
    `${file}: the last row ('${preview}') has ${short.fields} of ${columns} fields and no line end: the file may still be being written, or was cut`,
    {
      hint: 'Wait for the export to finish (or copy the file again), then infer or check it once more.',
      source: { file },
    },
  );
}
