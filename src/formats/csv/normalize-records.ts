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
import { scanSpan, spanStart } from './check-range.js';
import {
  type NormalizeCounts,
  type NormalizePlan,
  type OutColumn,
  rewriteCell,
} from './normalize-plan.js';
import { DECLINED, KEPT, rewriteTimeBytes, WRITTEN } from './normalize-time-bytes.js';
import { TimeShapes } from './normalize-time-shapes.js';
import { type TimeReading, TimeWriter } from './normalize-times.js';
import { type CsvRecord, fieldText, type ScanBuffers, scanCsvFile } from './scan.js';

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
 * never ahead of the disk) each time it fills; or, with no file (a range of rows rewritten
 * apart, normalize-parallel.ts), kept whole in a buffer that grows.
 */
export class Output {
  written = 0;
  /** Bytes gathered in the buffer. */
  pos = 0;
  private buf: Buffer;
  /** The buffer's length (kept: reading a Buffer's `byteLength` per cell costs). */
  private cap: number;

  constructor(
    private readonly fd: number | undefined,
    size: number,
  ) {
    this.buf = Buffer.allocUnsafe(size);
    this.cap = size;
  }

  /** Makes room for `n` more bytes. */
  room(n: number): Buffer {
    if (this.pos + n > this.cap) {
      if (this.fd === undefined) this.grow(this.pos + n);
      else {
        this.flush();
        if (n > this.cap) {
          this.buf = Buffer.allocUnsafe(n);
          this.cap = n;
        }
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
    if (this.fd === undefined) return;
    this.written += writeAll(this.fd, this.buf, 0, this.pos);
    this.pos = 0;
  }

  /**
   * Nothing gathered, in another buffer of `size` bytes or more (the last one's bytes are
   * handed on): `given` when it is as large, else a new one.
   */
  restart(size: number, given?: ArrayBuffer): void {
    this.buf = given && given.byteLength >= size ? Buffer.from(given) : Buffer.allocUnsafe(size);
    this.cap = this.buf.byteLength;
    this.pos = 0;
    this.written = 0;
  }

  /** The bytes kept (no file): a view of the buffer, which is its own (never pooled). */
  kept(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }

  private grow(need: number): void {
    const bigger = Buffer.allocUnsafe(Math.max(need, this.cap * 2));
    this.buf.copy(bigger, 0, 0, this.pos);
    this.buf = bigger;
    this.cap = bigger.byteLength;
  }
}

/** Writes bytes `from .. to` of `bytes` to `fd`, whatever each write takes; their count. */
export function writeAll(fd: number, bytes: Uint8Array, from: number, to: number): number {
  for (let at = from; at < to; ) at += writeSync(fd, bytes, at, to - at);
  return to - from;
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

/** A record with no cell but an empty one: a blank line, left out of the output. */
const isBlank = (rec: CsvRecord) =>
  rec.count === 1 && (rec.starts[0] === rec.ends[0] || textOf(rec, 0) === '');

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
      if (!isBlank(rec)) rows.record(rec);
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

/**
 * The rows before the first data row written into `out` (as rewriteRecords writes them):
 * the records read, where the next one starts, and the header's cells (trimmed) that a
 * repeated header line is told by.
 */
export async function rewriteHead(input: string, out: Output, plan: NormalizePlan, r: Rewriting) {
  const rows = new RowWriter(out, plan, r);
  const before = plan.firstDataRow - 1;
  if (before < 1) return { rows: 0, endOffset: 0, header: undefined, atEnd: false };
  const read = await scanCsvFile(
    input,
    (rec) => {
      if (!isBlank(rec)) rows.record(rec);
      return undefined;
    },
    { delimiter: plan.delimiter, maxRows: before },
  );
  return {
    rows: read.rows,
    endOffset: read.endOffset,
    header: rows.headerCells,
    atEnd: read.atEnd,
  };
}

/** Records of data rows a thread rewrites apart: a part of a parallel normalize. */
export interface RowRange {
  /** A record start (`exact`), or a split point resolved to a record start after it. */
  start: number;
  exact: boolean;
  /** Records that start at or after this offset belong to the next range. */
  stopAt: number;
  /**
   * A buffer for the range's output, an earlier range's that was written: a new buffer a
   * range left the collector tens of MiB of them to free (bench/normalize's file where
   * every cell is rewritten: 160 to 180 MiB peak RSS at 2 jobs).
   */
  buffer?: ArrayBuffer | undefined;
}

/** What every range of one file is rewritten with. */
export interface RangeInput {
  path: string;
  plan: NormalizePlan;
  /** The header's cells (trimmed): a data row of the same cells is a repeated header. */
  header: string[] | undefined;
  /** How each output column's times are read (none: not a time column). */
  readings: Array<TimeReading | undefined>;
  /** Read size (default 1 MiB; tests read small files in small chunks). */
  chunkSize?: number | undefined;
}

/** What a time column's writer noted in a range: rows counted from the range's first. */
export interface TimesNoted {
  repeated: number[];
  contradicted: TimeWriter['contradicted'];
  last: number;
  unsure: boolean;
}

/** A range rewritten: where its records start and end, its output and what it counted. */
export interface RangeRewritten {
  start: number;
  endOffset: number;
  /** Records read (blank ones too: rows are numbered by them). */
  rows: number;
  /** False when a guessed range could not finish its last record within OVERRUN_BYTES. */
  finished: boolean;
  output: Uint8Array;
  counts: NormalizeCounts;
  times: Array<TimesNoted | undefined>;
}

/**
 * Rewrites the data rows of one range into a buffer of its own. `lasts`: each time
 * column's last instant before the range (when the rows before it are known), which
 * decides a local time the zone repeats; `o.buffers`: the read window a thread's ranges
 * share; `o.syncReads`: blocking reads (a worker thread).
 */
export async function rewriteRange(
  range: RowRange,
  input: RangeInput,
  o: { lasts?: number[] | undefined; buffers?: ScanBuffers; syncReads?: boolean } = {},
): Promise<RangeRewritten> {
  const span = {
    ...range,
    path: input.path,
    delimiter: input.plan.delimiter,
    chunkSize: input.chunkSize,
    syncReads: o.syncReads,
  };
  const start = await spanStart(span);
  const w = rangeWriterFor(input);
  w.begin(o.lasts, Math.ceil(Math.max(0, range.stopAt - start) * 1.125) + 65_536, range.buffer);
  try {
    const buffers = o.buffers;
    const { read, finished } = await scanSpan(span, start, w.onRecord, buffers ? { buffers } : {});
    return { start, endOffset: read.endOffset, rows: read.rows, finished, ...w.end() };
  } finally {
    w.busy = false;
  }
}

/**
 * The writer of a thread's ranges, kept from one range to the next: one record callback,
 * one row writer, one set of counts and time writers, their state set anew for each range.
 * The engine then compiles the callback with everything it reaches fixed, as it does for
 * the one long scan of rewriteRecords; with a new callback and writers a range, the ranges
 * of the bench's file (every cell rewritten, 4 MiB each, one thread) took 4.7 to 5.1 s
 * against 2.4 to 3.5 s read as one range.
 */
class RangeWriter {
  readonly counts = noCounts();
  readonly times: Array<TimeWriter | undefined>;
  readonly out = new Output(undefined, 64 * 1024);
  private readonly rows: RowWriter;
  /** A range is under way (a second range at once, read again while the next is read, gets a writer of its own). */
  busy = false;
  readonly onRecord = (rec: CsvRecord): undefined => {
    if (!isBlank(rec)) this.rows.data(rec);
  };

  constructor(readonly input: RangeInput) {
    this.times = input.readings.map((reading) => reading && new TimeWriter(reading));
    const r = { counts: this.counts, times: this.times, onProgress: undefined };
    this.rows = new RowWriter(this.out, input.plan, r, input.header);
  }

  /**
   * A range begins: nothing counted, each time column after `lasts`, `size` bytes of output
   * (in `buffer` when it is as large).
   */
  begin(lasts: number[] | undefined, size: number, buffer?: ArrayBuffer): void {
    for (const key of Object.keys(this.counts) as Array<keyof NormalizeCounts>)
      this.counts[key] = 0;
    this.times.forEach((t, i) => {
      t?.restart(lasts?.[i]);
    });
    this.out.restart(size, buffer);
    this.busy = true;
  }

  /** The range's output and what it counted, its own (the writer's state is set anew). */
  end(): Pick<RangeRewritten, 'output' | 'counts' | 'times'> {
    return {
      output: this.out.kept(),
      counts: { ...this.counts },
      times: this.times.map(
        (t) =>
          t && {
            repeated: [...t.repeated],
            contradicted: { ...t.contradicted },
            last: t.last,
            unsure: t.unsure,
          },
      ),
    };
  }
}

/**
 * The range writer of this thread, for the ranges of `input` (a new read: a new one); a
 * writer of its own for a range read while that one is busy.
 */
let rangeWriter: RangeWriter | undefined;

/** The range writer of this thread let go (its read is over: a process may live on). */
export function forgetRangeWriter(): void {
  rangeWriter = undefined;
}

function rangeWriterFor(input: RangeInput): RangeWriter {
  if (rangeWriter?.busy) return new RangeWriter(input);
  if (rangeWriter?.input !== input) rangeWriter = new RangeWriter(input);
  return rangeWriter;
}

/** Counts of nothing changed yet. */
export function noCounts(): NormalizeCounts {
  return {
    decimalCommas: 0,
    thousandsSeparators: 0,
    timesJoined: 0,
    timesRewritten: 0,
    repeatedHeaders: 0,
    cellsKept: 0,
  };
}

/** Writes records: the rows before the data as they are (or as headers), then data rows. */
class RowWriter {
  private header: string[] | undefined;
  /** The first character of the header's first cell (a cheap test for a repeated header). */
  private headerStart = Number.NaN;
  /** Per output column: the shapes of its times (none for other columns). */
  private readonly shapes: Array<TimeShapes | undefined>;

  /** `header`: the header's cells, for a writer of data rows only (rewriteRange). */
  constructor(
    private readonly out: Output,
    private readonly plan: NormalizePlan,
    private readonly r: Rewriting,
    header?: string[],
  ) {
    this.shapes = plan.columns.map((c) => (c.kind === 'time' ? new TimeShapes() : undefined));
    if (header) this.setHeader(header);
  }

  /** The header's cells (trimmed), once its row is read. */
  get headerCells(): string[] | undefined {
    return this.header;
  }

  record(rec: CsvRecord): void {
    const { plan } = this;
    if (rec.row >= plan.firstDataRow) {
      this.data(rec);
      return;
    }
    const cells = Array.from({ length: rec.count }, (_, i) => textOf(rec, i));
    const line =
      rec.row === plan.headerRow
        ? plan.columns.map((c) => c.header)
        : rec.row > plan.headerRow && plan.headerRow > 0
          ? plan.columns.map((c) => (c.kind === 'join' ? '' : (cells[c.from[0] as number] ?? '')))
          : cells;
    this.line(line);
    if (rec.row === plan.headerRow) this.setHeader(cells.map((c) => c.trim()));
  }

  /** A data row: left out when it repeats the header, else its cells rewritten. */
  data(rec: CsvRecord): void {
    const out = this.out;
    if (this.isHeader(rec)) {
      this.r.counts.repeatedHeaders += 1;
      return;
    }
    const columns = this.plan.columns;
    for (let i = 0; i < columns.length; i++) {
      if (i > 0) out.byte(COMMA);
      this.cell(rec, columns[i] as OutColumn, i);
    }
    out.byte(10);
  }

  private setHeader(header: string[]): void {
    this.header = header;
    this.headerStart = header[0]?.charCodeAt(0) ?? Number.NaN;
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
