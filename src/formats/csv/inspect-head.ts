/**
 * Reading a CSV file's head: its bytes (decompressed for gzip) up to a size or a number of
 * lines, decoded; the dialect (line ending, delimiter, quote); and its rows, split into
 * arrays (or, quote-free, kept as lines to be typed in place).
 */
import Papa from 'papaparse';
import {
  type ByteSource,
  gunzipChunks,
  InspectError,
  isGzip,
  refuseEmptyFile,
} from '../../inspect/shared.js';
import { type Issue, issue, showDelimiter } from '../../model/plain.js';
import {
  type CsvDialect,
  decodeText,
  detectDelimiter,
  detectLineEnding,
  newlineOf,
} from './dialect.js';
import { refuseUnreadableCsv } from './head.js';
import { type CsvLayout, detectLayout } from './layout.js';
import { CSV_HEAD_ROWS, type CsvInspectOptions, KiB, MAX_CSV_COLUMNS, MiB } from './profile.js';

/** Rows of the head kept as arrays for the layout (preamble, header, units) when typing in place. */
const LAYOUT_ROWS = 2000;

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
export async function* contentChunks(source: ByteSource, gzip: boolean, chunk = MiB) {
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

export function stripCr(rows: string[][]): void {
  for (const r of rows) {
    const i = r.length - 1;
    const v = r[i];
    if (v?.endsWith('\r')) r[i] = v.slice(0, -1);
  }
}

export function isBlankRow(r: readonly string[]): boolean {
  return r.length === 1 && (r[0] ?? '').trim() === '';
}

export interface HeadText {
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
export async function readHeadText(
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
export function chooseDialect(
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

export interface HeadTable {
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

/**
 * The head's rows: the preamble and header (from the sample) plus `headRows` data rows, and
 * the sample's layout when the rows are the sample's (the caller's would be the same).
 */
export function splitHeadRows(
  head: HeadText,
  sample: string,
  dialect: CsvDialect,
  options: CsvInspectOptions,
  headRows: number,
  file: string,
): HeadTable & { layout?: CsvLayout } {
  const quote = dialect.quoteChar;
  const sampleLines = sample.indexOf(quote) < 0 ? linesOf(sample, dialect) : undefined;
  const sampleRows = sampleLines
    ? rowsOf(sampleLines, dialect, sampleLines.length)
    : parseRows(sample, dialect).rows;
  refuseTooWide(file, sampleRows);
  const layoutOptions = options.headerRow === undefined ? {} : { headerRow: options.headerRow };
  const sampleLayout = detectLayout(sampleRows, layoutOptions);
  const { lineEnding } = dialect;
  let { text, complete, cut } = head;
  const nl = lineEnding === 'CR' ? '\r' : '\n';
  const lineCut = cutTextAfterLines(text, sampleLayout.firstData + headRows, nl);
  if (lineCut < text.length) {
    text = text.slice(0, lineCut);
    complete = false;
    const { bom, validUtf8 } = head.decoded;
    cut = (bom ? 3 : 0) + (validUtf8 ? Buffer.byteLength(text, 'utf8') : text.length);
  }
  // Text without the quote character splits exactly as papaparse would (its fast mode):
  // then only the first rows become arrays (for the layout) and the rest are typed in place.
  // A head that is its sample (a small file) is split once, and its layout found once.
  const same = sampleLines !== undefined && text === sample;
  let rows: string[][];
  let lines: string[] | undefined;
  if (same || text.indexOf(quote) < 0) {
    lines = same ? sampleLines : linesOf(text, dialect);
    rows =
      same && sampleRows.length <= LAYOUT_ROWS ? sampleRows : rowsOf(lines, dialect, LAYOUT_ROWS);
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
  const table = { rows, lines, rowCount, complete, cut };
  return rows === sampleRows ? { ...table, layout: sampleLayout } : table;
}

/** The lines of quote-free text, as papaparse would cut its rows (no empty last line). */
function linesOf(text: string, dialect: CsvDialect): string[] {
  const lines = text.split(newlineOf(dialect.lineEnding));
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The first `n` lines split into cells (a CR left by mixed line ends dropped). */
function rowsOf(lines: readonly string[], dialect: CsvDialect, n: number): string[][] {
  const mixed = dialect.lineEnding === 'mixed';
  return lines
    .slice(0, n)
    .map((l) => (mixed && l.endsWith('\r') ? l.slice(0, -1) : l).split(dialect.delimiter));
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
