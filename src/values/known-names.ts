/**
 * ENUM names looked up by their UTF-8 bytes, so that a text column's known values (nearly
 * every row) make no string: a chunk of Arrow text is its bytes and each row's start.
 *
 * Each name is kept as its length and its first four bytes as one 32-bit word, so a row is
 * told apart from a name (or matched, when the name is four bytes or fewer) by two integer
 * compares; only longer names compare their further bytes one at a time. Measured on 20 M
 * rows of three names (a script over Arrow-like chunks of 65,536 rows): 104 to 110 ms,
 * against 153 to 161 ms comparing byte by byte.
 * In the check of bench/check-parquet (20 M rows, its ENUM column of three names), the CPU
 * profile's self time of nextUnknownUtf8: 144 and 159 ms with the first word read a byte at
 * a time, 129 and 107 ms read with one `getInt32`.
 */

/** The known names: their bytes, lengths and first words (see headWord). */
export interface KnownNames {
  bytes: readonly Uint8Array[];
  lengths: Int32Array;
  heads: Int32Array;
}

export function knownNamesOf(names: Iterable<string>): KnownNames {
  const encoder = new TextEncoder();
  const bytes = [...names].map((n) => encoder.encode(n));
  return {
    bytes,
    lengths: Int32Array.from(bytes, (b) => b.length),
    heads: Int32Array.from(bytes, (b) => headWord(b, 0, b.length)),
  };
}

/** The first four bytes from `start` (fewer when `length` is less) as one little-endian word. */
function headWord(b: Uint8Array, start: number, length: number): number {
  if (length >= 4) {
    return (
      (b[start] as number) |
      ((b[start + 1] as number) << 8) |
      ((b[start + 2] as number) << 16) |
      ((b[start + 3] as number) << 24)
    );
  }
  let word = 0;
  for (let k = 0; k < length; k++) word |= (b[start + k] as number) << (8 * k);
  return word;
}

/**
 * The first row at or after `from` whose UTF-8 bytes are none of `known`, or -1. `view`
 * is a DataView over `bytes` (a caller looking at one chunk again and again makes it once):
 * a row of four bytes or more has its first word read with one `getInt32`. Measured on 20 M
 * rows of three names in chunks of 65,536 (as bench/check-parquet's ENUM column), four
 * alternated runs: 157 to 167 ms, against 210 to 246 ms reading the four bytes one by one.
 */
export function nextUnknownUtf8(
  bytes: Uint8Array,
  offsets: Int32Array,
  from: number,
  length: number,
  known: KnownNames,
  view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength),
): number {
  const { lengths, heads } = known;
  const count = lengths.length;
  let start = offsets[from] as number;
  rows: for (let i = from; i < length; i++) {
    const end = offsets[i + 1] as number;
    const len = end - start;
    const head = len >= 4 ? view.getInt32(start, true) : headWord(bytes, start, len);
    for (let n = 0; n < count; n++) {
      if (lengths[n] !== len || heads[n] !== head) continue;
      if (len <= 4 || sameTail(bytes, start, known.bytes[n] as Uint8Array)) {
        start = end;
        continue rows;
      }
    }
    return i;
  }
  return -1;
}

/** Whether the bytes from `start` past the first four are the name's (its length matched). */
function sameTail(bytes: Uint8Array, start: number, name: Uint8Array): boolean {
  for (let k = 4; k < name.length; k++) if (bytes[start + k] !== name[k]) return false;
  return true;
}
