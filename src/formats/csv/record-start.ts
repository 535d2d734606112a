/**
 * Where the first record after a split point starts, for a range of a parallel `--full`
 * check (check-range.ts). It is a guess, which the join of the ranges checks
 * (check-parallel.ts): a range that guessed wrong is scanned again in the calling thread.
 *
 * The line start after the split is a record start unless the split fell inside a quoted
 * field that holds line breaks. In a file where many records hold such fields (free text),
 * half the ranges would guess wrong and be scanned twice, one after the other. So each
 * line start within a window after the split is tried in turn, as speculative CSV parsing
 * does (Ge et al., "Speculative Distributed CSV Data Parsing for Big Data Analytics",
 * SIGMOD 2019): the first one from which the records that follow read cleanly (the same
 * number of fields each, no quote inside an unquoted field, nothing after a closing quote
 * but a delimiter or a line end) is taken. A line start inside a quoted field reads the
 * rest of that field as unquoted text that ends in a stray quote, and is passed over.
 * Without a quote in the window, the first line start is taken at once, as before.
 * Written here because the scanner (scan.ts) is lenient by design and reports no stray
 * quote, which is the evidence this needs.
 */
import { open } from 'node:fs/promises';

const WINDOW = 256 * 1024;
/** Line starts tried, at most. */
const CANDIDATES = 64;
/** Records read cleanly from a line start to take it. */
const RECORDS = 16;
const QUOTE = 34;
const LF = 10;
const CR = 13;

/**
 * The guessed record start at or after `from` (a line start), or undefined when no line
 * ends in the window after it (the caller then looks further).
 */
export async function guessRecordStart(
  path: string,
  from: number,
  delimiter: string,
): Promise<number | undefined> {
  const handle = await open(path, 'r');
  try {
    const size = (await handle.stat()).size;
    const at = Math.max(0, from - 1);
    const buf = Buffer.allocUnsafe(Math.max(0, Math.min(WINDOW, size - at)));
    const { bytesRead } = await handle.read(buf, 0, buf.length, at);
    const window = buf.subarray(0, bytesRead);
    const final = at + bytesRead >= size;
    const starts = lineStarts(window, final);
    const first = starts[0];
    if (first === undefined) return final ? size : undefined;
    if (window.indexOf(QUOTE) === -1) return at + first;
    const delim = delimiter.charCodeAt(0);
    const clean = starts.find((s) => readsCleanly(window, s, final, delim));
    return at + (clean ?? first);
  } finally {
    await handle.close();
  }
}

/** Offsets just past each line end in `buf` (LF, CRLF or a lone CR), the first CANDIDATES. */
export function lineStarts(buf: Uint8Array, final: boolean): number[] {
  const out: number[] = [];
  for (let i = 0; i < buf.length && out.length < CANDIDATES; i++) {
    const c = buf[i];
    if (c === LF) out.push(i + 1);
    else if (c === CR) {
      // A CR ends a line unless an LF follows (then the LF does); at the window's end
      // that is not known, unless the file ends there too.
      if (i + 1 < buf.length) {
        if (buf[i + 1] !== LF) out.push(i + 1);
      } else if (final) out.push(i + 1);
    }
  }
  return out;
}

/**
 * Whether the records from `p` read cleanly: up to RECORDS of them, each whole in `buf`,
 * with the same number of fields (blank lines aside), and at least one (or the file's end).
 */
export function readsCleanly(buf: Uint8Array, p: number, final: boolean, delim: number): boolean {
  let fields = -1;
  let records = 0;
  while (records < RECORDS && p < buf.length) {
    const r = readRecord(buf, p, final, delim);
    if (r === DIRTY) return false;
    if (r === PARTIAL) break;
    if (!(r.count === 1 && r.next - p <= 2)) {
      if (fields >= 0 && r.count !== fields) return false;
      fields = r.count;
      records += 1;
    }
    p = r.next;
  }
  return records > 0 || (final && p >= buf.length);
}

const DIRTY = 0;
const PARTIAL = 1;

/** One record from `p`: its field count and where the next starts; DIRTY or PARTIAL. */
function readRecord(
  buf: Uint8Array,
  p: number,
  final: boolean,
  delim: number,
): { count: number; next: number } | typeof DIRTY | typeof PARTIAL {
  let count = 0;
  for (;;) {
    count += 1;
    if (buf[p] === QUOTE) {
      const closed = closingQuote(buf, p + 1);
      if (closed < 0) return final ? { count, next: buf.length } : PARTIAL;
      p = closed + 1;
      const c = buf[p];
      if (p < buf.length && c !== delim && c !== LF && c !== CR) return DIRTY;
    } else {
      while (p < buf.length) {
        const c = buf[p];
        if (c === delim || c === LF || c === CR) break;
        if (c === QUOTE) return DIRTY;
        p += 1;
      }
    }
    if (p >= buf.length) return final ? { count, next: p } : PARTIAL;
    if (buf[p] === delim) {
      p += 1;
      continue;
    }
    if (buf[p] === CR && buf[p + 1] === LF) return { count, next: p + 2 };
    if (buf[p] === CR && p + 1 >= buf.length && !final) return PARTIAL;
    return { count, next: p + 1 };
  }
}

/** The offset of the quote closing a quoted field whose content starts at `q`; -1 if not in `buf`. */
function closingQuote(buf: Uint8Array, q: number): number {
  for (;;) {
    const at = buf.indexOf(QUOTE, q);
    if (at < 0 || at + 1 >= buf.length) return at < 0 ? -1 : at;
    if (buf[at + 1] !== QUOTE) return at;
    q = at + 2;
  }
}
