/**
 * A tight CSV record scanner over bytes, for `check --full`. Why not papaparse: papaparse
 * builds a string for every cell (and an array per row), which caps it near 38 MB/s on
 * this class of machine; a check only needs to look at a few cells of each row, most of
 * them numbers that can be judged on the bytes directly. So this scanner finds field
 * boundaries in a reused buffer and hands out offsets; it creates strings only for the
 * cells a caller asks for (offenders, samples). Quoted fields follow RFC 4180 (`""` is a
 * quote inside a quoted field; delimiters and line breaks inside quotes are data), handled
 * in the same loop, so files with quotes stay on the fast path too.
 *
 * Rows are CSV records, counted from 1 as the platform counts `firstDataRow`; lines are
 * physical lines (a quoted field can span several). LF, CRLF and CR line ends are read.
 * A UTF-8 BOM at the start is skipped.
 */
import type { ByteSource } from '../../inspect/shared.js';
import { openReader, type Reader, sourceReader } from './scan-reader.js';

/** The fields of one record: offsets into `bytes`, valid only during the callback. */
export interface CsvRecord {
  bytes: Uint8Array;
  /** Start offset of each field's content (after an opening quote). */
  starts: Int32Array;
  /** End offset (exclusive) of each field's content (before a closing quote). */
  ends: Int32Array;
  /** 1 when the field was quoted (its content may hold `""` pairs); read only when `anyQuoted`. */
  quoted: Uint8Array;
  /** False for a record read by the fast path (no field quoted): `quoted` is then stale. */
  anyQuoted: boolean;
  /** Number of fields. */
  count: number;
  /** 1-based record number. */
  row: number;
  /** 1-based line the record starts on. */
  line: number;
  /** Byte offset in the file where the record starts. */
  offset: number;
}

export interface ScanOptions {
  delimiter?: string;
  /** Byte offset to start at (a record start). Default 0 (BOM skipped). */
  start?: number;
  /** Byte offset to stop before (records that start before it are read whole). Default: end. */
  end?: number;
  /**
   * Records that start at or after this offset are not read; the last one that starts
   * before it is read whole (past it). Default: none. With `end`, a record cut by `end` is
   * still dropped.
   */
  stopAt?: number;
  /** Stop after this many records. */
  maxRows?: number;
  /** Read size. Default 1 MiB. */
  chunkSize?: number;
  /** Called with bytes consumed so far. */
  onProgress?: (done: number) => void;
  /** Row and line numbers of the first record (when starting mid-file with known counts). */
  firstRow?: number;
  firstLine?: number;
  /**
   * Read a plain file with blocking reads: for a worker thread, whose reads then make no
   * trip through the shared thread pool (a wait per chunk on a busy machine).
   */
  syncReads?: boolean;
  /**
   * Buffers lent by a caller that scans one range after another (never two at once): the
   * window of one scan is left here for the next, which spares a scan its new 3 MiB and the
   * kernel's mapping of them. Only for a caller whose `onRecord` keeps no view of a record's
   * bytes past its call (the check's tallies copy what they keep).
   */
  buffers?: ScanBuffers;
}

/** The window buffers a scan leaves for the next (ScanOptions.buffers). */
export interface ScanBuffers {
  buf?: Buffer | undefined;
  staging?: Buffer | undefined;
}

export interface ScanResult {
  rows: number;
  lines: number;
  /** Byte offset just past the last record read. */
  endOffset: number;
  /** True when the scan was not stopped (by `maxRows` or the callback). */
  complete: boolean;
  /** True when every record of the file was read (the real end, not `end`). */
  atEnd: boolean;
}

const LF = 10;
const CR = 13;
const QUOTE = 34;
const MAX_FIELDS_START = 64;

/**
 * Splits the line at `p` into fields when it holds no quote and ends with LF (or CRLF)
 * before `limit`: sets `rec.count` and the offsets (grown as needed) and returns the LF's
 * offset. Returns -1 when no line end is in the buffer yet and -2 for a line the careful
 * path must read (a quote, a lone CR). A plain function of its arguments, so the engine
 * keeps the loop tight.
 *
 * `words` views the same bytes four at a time (or is undefined when they are not aligned):
 * a word none of whose bytes can be special (all above `maxSpecial`) is skipped whole,
 * tested with the classic "has a byte less than n" bit trick. With `,` (or a tab) as the
 * delimiter, digits, dots and signs are above every special byte, so most of a numeric
 * line goes by four bytes a step. A delimiter above the digits (`;`, `|`) would stop that
 * test at every digit: the word is then tested for the special bytes exactly (a byte below
 * 14, a quote, the delimiter: the "has a zero byte" trick on the word XOR each of them).
 */
function splitLine(
  b: Uint8Array,
  words: Int32Array | undefined,
  p: number,
  limit: number,
  delim: number,
  maxSpecial: number,
  rec: CsvRecord,
): number {
  let starts = rec.starts;
  let ends = rec.ends;
  let n = 0;
  let s = p;
  // Bytes below `maxSpecial + 1` (or below CR + 1, `exact`) in each lane for the word test.
  const exact = maxSpecial > 44;
  const below = Math.imul(exact ? CR + 1 : maxSpecial + 1, 0x01010101);
  const delims = Math.imul(delim, 0x01010101);
  let q = p;
  while (q < limit) {
    if (words !== undefined && (q & ~3) + 4 <= limit) {
      // The word holding q, its lanes before q made 0xFF: no test flags such a lane, and
      // none borrows from it, so a special byte there (the delimiter just read) flags
      // nothing after it. The lowest lane flagged is then the first special byte from q (a
      // borrow can flag a lane only above a true one): go straight to it. On bench/check's
      // 1 GB, one job, four alternated runs each: 4.59 to 5.42 s stepping byte by byte to the
      // next word's start, 3.85 to 4.96 s testing the word holding q at once.
      let w = q >> 2;
      let x = (words[w] as number) | ((1 << ((q & 3) << 3)) - 1);
      for (;;) {
        let hit = (x - below) & ~x;
        if (exact) {
          const xq = x ^ 0x22222222;
          const xd = x ^ delims;
          hit |= ((xq - 0x01010101) & ~xq) | ((xd - 0x01010101) & ~xd);
        }
        hit &= 0x80808080;
        if (hit !== 0) {
          q = (w << 2) + ((31 - Math.clz32(hit & -hit)) >> 3);
          break;
        }
        w += 1;
        q = w << 2;
        if (q + 4 > limit) break;
        x = words[w] as number;
      }
      if (q >= limit) break;
    }
    const c = b[q] as number;
    if (c > maxSpecial) {
      q += 1;
      continue;
    }
    if (c === delim) {
      if (n === starts.length - 1) {
        growRecord(rec);
        starts = rec.starts;
        ends = rec.ends;
      }
      starts[n] = s;
      ends[n] = q;
      n += 1;
      s = q + 1;
    } else if (c === LF) {
      starts[n] = s;
      ends[n] = q > s && b[q - 1] === CR ? q - 1 : q;
      rec.count = n + 1;
      rec.anyQuoted = false;
      return q;
    } else if (c === QUOTE || (c === CR && (q + 1 >= limit || b[q + 1] !== LF))) {
      return -2;
    }
    q += 1;
  }
  return -1;
}

/** A view of the buffer's bytes as 32-bit words, when its start is 4-byte aligned. */
function wordsOf(b: Buffer): Int32Array | undefined {
  return b.byteOffset % 4 === 0 ? new Int32Array(b.buffer, b.byteOffset, b.length >> 2) : undefined;
}

function growRecord(rec: CsvRecord): void {
  const cap = rec.starts.length * 2;
  const s2 = new Int32Array(cap);
  s2.set(rec.starts);
  const e2 = new Int32Array(cap);
  e2.set(rec.ends);
  const q2 = new Uint8Array(cap);
  q2.set(rec.quoted);
  rec.starts = s2;
  rec.ends = e2;
  rec.quoted = q2;
}

/** Decodes a field's text (`""` → `"` for quoted fields). */
export function fieldText(rec: CsvRecord, i: number, decoder = UTF8): string {
  const s = rec.starts[i] ?? 0;
  const e = rec.ends[i] ?? 0;
  const text = decoder.decode(rec.bytes.subarray(s, e));
  return rec.anyQuoted && rec.quoted[i] ? text.replace(/""/g, '"') : text;
}
const UTF8 = new TextDecoder('utf-8');

/**
 * Scans a file (a path, or an open byte source the caller keeps and closes) record by
 * record. `onRecord` returns `false` to stop early. Memory is bounded by the chunk size
 * plus the longest record. The bytes are judged in place by `splitLine` (the fast path: no
 * quote, an LF end) and `splitCarefully` (quotes, CR ends, a record not yet whole); this
 * loop only counts rows and lines and refills the window. Its speed is what
 * `npm run bench -- check` measures.
 */
export async function scanCsvFile(
  path: string | ByteSource,
  onRecord: (rec: CsvRecord) => boolean | undefined,
  options: ScanOptions = {},
): Promise<ScanResult> {
  const start = options.start ?? 0;
  const reader =
    typeof path === 'string'
      ? await openReader(path, start, options.syncReads === true)
      : await sourceReader(path, start);
  let win: ChunkWindow | undefined;
  try {
    win = new ChunkWindow(reader, start, options);
    return await scanRecords(win, onRecord, options);
  } finally {
    await (win ? win.close() : reader.close());
  }
}

/** The records of the window's bytes, handed to `onRecord` one by one. */
async function scanRecords(
  win: ChunkWindow,
  onRecord: (rec: CsvRecord) => boolean | undefined,
  options: ScanOptions,
): Promise<ScanResult> {
  const delim = (options.delimiter ?? ',').charCodeAt(0);
  /** Bytes above this are never special (delimiter, quote, CR, LF): the fast path skips them. */
  const maxSpecial = Math.max(delim, QUOTE, CR, LF);
  const firstRow = options.firstRow ?? 1;
  const maxRows = options.maxRows ?? Number.POSITIVE_INFINITY;
  const stopAt = options.stopAt ?? Number.POSITIVE_INFINITY;
  const rec = emptyRecord(win.buf);
  const careful: Careful = { lines: 0 };
  let row = firstRow - 1;
  let line = options.firstLine ?? 1;
  let stopped = false;
  await win.fill(0);
  rec.bytes = win.buf;
  let pos = win.start === 0 && startsWithBom(win.buf, win.filled) ? 3 : 0;
  for (;;) {
    if (pos >= win.filled) {
      if (win.eof) break;
      await win.fill(pos);
      rec.bytes = win.buf;
      pos = 0;
      continue;
    }
    if (win.offset + pos >= stopAt) break;
    let next = splitLine(win.buf, win.words, pos, win.filled, delim, maxSpecial, rec);
    let lines = 1;
    if (next >= 0) next += 1;
    else {
      next = splitCarefully(win.buf, pos, win.filled, win.final, delim, rec, careful);
      if (next < 0) {
        // Not whole in the buffer yet: read more, or at the end it is no record.
        if (win.eof) break;
        await win.fill(pos);
        rec.bytes = win.buf;
        pos = 0;
        continue;
      }
      lines = careful.lines;
    }
    row += 1;
    rec.row = row;
    rec.line = line;
    rec.offset = win.offset + pos;
    line += lines;
    pos = next;
    if (onRecord(rec) === false || row - firstRow + 1 >= maxRows) {
      stopped = true;
      break;
    }
  }
  return {
    rows: row - firstRow + 1,
    lines: line,
    endOffset: win.offset + pos,
    complete: !stopped,
    atEnd: !stopped && win.final && pos >= win.filled,
  };
}

function emptyRecord(bytes: Uint8Array): CsvRecord {
  return {
    bytes,
    starts: new Int32Array(MAX_FIELDS_START),
    ends: new Int32Array(MAX_FIELDS_START),
    quoted: new Uint8Array(MAX_FIELDS_START),
    anyQuoted: false,
    count: 0,
    row: 0,
    line: 0,
    offset: 0,
  };
}

function startsWithBom(b: Uint8Array, filled: number): boolean {
  return filled >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;
}

/** What `splitCarefully` tells besides where the record ends: the line breaks it spans. */
interface Careful {
  /** Counted as the record is read, quoted line breaks included. */
  lines: number;
}

/**
 * Splits the record at `p` the careful way (quoted fields, a CR line end, a last record
 * without a line end): sets `rec.count`, the offsets and `out.lines`, and returns the offset
 * just past the record, or -1 when the buffer does not hold it whole yet (`final`: the
 * buffer ends where the file does, so nothing more will come).
 */
function splitCarefully(
  buf: Uint8Array,
  p: number,
  filled: number,
  final: boolean,
  delim: number,
  rec: CsvRecord,
  out: Careful,
): number {
  let n = 0;
  out.lines = 0;
  for (;;) {
    if (n >= rec.starts.length - 1) growRecord(rec);
    if (p < filled && buf[p] === QUOTE) {
      const closed = closingQuote(buf, p + 1, filled, final, out);
      if (closed === -1) return -1; // incomplete: read more
      if (closed === -2) {
        // unterminated quote at end of file: take the rest as the field
        setField(rec, n, p + 1, filled, 1);
        n += 1;
        p = filled;
        break;
      }
      setField(rec, n, p + 1, closed, 1);
      n += 1;
      p = fieldEnd(buf, closed + 1, filled, delim); // lenient: anything up to the delimiter
    } else {
      const q = fieldEnd(buf, p, filled, delim);
      setField(rec, n, p, q, 0);
      n += 1;
      p = q;
    }
    if (p >= filled) {
      if (!final) return -1; // incomplete
      break;
    }
    const c = buf[p] as number;
    if (c === delim) {
      p += 1;
      if (p >= filled && final) {
        // trailing delimiter at EOF: one more empty field
        setField(rec, n, p, p, 0);
        n += 1;
        break;
      }
      continue;
    }
    if (c === CR) {
      if (p + 1 >= filled && !final) return -1; // is it CRLF? need the next byte
      // A CR that ends the file is a line end: the byte after it is no byte of the file (a
      // reused window holds what an earlier read left there).
      p += p + 1 < filled && buf[p + 1] === LF ? 2 : 1;
    } else p += 1; // LF
    out.lines += 1;
    break;
  }
  rec.count = n;
  rec.anyQuoted = true;
  return p;
}

/**
 * The offset of the quote that closes a quoted field whose content starts at `q`, adding
 * the line breaks (LF, CRLF or a lone CR) the content spans to `out.lines`; -1 when the
 * buffer ends before it is known, -2 when the file ends with the field still open.
 */
function closingQuote(
  buf: Uint8Array,
  q: number,
  filled: number,
  final: boolean,
  out: Careful,
): number {
  while (q < filled) {
    const c = buf[q] as number;
    if (c === QUOTE) {
      if (q + 1 < filled && buf[q + 1] === QUOTE) {
        q += 2;
        continue;
      }
      if (q + 1 >= filled && !final) return -1; // need the next byte to decide
      return q;
    }
    if (c === LF) out.lines += 1;
    else if (c === CR && (q + 1 >= filled || buf[q + 1] !== LF)) out.lines += 1;
    q += 1;
  }
  return final ? -2 : -1;
}

/** The first delimiter, CR or LF at or after `p`, or `filled`. */
function fieldEnd(buf: Uint8Array, p: number, filled: number, delim: number): number {
  while (p < filled) {
    const c = buf[p] as number;
    if (c === delim || c === LF || c === CR) return p;
    p += 1;
  }
  return filled;
}

function setField(rec: CsvRecord, n: number, start: number, end: number, quoted: number): void {
  rec.starts[n] = start;
  rec.ends[n] = end;
  rec.quoted[n] = quoted;
}

/**
 * The bytes being scanned: a buffer over the file from `offset`, `filled` bytes long,
 * refilled as records are consumed. The next chunk is read into `staging` while the current
 * one is parsed, so the scan does not wait for the disk (or the page cache) between chunks.
 */
class ChunkWindow {
  /** A Buffer: its indexOf is a native memchr (a Uint8Array's is a generic loop). */
  buf: Buffer;
  words: Int32Array | undefined;
  filled = 0;
  /** The file offset of `buf[0]`. */
  offset: number;
  /** No more bytes will be read (the file's end, or `end`). */
  eof = false;
  /** The buffer ends where the file does: a record without a line end there is whole. */
  final = false;
  readonly start: number;
  private filePos: number;
  private ahead: Promise<number> | undefined;
  private readonly staging: Buffer;
  private readonly chunk: number;
  private readonly end: number;
  /** At an `end` before the file's, a record cut short is not a record: it is dropped. */
  private readonly cut: boolean;

  constructor(
    private readonly reader: Reader,
    start: number,
    private readonly options: ScanOptions,
  ) {
    this.start = start;
    this.offset = start;
    this.filePos = start;
    this.end = Math.min(options.end ?? reader.size, reader.size);
    this.cut = this.end < reader.size;
    // No larger than the bytes to scan: a folder of ten thousand small files made three new
    // MiB of buffers a file, and the collector ran for each few.
    this.chunk = Math.min(options.chunkSize ?? 1024 * 1024, Math.max(4096, this.end - start));
    // Lent buffers are taken, not shared: a second scan under way at once makes its own.
    const lent = options.buffers;
    const buf = lent?.buf;
    const staging = lent?.staging;
    if (lent) {
      lent.buf = undefined;
      lent.staging = undefined;
    }
    this.buf = buf && buf.length >= this.chunk * 2 ? buf : Buffer.allocUnsafe(this.chunk * 2);
    this.words = wordsOf(this.buf);
    this.staging =
      staging && staging.length >= this.chunk ? staging : Buffer.allocUnsafe(this.chunk);
    this.readAhead();
  }

  private readAhead(): void {
    const want = Math.min(this.chunk, this.end - this.filePos);
    this.ahead = want > 0 ? this.reader.read(this.staging, 0, want, this.filePos) : undefined;
  }

  /** Drops the bytes before `pos` (consumed) and appends the next chunk after the rest. */
  async fill(pos: number): Promise<void> {
    if (pos > 0) {
      this.buf.copyWithin(0, pos, this.filled);
      this.filled -= pos;
      this.offset += pos;
    }
    if (this.filled + this.chunk > this.buf.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.filled + this.chunk));
      bigger.set(this.buf.subarray(0, this.filled));
      this.buf = bigger;
      this.words = wordsOf(bigger);
    }
    if (this.ahead === undefined) {
      this.eof = true;
      this.final = !this.cut;
      return;
    }
    const bytesRead = await this.ahead;
    this.ahead = undefined;
    this.buf.set(this.staging.subarray(0, bytesRead), this.filled);
    if (bytesRead === 0) {
      this.eof = true;
      this.final = true;
    }
    this.filled += bytesRead;
    this.filePos += bytesRead;
    if (this.filePos >= this.end) this.eof = true;
    this.final = this.final || (this.eof && !this.cut);
    if (bytesRead > 0) this.readAhead();
    this.options.onProgress?.(this.filePos - this.start);
  }

  /** Closes the reader, once a read still under way has finished. */
  async close(): Promise<void> {
    await this.ahead?.catch(() => 0);
    await this.reader.close();
    const lent = this.options.buffers;
    if (lent) {
      lent.buf = this.buf;
      lent.staging = this.staging;
    }
  }
}
