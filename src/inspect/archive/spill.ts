/**
 * Members a reader needs as files (inference of an HDF5 member; the HDF5 check writes its
 * member itself, see check's `hdf5FileOf`): the walk writes each such member to a private
 * folder as it reads it, so the archive is read once; the member is then read from that file.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { type ByteSource, openFileSource } from '../byte-source.js';
import { renamedSource } from './member-source.js';

/** Where the walk writes the member at `path` (inside the archive), or undefined: read in place. */
export type Spill = (path: string) => string | undefined;

const CHUNK = 1024 * 1024;

/** Writes all of `source` to `file` in order (a stored zip or tar member: its range, read once). */
export async function writeSource(source: ByteSource, file: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const out = await open(file, 'w');
  try {
    for (let at = 0; at < source.size; ) {
      const bytes = await source.read(at, Math.min(CHUNK, source.size - at));
      if (bytes.byteLength === 0)
        throw new Error(`the member ends at byte ${at} of ${source.size}`);
      await out.write(bytes);
      at += bytes.byteLength;
    }
  } finally {
    await out.close();
  }
}

/** Writes a member's stream (inflated, or passing in a tar.gz) to `file`. */
export async function writeStream(stream: AsyncIterable<unknown>, file: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await pipeline(stream, createWriteStream(file));
}

/** The member written to `file`, read from there under its path inside the archive. */
export async function spilledSource(file: string, path: string): Promise<ByteSource> {
  return renamedSource(await openFileSource(file), path);
}
