/**
 * The record path of `normalize`: every record's cells rewritten straight from the scanner's
 * bytes into one output buffer, written in large pieces. No strings or arrays per row: a
 * cell is copied as bytes when it needs no change (or only quoting), a number is rewritten
 * byte by byte, a time is read from its bytes (`rewriteTimeBytes`). What these do not read
 * for sure (non-ASCII text, quotes inside a cell, unusual time shapes) goes through the
 * same string functions as the rest of the stage, so the output is the same either way.
 */
import { writeSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import {
  type NormalizeCounts,
  type NormalizePlan,
  type OutColumn,
  rewriteCell,
} from './normalize-plan.js';
import { DECLINED, KEPT, rewriteTimeBytes, WRITTEN } from './normalize-time-bytes.js';
import { TimeShapes } from './normalize-time-shapes.js';
import type { TimeWriter } from './normalize-times.js';
import { type CsvRecord, fieldText, scanCsvFile } from './scan.js';

/** What the record path changes as it goes: counts, and the time columns' writers. */
export interface Rewriting {
  counts: NormalizeCounts;
  times: ReadonlyArray<TimeWriter | undefined>;
  onProgress: ((done: number, total: number) => void) | undefined;
  /** Bytes gathered before each write (default 1 MiB). */
  outputSize?: number;
}

const COMMA = 44;
const QUOTE = 34;
const DOT = 46;

/**
 * The output: bytes gathered in one buffer and written (synchronously, so in order and
 * never ahead of the disk) each time it fills.
 */
class Output {
  written = 0;
  /** Bytes gathered in the buffer. */
  pos = 0;
  private buf: Buffer;
  /** The buffer's length (kept: reading a Buffer's `byteLength` per cell costs). */
  private cap: number;

  constructor(
    private readonly fd: number,
    size: number,
  ) {
    this.buf = Buffer.allocUnsafe(size);
    this.cap = size;
  }

  /** Makes room for `n` more bytes. */
  room(n: number): Buffer {
    if (this.pos + n > this.cap) {
      this.flush();
      if (n > this.cap) {
        this.buf = Buffer.allocUnsafe(n);
        this.cap = n;
      }
    }
    return this.buf;
  }

  byte(c: number): void {
    this.room(1)[this.pos++] = c;
  }

  bytes(from: Uint8Array, s: number, e: number): void {
    const buf = this.room(e - s);
    // A cell is short: a loop costs less than a view of it for `set`.
    if (e - s < 64) for (let i = s; i < e; i++) buf[this.pos++] = from[i] as number;
    else {
      buf.set(from.subarray(s, e), this.pos);
      this.pos += e - s;
    }
  }

  /** Any cell's text, quoted when it holds a `,`, a quote or a line break. */
  cell(text: string): void {
    const t = /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
    const b = this.room(Buffer.byteLength(t));
    this.pos += b.write(t, this.pos, 'utf8');
  }

  flush(): void {
    let at = 0;
    while (at < this.pos) at += writeSync(this.fd, this.buf, at, this.pos - at);
    this.written += this.pos;
    this.pos = 0;
  }
}

/** Decodes a field as a line's cells were: a line without quotes in one piece (a BOM kept past its start). */
const KEEP_BOM = new TextDecoder('utf-8', { ignoreBOM: true });

/** Field `i`'s text ('' past the record's end). */
function textOf(rec: CsvRecord, i: number): string {
  if (i >= rec.count) return '';
  return rec.anyQuoted || i === 0 ? fieldText(rec, i) : fieldText(rec, i, KEEP_BOM);
}

/**
 * Whether the field `[s, e)` is written between quotes: 0 no, 1 yes (a `,`, a line break, a
 * quote of a quoted field), -1 for its text (not ASCII, or a quote in an unquoted field).
 */
function quoting(b: Uint8Array, s: number, e: number, quoted: boolean): number {
  let quote = 0;
  for (let i = s; i < e; i++) {
    const c = b[i] as number;
    if (c >= 0x80 || (c === QUOTE && !quoted)) return -1;
    if (c === COMMA || c === QUOTE || c === 10 || c === 13) quote = 1;
  }
  return quote;
}

/** Record by record: every row's cells rewritten and joined with `,`. */
export async function rewriteRecords(
  input: string,
  fd: number,
  plan: NormalizePlan,
  r: Rewriting,
): Promise<number> {
  const out = new Output(fd, r.outputSize ?? 1024 * 1024);
  const size = (await stat(input)).size;
  const progress = r.onProgress;
  const rows = new RowWriter(out, plan, r);
  await scanCsvFile(
    input,
    (rec) => {
      if (rec.count === 1 && (rec.starts[0] === rec.ends[0] || textOf(rec, 0) === ''))
        return undefined;
      rows.record(rec);
      return undefined;
    },
    {
      delimiter: plan.delimiter,
      chunkSize: 4 * 1024 * 1024,
      ...(progress ? { onProgress: (done: number) => progress(done, size) } : {}),
    },
  );
  out.flush();
  return out.written;
}

/** Writes records: the rows before the data as they are (or as headers), then data rows. */
class RowWriter {
  private header: string[] | undefined;
  /** The first character of the header's first cell (a cheap test for a repeated header). */
  private headerStart = Number.NaN;
  /** Per output column: the shapes of its times (none for other columns). */
  private readonly shapes: Array<TimeShapes | undefined>;

  constructor(
    private readonly out: Output,
    private readonly plan: NormalizePlan,
    private readonly r: Rewriting,
  ) {
    this.shapes = plan.columns.map((c) => (c.kind === 'time' ? new TimeShapes() : undefined));
  }

  record(rec: CsvRecord): void {
    const { plan, out } = this;
    if (rec.row < plan.firstDataRow) {
      const cells = Array.from({ length: rec.count }, (_, i) => textOf(rec, i));
      const line =
        rec.row === plan.headerRow
          ? plan.columns.map((c) => c.header)
          : rec.row > plan.headerRow && plan.headerRow > 0
            ? plan.columns.map((c) => (c.kind === 'join' ? '' : (cells[c.from[0] as number] ?? '')))
            : cells;
      this.line(line);
      if (rec.row === plan.headerRow) {
        this.header = cells.map((c) => c.trim());
        this.headerStart = this.header[0]?.charCodeAt(0) ?? Number.NaN;
      }
      return;
    }
    if (this.isHeader(rec)) {
      this.r.counts.repeatedHeaders += 1;
      return;
    }
    const columns = plan.columns;
    for (let i = 0; i < columns.length; i++) {
      if (i > 0) out.byte(COMMA);
      this.cell(rec, columns[i] as OutColumn, i);
    }
    out.byte(10);
  }

  private line(cells: readonly string[]): void {
    cells.forEach((c, i) => {
      if (i > 0) this.out.byte(COMMA);
      this.out.cell(c);
    });
    this.out.byte(10);
  }

  /** True when the record's cells, trimmed, are the header's. */
  private isHeader(rec: CsvRecord): boolean {
    const header = this.header;
    if (!header || rec.count !== header.length) return false;
    // The first non-blank ASCII byte of the first cell tells most rows from the header.
    const b = rec.bytes;
    let p = rec.starts[0] as number;
    const e = rec.ends[0] as number;
    while (p < e && isSpace(b[p] as number)) p += 1;
    const c = p < e ? (b[p] as number) : Number.NaN;
    if (c < 0x80 && c !== QUOTE && c !== this.headerStart) return false;
    for (let i = 0; i < header.length; i++) if (textOf(rec, i).trim() !== header[i]) return false;
    return true;
  }

  /** One output cell of a data row. */
  private cell(rec: CsvRecord, col: OutColumn, at: number): void {
    const i = col.from[0] as number;
    const writer = this.r.times[at];
    if (col.kind === 'copy') this.copy(rec, i);
    else if (col.kind === 'time' && writer) this.time(rec, col, writer, this.shapes[at]);
    else if (col.kind === 'join' || !this.number(rec, i, col.kind === 'decimal_comma'))
      this.rewritten(rec, col, writer);
  }

  /** A cell as `rewriteCell` writes it from its text. */
  private rewritten(rec: CsvRecord, col: OutColumn, writer: TimeWriter | undefined): void {
    const i = col.from[0] as number;
    const other = col.kind === 'join' ? textOf(rec, col.from[1] as number) : '';
    const counts = this.r.counts;
    this.out.cell(rewriteCell(col, textOf(rec, i), other, writer, counts, rec.row));
  }

  /**
   * Field `i` as it is: its bytes, between quotes when it holds a `,`, a line break or a
   * quote (a quoted field's `""` stay as they are); its text when it is not ASCII.
   */
  private copy(rec: CsvRecord, i: number): void {
    if (i >= rec.count) return;
    const s = rec.starts[i] as number;
    const e = rec.ends[i] as number;
    const quote = quoting(rec.bytes, s, e, rec.anyQuoted && rec.quoted[i] === 1);
    if (quote < 0) this.out.cell(textOf(rec, i));
    else {
      if (quote) this.out.byte(QUOTE);
      this.out.bytes(rec.bytes, s, e);
      if (quote) this.out.byte(QUOTE);
    }
  }

  /**
   * A time cell of a shape its column has written before (`TimeShapes`), else read from its
   * bytes, or by `rewriteCell` when they do not tell for sure.
   */
  private time(
    rec: CsvRecord,
    col: OutColumn,
    writer: TimeWriter,
    shapes: TimeShapes | undefined,
  ): void {
    const i = col.from[0] as number;
    const counts = this.r.counts;
    const b = rec.bytes;
    const s = rec.starts[i] as number;
    const e = rec.ends[i] as number;
    if (i < rec.count && shapes?.write(b, s, e, writer, rec.row, this.out)) {
      counts.timesRewritten += 1;
      return;
    }
    const done = i < rec.count ? rewriteTimeBytes(b, s, e, writer, rec.row, this.out) : DECLINED;
    if (done === WRITTEN) {
      counts.timesRewritten += 1;
      shapes?.learn(b, s, e, writer.dateOrder);
    } else if (done === KEPT) {
      counts.cellsKept += 1;
      this.copy(rec, i);
    } else this.out.cell(rewriteCell(col, textOf(rec, i), '', writer, counts, rec.row));
  }

  /**
   * A number cell rewritten byte by byte (`1.234,5` → `1234.5`, or `1,234.5` → `1234.5`;
   * quoted when a comma is left): false when it is not plain ASCII (for `rewriteCell`).
   */
  private number(rec: CsvRecord, i: number, decimalComma: boolean): boolean {
    if (i >= rec.count) return false;
    const b = rec.bytes;
    const s = rec.starts[i] as number;
    const e = rec.ends[i] as number;
    let p = s;
    let q = e;
    while (p < q && isSpace(b[p] as number)) p += 1;
    while (q > p && isSpace(b[q - 1] as number)) q -= 1;
    if (p === q) return false;
    // One pass: the bytes written as they are read (past `pos`, so a cell given up leaves
    // nothing), then moved one on for a quote in the rare cell that keeps a comma.
    const out = this.out.room(q - p + 2);
    const from = this.out.pos;
    let at = from;
    let commas = 0;
    let changed = p > s || q < e;
    for (let k = p; k < q; k++) {
      const c = b[k] as number;
      if (c === COMMA) {
        if (decimalComma) out[at++] = commas === 0 ? DOT : COMMA;
        commas += 1;
      } else if (c === DOT && decimalComma) changed = true;
      else if (c >= 0x80 || c === QUOTE || c === 10 || c === 13) return false;
      else out[at++] = c;
    }
    if (decimalComma && commas > 1) {
      out.copyWithin(from + 1, from, at);
      out[from] = QUOTE;
      out[at + 1] = QUOTE;
      at += 2;
    }
    this.out.pos = at;
    changed ||= commas > 0;
    if (changed) {
      if (decimalComma) this.r.counts.decimalCommas += 1;
      else this.r.counts.thousandsSeparators += 1;
    }
    return true;
  }
}

/** The bytes JavaScript's `trim` drops that are ASCII (tab, line breaks, space). */
const isSpace = (c: number) => c === 32 || (c >= 9 && c <= 13);
