/**
 * What follows a CSV file's head: nothing (the head is the whole file), every row streamed
 * (`full`), or a few slices from the middle and the end, each aligned to whole rows.
 */
import { Readable } from 'node:stream';
import Papa from 'papaparse';
import type { ByteSource } from '../../inspect/shared.js';
import { type Issue, issue } from '../../model/plain.js';
import { ColumnStats } from './cells.js';
import { type CsvDialect, decodeText, newlineOf } from './dialect.js';
import { contentChunks, type HeadTable, type HeadText, stripCr } from './inspect-head.js';
import {
  decreases,
  type HeadScan,
  type KindWhere,
  noteKinds,
  noteRepeat,
  type RepeatedHeader,
  sameCells,
} from './inspect-rows.js';
import {
  CSV_SLICE_BYTES,
  type CsvInspectOptions,
  type CsvProfile,
  type CsvSlice,
  MiB,
} from './profile.js';

export interface LaterParts {
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
export async function readLaterParts(
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
