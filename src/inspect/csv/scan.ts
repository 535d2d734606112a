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
import { readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { ByteSource } from '../byte-source.js';

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
 * tested with the classic "has a byte less than n" bit trick. Digits, dots and signs are
 * above every special byte, so most of a numeric line goes by four bytes a step.
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
  // Bytes below `maxSpecial + 1` in each lane (0x01010101 × n) for the word test.
  const below = Math.imul(maxSpecial + 1, 0x01010101);
  let q = p;
  while (q < limit) {
    if (words !== undefined && (q & 3) === 0) {
      while (q + 4 <= limit) {
        const x = words[q >> 2] as number;
        if (((x - below) & ~x & 0x80808080) !== 0) break;
        q += 4;
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
    } else if (c === QUOTE || (c === CR && b[q + 1] !== LF)) {
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
 * record. `onRecord` returns `false` to stop early. Memory is
 * bounded by the chunk size plus the longest record. One long body on purpose: it is the
 * hot loop of `check --full` (bytes judged in place, the scan's state in locals); its speed
 * is what `npm run bench -- check` measures.
 */
export async function scanCsvFile(
  path: string | ByteSource,
  onRecord: (rec: CsvRecord) => boolean | undefined,
  options: ScanOptions = {},
): Promise<ScanResult> {
  const reader =
    typeof path === 'string'
      ? await openReader(path, options.start ?? 0, options.syncReads === true)
      : await sourceReader(path, options.start ?? 0);
  let ahead: Promise<number> | undefined;
  try {
    const size = reader.size;
    const end = Math.min(options.end ?? size, size);
    const chunk = options.chunkSize ?? 1024 * 1024;
    const delim = (options.delimiter ?? ',').charCodeAt(0);
    // A Buffer: its indexOf is a native memchr (a Uint8Array's is a generic loop).
    let buf: Buffer = Buffer.allocUnsafe(chunk * 2);
    let words = wordsOf(buf);
    let filled = 0;
    let filePos = options.start ?? 0;
    let bufFileOffset = filePos;
    let eof = false;
    // At the real end of the file a record may end without a line break; at an `end`
    // before it, a record cut short is not a record: it is dropped.
    const cut = end < size;
    let final = false;
    let row = (options.firstRow ?? 1) - 1;
    let line = options.firstLine ?? 1;
    const maxRows = options.maxRows ?? Number.POSITIVE_INFINITY;
    let cap = MAX_FIELDS_START;
    let starts: Int32Array = new Int32Array(cap);
    let ends: Int32Array = new Int32Array(cap);
    let quoted: Uint8Array = new Uint8Array(cap);
    const rec: CsvRecord = {
      bytes: buf,
      starts,
      ends,
      quoted,
      anyQuoted: false,
      count: 0,
      row: 0,
      line: 0,
      offset: 0,
    };
    let stopped = false;
    let pos = 0;
    const stopAt = options.stopAt ?? Number.POSITIVE_INFINITY;
    /** Bytes above this are never special (delimiter, quote, CR, LF): the fast path skips them. */
    const maxSpecial = Math.max(delim, QUOTE, CR, LF);
    const grow = () => {
      cap *= 2;
      const s2 = new Int32Array(cap);
      s2.set(starts);
      starts = s2;
      const e2 = new Int32Array(cap);
      e2.set(ends);
      ends = e2;
      const q2 = new Uint8Array(cap);
      q2.set(quoted);
      quoted = q2;
      rec.starts = starts;
      rec.ends = ends;
      rec.quoted = quoted;
    };
    let first = filePos === 0;

    // The next chunk is read into `staging` while the current one is parsed: the scan
    // does not wait for the disk (or the page cache) between chunks.
    const staging = Buffer.allocUnsafe(chunk);
    const readAhead = () => {
      const want = Math.min(chunk, end - filePos);
      ahead = want > 0 ? reader.read(staging, 0, want, filePos) : undefined;
    };
    readAhead();
    const fill = async (): Promise<void> => {
      // Keep what is not consumed (from pos) and read more after it.
      if (pos > 0) {
        buf.copyWithin(0, pos, filled);
        filled -= pos;
        bufFileOffset += pos;
        pos = 0;
      }
      if (filled + chunk > buf.length) {
        const bigger = Buffer.allocUnsafe(Math.max(buf.length * 2, filled + chunk));
        bigger.set(buf.subarray(0, filled));
        buf = bigger;
        words = wordsOf(buf);
        rec.bytes = buf;
      }
      if (ahead === undefined) {
        eof = true;
        final = !cut;
        return;
      }
      const bytesRead = await ahead;
      ahead = undefined;
      buf.set(staging.subarray(0, bytesRead), filled);
      if (bytesRead === 0) {
        eof = true;
        final = true;
      }
      filled += bytesRead;
      filePos += bytesRead;
      if (filePos >= end) eof = true;
      final = final || (eof && !cut);
      if (bytesRead > 0) readAhead();
      options.onProgress?.(filePos - (options.start ?? 0));
    };

    await fill();
    if (first && filled >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) pos = 3;
    first = false;

    outer: while (!stopped) {
      // Parse records from pos while a whole record is in the buffer.
      for (;;) {
        if (pos >= filled) {
          if (eof) break outer;
          await fill();
          continue;
        }
        if (bufFileOffset + pos >= stopAt) break outer;
        const recStart = pos;
        let p = pos;
        let n = 0;
        let lines = 0;
        let complete = false;
        // Fast path, the common case: a line with no quote and an LF end, split in one
        // tight pass over its bytes (most bytes are above every special character).
        const lf = splitLine(buf, words, p, filled, delim, maxSpecial, rec);
        if (lf >= 0) {
          starts = rec.starts;
          ends = rec.ends;
          quoted = rec.quoted;
          cap = starts.length;
          n = rec.count;
          row += 1;
          rec.row = row;
          rec.line = line;
          rec.offset = bufFileOffset + recStart;
          line += 1;
          pos = lf + 1;
          if (onRecord(rec) === false || row - (options.firstRow ?? 1) + 1 >= maxRows) {
            stopped = true;
            break outer;
          }
          continue;
        }
        // one record (quoted fields, a CR line end, or a record the buffer holds only part of)
        for (;;) {
          if (n >= cap - 1) grow();
          if (p < filled && buf[p] === QUOTE) {
            // quoted field
            let q = p + 1;
            let closed = -1;
            while (q < filled) {
              const c = buf[q] as number;
              if (c === QUOTE) {
                if (q + 1 < filled && buf[q + 1] === QUOTE) {
                  q += 2;
                  continue;
                }
                if (q + 1 >= filled && !final) break; // need the next byte to decide
                closed = q;
                break;
              }
              if (c === LF) lines += 1;
              else if (c === CR && buf[q + 1] !== LF) lines += 1;
              q += 1;
            }
            if (closed === -1) {
              if (!final) break; // incomplete: read more
              // unterminated quote at end of file: take the rest as the field
              starts[n] = p + 1;
              ends[n] = filled;
              quoted[n] = 1;
              n += 1;
              p = filled;
              complete = true;
              break;
            }
            starts[n] = p + 1;
            ends[n] = closed;
            quoted[n] = 1;
            n += 1;
            p = closed + 1;
            // skip anything up to the delimiter or line end (lenient, like most readers)
            while (p < filled) {
              const c = buf[p] as number;
              if (c === delim || c === LF || c === CR) break;
              p += 1;
            }
          } else {
            let q = p;
            while (q < filled) {
              const c = buf[q] as number;
              if (c === delim || c === LF || c === CR) break;
              q += 1;
            }
            starts[n] = p;
            ends[n] = q;
            quoted[n] = 0;
            n += 1;
            p = q;
          }
          if (p >= filled) {
            if (!final) break; // incomplete
            complete = true;
            break;
          }
          const c = buf[p] as number;
          if (c === delim) {
            p += 1;
            if (p >= filled && final) {
              // trailing delimiter at EOF: one more empty field
              starts[n] = p;
              ends[n] = p;
              quoted[n] = 0;
              n += 1;
              complete = true;
              break;
            }
            continue;
          }
          if (c === CR) {
            if (p + 1 >= filled && !final) break; // is it CRLF? need the next byte
            p += buf[p + 1] === LF ? 2 : 1;
          } else p += 1; // LF
          lines += 1;
          complete = true;
          break;
        }
        if (!complete) {
          pos = recStart;
          if (eof) break outer;
          await fill();
          continue;
        }
        row += 1;
        rec.count = n;
        rec.anyQuoted = true;
        rec.row = row;
        rec.line = line;
        rec.offset = bufFileOffset + recStart;
        line += lines;
        pos = p;
        if (onRecord(rec) === false || row - (options.firstRow ?? 1) + 1 >= maxRows) {
          stopped = true;
          break outer;
        }
        // Records that start at or after `end` are not ours.
        if (bufFileOffset + pos >= end && eof && pos >= filled) break outer;
      }
    }
    return {
      rows: row - (options.firstRow ?? 1) + 1,
      lines: line,
      endOffset: bufFileOffset + pos,
      complete: !stopped,
      atEnd: !stopped && final && pos >= filled,
    };
  } finally {
    // A read still under way finishes before the file is closed.
    await ahead?.catch(() => 0);
    await reader.close();
  }
}

interface Reader {
  /** Bytes addressable: the file's size, or unbounded for gzip (its size is not known). */
  size: number;
  /** Reads into `buf` at `at`, sequentially from `position`; 0 at the end. */
  read(buf: Uint8Array, at: number, length: number, position: number): Promise<number>;
  close(): Promise<void>;
}

/**
 * A sequential reader over a file: positioned reads for plain files; streaming gunzip for
 * gzip files (recognised by their magic bytes), which can only be read from the start.
 */
async function openReader(path: string, start: number, sync: boolean): Promise<Reader> {
  const handle = await open(path, 'r');
  const size = (await handle.stat()).size;
  const magic = new Uint8Array(2);
  await handle.read(magic, 0, 2, 0);
  if (magic[0] !== 0x1f || magic[1] !== 0x8b) {
    return {
      size,
      read: sync
        ? async (buf, at, length, position) => readSync(handle.fd, buf, at, length, position)
        : async (buf, at, length, position) =>
            (await handle.read(buf, at, length, position)).bytesRead,
      close: () => handle.close(),
    };
  }
  await handle.close();
  if (start !== 0) return { size: 0, read: async () => 0, close: async () => {} };
  // Loaded here: a scan of a plain file (as in a worker thread) needs none of the inspectors.
  const { openFileSource } = await import('../byte-source.js');
  const source = await openFileSource(path);
  return gunzipReader(source, () => source.close());
}

/** A reader over an open byte source (not closed with the reader: the caller owns it). */
async function sourceReader(source: ByteSource, start: number): Promise<Reader> {
  const magic = await source.read(0, Math.min(2, source.size));
  if (magic[0] !== 0x1f || magic[1] !== 0x8b) {
    return {
      size: source.size,
      async read(buf, at, length, position) {
        const bytes = await source.read(position, length);
        buf.set(bytes, at);
        return bytes.byteLength;
      },
      close: async () => {},
    };
  }
  if (start !== 0) return { size: 0, read: async () => 0, close: async () => {} };
  return gunzipReader(source, async () => {});
}

/** A sequential reader over a gzip source's content, from the start. */
async function gunzipReader(source: ByteSource, done: () => Promise<void>): Promise<Reader> {
  const { gunzipChunks } = await import('../gzip-source.js');
  const chunks = gunzipChunks(source, 1024 * 1024);
  let pending: Uint8Array | undefined;
  return {
    size: Number.MAX_SAFE_INTEGER,
    async read(buf, at, length) {
      if (!pending || pending.byteLength === 0) {
        const next = await chunks.next();
        if (next.done) return 0;
        pending = next.value as Uint8Array;
      }
      const n = Math.min(length, pending.byteLength);
      buf.set(pending.subarray(0, n), at);
      pending = pending.subarray(n);
      return n;
    },
    async close() {
      await chunks.return(undefined);
      await done();
    },
  };
}
