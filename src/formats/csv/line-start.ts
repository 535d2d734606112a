/**
 * Where the next line starts, for the readers that start a scan mid-file: the check's slice
 * from a file's end (check-head.ts) and a range of a parallel full check (check-range.ts).
 * One search over any reader, so that the worker threads, which read the file by its path,
 * do not load the inspect stage's byte sources to use it.
 */

/** Reads up to `n` bytes at `at` (fewer at the end of the data, none past it). */
export type ReadAt = (at: number, n: number) => Promise<Uint8Array>;

/** The size of the reads of the search: a line ends within the first in nearly every file. */
const READ = 64 * 1024;

/**
 * The first line start after byte `from` (`size` when no line ends at or after it): the
 * offset after the first LF, CRLF or lone CR at or after `from`. A CR ends a line unless an
 * LF follows it, which may be the next read's first byte.
 */
export async function lineStartAfter(read: ReadAt, from: number, size: number): Promise<number> {
  let at = from;
  while (at < size) {
    const bytes = await read(at, Math.min(READ, size - at));
    if (bytes.byteLength === 0) return size;
    for (let i = 0; i < bytes.byteLength; i++) {
      const c = bytes[i] as number;
      if (c === 10) return at + i + 1;
      if (c !== 13) continue;
      const next = i + 1 < bytes.byteLength ? bytes[i + 1] : (await read(at + i + 1, 1))[0];
      return at + i + (next === 10 ? 2 : 1);
    }
    at += bytes.byteLength;
  }
  return size;
}
