import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { emptyFileIssue, fileErrorIssue, fileProblem } from '../files/index.js';
import { InspectError } from './profile.js';

/**
 * Where a source's bytes live on disk, so a reader in another thread can read them itself
 * (the HDF5 library reads in its worker). Paths are absolute: the reader may not share our
 * idea of the working folder.
 */
export type Place =
  /** Bytes [start, start + size) of a file. */
  | { kind: 'file'; path: string; start: number }
  /** Raw deflate data at `start` of a file, `compressedSize` bytes inflating to `size` bytes. */
  | { kind: 'deflate'; path: string; start: number; compressedSize: number }
  /** Bytes [skip, skip + size) of a gzip file's inflated stream. */
  | { kind: 'gzip'; path: string; skip: number };

/**
 * Positioned reads over a file: every inspector reads through one of these, so "reads
 * only the footer" is a number a test can assert (`bytesRead`).
 */
export interface ByteSource {
  /** A name to report in messages (the file's path). */
  readonly name: string;
  /** Size in bytes of what `read` addresses. */
  readonly size: number;
  /** Reads up to `length` bytes at `offset`; shorter only at the end of the source. */
  read(offset: number, length: number): Promise<Uint8Array>;
  /** Bytes handed out by `read` so far. */
  readonly bytesRead: number;
  /** Number of `read` calls so far. */
  readonly reads: number;
  /** Where the bytes live on disk; undefined for bytes only in memory. */
  readonly place?: Place;
  /**
   * Only for a source whose place is compressed (a deflated zip member, a tar.gz member): its
   * bytes inflated once into a private temp file (archive/spill.ts), for a reader in another
   * thread that reads at random (the HDF5 library); the file's path. The file is removed
   * when the source closes. Called again, the same file.
   */
  spill?(): Promise<string>;
  close(): Promise<void>;
}

/** True for a place whose bytes are inflated to be read (no random access to them). */
export function isCompressedPlace(place: Place | undefined): boolean {
  return place?.kind === 'deflate' || place?.kind === 'gzip';
}

/**
 * The file on disk a source reads whole (a file, a folder's member; not an archive's member),
 * else undefined: readers that need a path (worker threads, a TDMS file's index beside it)
 * open that instead.
 */
export function wholeFileOf(source: ByteSource): string | undefined {
  const place = source.place;
  return place?.kind === 'file' && place.start === 0 ? place.path : undefined;
}

/** What a source is made of; `sourceOf` adds the rest (bounds, counts). */
export interface SourceParts {
  name: string;
  size: number;
  place?: Place | undefined;
  /**
   * Reads `n` bytes (at least 1) at `start`, both inside the source; shorter only at its end.
   * `reads`: the reads made before this one (a reader whose buffers take turns counts on it).
   */
  readAt(start: number, n: number, reads: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

/**
 * A ByteSource over `parts`: a read is cut to the source's bounds (nothing is asked of
 * `readAt` for a read of nothing), and each read is counted (`bytesRead`, `reads`). Every
 * source is made by this one, whatever its bytes are read from.
 */
export function sourceOf(parts: SourceParts): ByteSource {
  const { size } = parts;
  let bytesRead = 0;
  let reads = 0;
  return {
    name: parts.name,
    size,
    ...(parts.place ? { place: parts.place } : {}),
    get bytesRead() {
      return bytesRead;
    },
    get reads() {
      return reads;
    },
    async read(offset, length) {
      const start = Math.max(0, Math.min(offset, size));
      const n = Math.max(0, Math.min(length, size - start));
      const out = n === 0 ? new Uint8Array(0) : await parts.readAt(start, n, reads);
      bytesRead += out.byteLength;
      reads += 1;
      return out;
    },
    close: () => parts.close(),
  };
}

/**
 * Opens a file for positioned reads. Nothing is read until `read` is called. `into` gives
 * the buffer read number `reads` (from 0) of `n` bytes goes into (default: a new one each;
 * a reader that holds one window at a time may pass buffers that take turns).
 */
export async function openFileSource(
  path: string,
  into: (n: number, reads: number) => Uint8Array = (n) => new Uint8Array(n),
): Promise<ByteSource> {
  const handle = await open(path, 'r');
  const { size } = await handle.stat();
  let closed = false;
  return sourceOf({
    name: path,
    size,
    place: { kind: 'file', path: resolve(path), start: 0 },
    async readAt(start, n, reads) {
      if (closed) throw new Error(`${basename(path)}: read after close`);
      const buf = into(n, reads);
      let got = 0;
      while (got < n) {
        const { bytesRead } = await handle.read(buf, got, n - got, start + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      return got === n ? buf : buf.subarray(0, got);
    },
    async close() {
      if (closed) return;
      closed = true;
      await handle.close();
    },
  });
}

/**
 * Opens a file for positioned reads with blocking calls, as `openFileSource` does with
 * awaited ones (`into` as there): for a thread with nothing else to do while a read waits
 * (a worker reading its part), and for small files, where each awaited call's trip through
 * the thread pool costs more than the read. For a regular file only: a FIFO would block
 * its open.
 */
export function openFileSourceSync(
  path: string,
  into: (n: number, reads: number) => Uint8Array = (n) => new Uint8Array(n),
): ByteSource {
  const fd = openSync(path, 'r');
  let size: number;
  try {
    size = fstatSync(fd).size;
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  let closed = false;
  return sourceOf({
    name: path,
    size,
    place: { kind: 'file', path: resolve(path), start: 0 },
    async readAt(start, n, reads) {
      if (closed) throw new Error(`${basename(path)}: read after close`);
      const buf = into(n, reads);
      let got = 0;
      while (got < n) {
        const r = readSync(fd, buf, got, n - got, start + got);
        if (r === 0) break;
        got += r;
      }
      return got === n ? buf : buf.subarray(0, got);
    },
    async close() {
      if (closed) return;
      closed = true;
      closeSync(fd);
    },
  });
}

/** Files of at most this many bytes are read with blocking calls (`openSmallFileSource`). */
export const SMALL_FILE_BYTES = 1024 * 1024;

/**
 * Opens a file of a folder for positioned reads: with blocking calls (`openFileSourceSync`)
 * when it holds at most SMALL_FILE_BYTES, since each awaited call is a trip through the
 * thread pool (about 0.1 ms here), five or more a file, and for a folder of ten thousand
 * small files those trips were a third of a check; a larger one by `openFileSource`, whose
 * reads overlap the work on the bytes before them.
 */
export async function openSmallFileSource(path: string): Promise<ByteSource> {
  const source = openFileSourceSync(path);
  if (source.size <= SMALL_FILE_BYTES) return source;
  await source.close();
  return openFileSource(path);
}

/** A source over bytes in memory (tests, uploads already buffered, DetectConfig payloads). */
export function memorySource(bytes: Uint8Array, name = '<memory>'): ByteSource {
  return sourceOf({
    name,
    size: bytes.byteLength,
    readAt: async (start, n) => bytes.subarray(start, start + n),
    close: async () => {},
  });
}

/**
 * A source whose small reads (under `small` bytes) are served from a window read at the
 * first of them, for a reader that goes forward through a file and reads most of it (a
 * TDMS full check: a segment's lead-in, its metadata and its raw data, segment after
 * segment). A file of 100,000 segments of 9 KiB took two blocking reads a segment, and the
 * reads were half of the check's time. The window doubles (to `most` bytes) while windows
 * serve more than one read, and halves (to `small`) while they serve one: a file of large
 * segments, whose lead-ins are the only small reads, reads `small` bytes more a segment.
 * Larger reads go to the source as they are. A window's bytes are the source's: valid as
 * long as the source says its reads are (a window is one read of it).
 */
export function readAheadSource(
  inner: ByteSource,
  small = 64 * 1024,
  most = 1024 * 1024,
): ByteSource {
  let start = 0;
  let window: Uint8Array = new Uint8Array(0);
  let size = small;
  let served = 0;
  return sourceOf({
    name: inner.name,
    size: inner.size,
    ...(inner.place ? { place: inner.place } : {}),
    async readAt(offset, n) {
      if (n >= small) return inner.read(offset, n);
      const from = offset - start;
      if (from >= 0 && from + n <= window.byteLength) {
        served += 1;
        return window.subarray(from, from + n);
      }
      size = served > 1 ? Math.min(most, size * 2) : Math.max(small, size / 2);
      served = 1;
      start = offset;
      window = await inner.read(offset, Math.max(n, size));
      return window.subarray(0, n);
    },
    close: () => inner.close(),
  });
}

/**
 * Wraps a source and counts what goes through it, separately from the inner source's own
 * counter (a test wraps the source an inspector is given); `log` lists each read's offset
 * and length.
 */
export function countingSource(inner: ByteSource): ByteSource & { log: Array<[number, number]> } {
  const log: Array<[number, number]> = [];
  const source = sourceOf({
    name: inner.name,
    size: inner.size,
    place: inner.place,
    async readAt(start, n) {
      const out = await inner.read(start, n);
      log.push([start, out.byteLength]);
      return out;
    },
    close: () => inner.close(),
  });
  return Object.assign(source, { log });
}

/** Opens a file, turning the OS's errors into an InspectError with a clear one-line message. */
export async function openForInspection(path: string): Promise<ByteSource> {
  const problem = await fileProblem(path);
  if (problem) throw new InspectError({ ...problem, source: { file: path } });
  try {
    return await openFileSource(path);
  } catch (err) {
    throw new InspectError(
      { ...fileErrorIssue(err, path), source: { file: path } },
      { cause: err },
    );
  }
}

/**
 * Refuses an empty data file, whatever its format, with the one code every command gives
 * for it (`file_empty`): 0 bytes are no format at all.
 */
export function refuseEmptyFile(source: ByteSource, path = source.name): void {
  if (source.size === 0) throw emptyFileError(path);
}

/**
 * Runs `use` on `data`: a source as given (its caller closes it), or a file's path, opened
 * for inspection for `use` and closed after it (readers that take either).
 */
export async function throughSource<T>(
  data: string | ByteSource,
  use: (source: ByteSource) => Promise<T>,
): Promise<T> {
  if (typeof data !== 'string') return use(data);
  const source = await openForInspection(data);
  try {
    return await use(source);
  } finally {
    await source.close();
  }
}

/** The error for an empty data file (`file_empty`), whatever its format. */
export function emptyFileError(path: string): InspectError {
  return new InspectError({ ...emptyFileIssue(path), source: { file: path } });
}
