/**
 * The sequential readers the CSV scanner (scan.ts) reads through: a file's positioned reads
 * (blocking ones in a worker thread), an open byte source's, or a gzip file's inflated
 * content from its start.
 */
import { readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { ByteSource } from '../../inspect/shared.js';

export interface Reader {
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
export async function openReader(path: string, start: number, sync: boolean): Promise<Reader> {
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
  const { openFileSource } = await import('../../inspect/shared.js');
  const source = await openFileSource(path);
  return gunzipReader(source, () => source.close());
}

/** A reader over an open byte source (not closed with the reader: the caller owns it). */
export async function sourceReader(source: ByteSource, start: number): Promise<Reader> {
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
  const { gunzipChunks } = await import('../../inspect/shared.js');
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
