/**
 * CSV inspection in steps: the head read and its dialect chosen, its rows typed, the later
 * parts read, the fields described; then the profile assembled, with the issues of the file
 * as a whole (a repeated header, a last row cut short, ragged rows).
 */
import Papa from 'papaparse';
import { type ByteSource, openForInspection } from '../../inspect/shared.js';
import { type Issue, issue } from '../../model/plain.js';
import { type CsvDialect, decodeText } from './dialect.js';
import { headRowsOf } from './head.js';
import { fieldsOf } from './inspect-fields.js';
import { chooseDialect, readHeadText, splitHeadRows } from './inspect-head.js';
import { type HeadScan, type RepeatedHeader, scanHeadRows } from './inspect-rows.js';
import { readLaterParts } from './inspect-slices.js';
import { detectLayout } from './layout.js';
import {
  CSV_HEAD_BYTES,
  CSV_HEAD_ROWS,
  type CsvInspectOptions,
  type CsvProfile,
  KiB,
} from './profile.js';

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
  const layout =
    table.layout ??
    detectLayout(
      table.rows,
      options.headerRow === undefined ? {} : { headerRow: options.headerRow },
    );
  const scan = scanHeadRows(table, layout, dialect, headRows);
  const later = await readLaterParts(source, head, table, scan, dialect, options, issues);
  const lastRowFields = await fileIssues(
    source,
    later.tail,
    head.gzip,
    dialect,
    scan,
    file,
    issues,
  );
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
      ...(lastRowFields !== undefined ? { lastRowFields } : {}),
    },
  };
  if (later.rowCount !== undefined) profile.rowCount = later.rowCount;
  if (options.headRecords !== undefined)
    profile.head = headRowsOf(table.rows, layout, options.headRecords);
  return profile;
}

/** Repeated header lines, a last row cut short, ragged rows; the cut row's fields, if any. */
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
  return cutShort?.fields;
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
