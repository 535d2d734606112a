/**
 * What the CSV readers of the check stage need from a file's head before they scan it:
 * the delimiter (the CSV inspector's own detection) and whether it is gzip; and where the
 * next line starts after an offset (to scan a slice from a record start).
 */
import { type ByteSource, gunzipHead, isGzip, openForInspection } from '../../inspect/shared.js';
import { decodeText, detectDelimiter, detectLineEnding, newlineOf } from './dialect.js';
import { refuseUnreadableCsv } from './head.js';
import { lineStartAfter } from './line-start.js';

export interface CsvHead {
  delimiter: string;
  /** True for a gzip file (it can only be read from the start). */
  gz: boolean;
  /** Bytes of the file (compressed for gzip). */
  size: number;
}

/** Reads the head of a CSV file; throws inspect's InspectError for UTF-16 or binary content. */
export async function readCsvHead(dataPath: string): Promise<CsvHead> {
  const source = await openForInspection(dataPath);
  const size = source.size;
  let head: Uint8Array;
  let gz = false;
  try {
    head = await source.read(0, Math.min(size, 256 * 1024));
    if (isGzip(head)) {
      gz = true;
      head = (await gunzipHead(source, 256 * 1024)).bytes;
    }
  } finally {
    await source.close();
  }
  refuseUnreadableCsv(dataPath, head);
  const headText = decodeText(head).text;
  const ending = detectLineEnding(headText);
  const delimiter = detectDelimiter(headText, newlineOf(ending)).delimiter;
  return { delimiter, gz, size };
}

/**
 * The offset of the first line start after byte `from` (line-start.ts), in a file (a path)
 * or an open byte source (left open: the caller owns it), whose first `size` bytes are
 * read (default: all of it).
 */
export async function nextLineStart(
  file: string | ByteSource,
  from: number,
  size?: number,
): Promise<number> {
  const source = typeof file === 'string' ? await openForInspection(file) : file;
  try {
    return await lineStartAfter((at, n) => source.read(at, n), from, size ?? source.size);
  } finally {
    if (source !== file) await source.close();
  }
}
