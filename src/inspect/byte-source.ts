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
  let bytesRead = 0;
  let reads = 0;
  let closed = false;
  return {
    name: path,
    size,
    place: { kind: 'file', path: resolve(path), start: 0 },
    get bytesRead() {
      return bytesRead;
    },
    get reads() {
      return reads;
    },
    async read(offset, length) {
      if (closed) throw new Error(`${basename(path)}: read after close`);
      const start = Math.max(0, Math.min(offset, size));
      const n = Math.max(0, Math.min(length, size - start));
      const buf = into(n, reads);
      let got = 0;
      while (got < n) {
        const { bytesRead: r } = await handle.read(buf, got, n - got, start + got);
        if (r === 0) break;
        got += r;
      }
      bytesRead += got;
      reads += 1;
      return got === n ? buf : buf.subarray(0, got);
    },
    async close() {
      if (closed) return;
      closed = true;
      await handle.close();
    },
  };
}

/** A source over bytes in memory (tests, uploads already buffered, DetectConfig payloads). */
export function memorySource(bytes: Uint8Array, name = '<memory>'): ByteSource {
  let bytesRead = 0;
  let reads = 0;
  return {
    name,
    size: bytes.byteLength,
    get bytesRead() {
      return bytesRead;
    },
    get reads() {
      return reads;
    },
    async read(offset, length) {
      const start = Math.max(0, Math.min(offset, bytes.byteLength));
      const out = bytes.subarray(start, Math.min(bytes.byteLength, start + Math.max(0, length)));
      bytesRead += out.byteLength;
      reads += 1;
      return out;
    },
    async close() {},
  };
}

/**
 * Wraps a source and counts what goes through it, separately from the inner source's own
 * counter (a test wraps the source an inspector is given).
 */
export function countingSource(inner: ByteSource): ByteSource & { log: Array<[number, number]> } {
  let bytesRead = 0;
  let reads = 0;
  const log: Array<[number, number]> = [];
  return {
    name: inner.name,
    size: inner.size,
    ...(inner.place ? { place: inner.place } : {}),
    log,
    get bytesRead() {
      return bytesRead;
    },
    get reads() {
      return reads;
    },
    async read(offset, length) {
      const out = await inner.read(offset, length);
      bytesRead += out.byteLength;
      reads += 1;
      log.push([offset, out.byteLength]);
      return out;
    },
    close: () => inner.close(),
  };
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
