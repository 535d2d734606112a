/**
 * A time column that holds text (a Parquet string column, an HDF5 dataset of strings)
 * under an RFC 3339 or date-time format: each value is read as the import reads it, as ms
 * since 1970, so that the time tally judges its order as it judges numbers. A value that
 * is not such a time in the declared format (RFC 3339 needs a zone, a date-time has none)
 * becomes NaN, which the tally counts with the values that are no time, and the first of
 * them is kept as written for the finding (`TimeTally.unparsed`).
 *
 * The text is read on its bytes (iso-time.ts): an Arrow string column's UTF-8 bytes as
 * they are, a column of strings encoded a value at a time.
 */
import type { TimeFormat } from '../model/index.js';
import type { Chunk } from './chunk.js';
import { isoMillis } from './iso-time.js';

/**
 * A text time column's first value that is no time, as written, the format it was read in,
 * and whether it had a zone when it is a date and time all the same.
 */
export interface Unparsed {
  value: string;
  format: TimeFormat;
  zone?: boolean;
}

/**
 * Turns a text piece of the time column into times (ms); a piece of numbers as it is. The
 * first value that is no time is noted in `tally`, unless one was before it.
 */
export type TextTimes = (
  piece: Chunk,
  tally: { firstNonFinite?: number; unparsed?: Unparsed },
) => Chunk;

/** The reader of a time column's text in `format`; undefined for a format of numbers. */
export function textTimesOf(format: TimeFormat | undefined): TextTimes | undefined {
  if (format !== 'TIME_FORMAT_ABSOLUTE_RFC3339' && format !== 'TIME_FORMAT_ABSOLUTE_DATETIME')
    return undefined;
  const zone = format === 'TIME_FORMAT_ABSOLUTE_RFC3339';
  const declared: TimeFormat = format;
  // The times of the last piece: a piece is tallied before the next one is read.
  let times = new Float64Array(0);
  const encoder = new TextEncoder();
  let encoded = new Uint8Array(64);
  return (piece, tally) => {
    if (piece.numbers !== undefined || (piece.utf8 === undefined && piece.text === undefined))
      return piece;
    if (times.length < piece.length) times = new Float64Array(piece.length);
    const has = piece.has;
    for (let i = 0; i < piece.length; i++) {
      if (has !== undefined && !has(i)) continue;
      let bytes: Uint8Array;
      let s: number;
      let e: number;
      if (piece.utf8 !== undefined) {
        bytes = piece.utf8.bytes;
        s = piece.utf8.offsets[i] as number;
        e = piece.utf8.offsets[i + 1] as number;
      } else {
        const text = (piece.text as (i: number) => string)(i);
        if (encoded.length < text.length * 3) encoded = new Uint8Array(text.length * 3);
        bytes = encoded;
        s = 0;
        e = encoder.encodeInto(text, encoded).written;
      }
      // Blanks around a value are left out, as the format's readers (and infer) do.
      while (s < e && (bytes[s] as number) <= 32) s += 1;
      while (e > s && (bytes[e - 1] as number) <= 32) e -= 1;
      const r = isoMillis(bytes, s, e);
      if (r !== undefined && r.zone === zone) times[i] = r.ms;
      else {
        times[i] = Number.NaN;
        // The first value that is no time, kept for the finding (its row: firstNonFinite).
        if (tally.firstNonFinite === undefined && tally.unparsed === undefined) {
          const value = new TextDecoder().decode(bytes.subarray(s, e));
          tally.unparsed = { value, format: declared, ...(r ? { zone: r.zone } : {}) };
        }
      }
    }
    return { length: piece.length, has, numbers: times.subarray(0, piece.length) };
  };
}
