/**
 * Byte sources over the members of a folder or an archive: every inspector reads a member
 * through the same ByteSource interface it reads a file through, named by the member's path.
 */
import type { Readable } from 'node:stream';
import { issue } from '../../model/plain.js';
import type { ByteSource, Place } from '../byte-source.js';
import { InspectError } from '../profile.js';

/** Counts reads into a source of `size` bytes: the bookkeeping every member source shares. */
function counted(
  name: string,
  size: number,
  readAt: (offset: number, length: number) => Promise<Uint8Array>,
  close: () => Promise<void> = async () => {},
  place?: Place,
): ByteSource {
  let bytesRead = 0;
  let reads = 0;
  return {
    name,
    size,
    ...(place ? { place } : {}),
    get bytesRead() {
      return bytesRead;
    },
    get reads() {
      return reads;
    },
    async read(offset, length) {
      const start = Math.max(0, Math.min(offset, size));
      const n = Math.max(0, Math.min(length, size - start));
      const out = n === 0 ? new Uint8Array(0) : await readAt(start, n);
      bytesRead += out.byteLength;
      reads += 1;
      return out;
    },
    close,
  };
}

/** How much of a member's start is kept once read from a file (format detection reads it first). */
const KEPT_FILE_HEAD = 64 * 1024;

/**
 * Reads through `readAt`, keeping the member's start once read (up to `keep` bytes): format
 * detection reads a member's head, then its inspector reads it again, so the second read (and
 * any read inside the kept head, e.g. a small file's tail) is answered from memory and each
 * byte of the head is read from the file or archive once.
 */
function keepingHead(
  readAt: (offset: number, length: number) => Promise<Uint8Array>,
  keep: number,
): (offset: number, length: number) => Promise<Uint8Array> {
  let head: Uint8Array = new Uint8Array(0);
  return async (offset, length) => {
    const end = offset + length;
    if (end <= head.byteLength) return head.subarray(offset, end);
    if (offset > head.byteLength) return readAt(offset, length);
    const rest = await readAt(head.byteLength, end - head.byteLength);
    let bytes = rest;
    if (head.byteLength > 0) {
      bytes = new Uint8Array(head.byteLength + rest.byteLength);
      bytes.set(head, 0);
      bytes.set(rest, head.byteLength);
    }
    if (bytes.byteLength <= keep) head = bytes;
    return bytes.subarray(offset);
  };
}

/** The same source under another name (a member's path inside its folder). */
export function renamedSource(inner: ByteSource, name: string): ByteSource {
  return counted(
    name,
    inner.size,
    keepingHead((o, n) => inner.read(o, n), KEPT_FILE_HEAD),
    () => inner.close(),
    inner.place,
  );
}

/** `size` bytes of `outer` from `start` (a stored zip member, read in place). */
export function sliceSource(outer: ByteSource, start: number, size: number, name: string) {
  return counted(
    name,
    size,
    keepingHead((o, n) => outer.read(start + o, n), KEPT_FILE_HEAD),
    undefined,
    shifted(outer.place, start),
  );
}

/** The place of the bytes from `start` of a source at `place` (none inside deflate data). */
function shifted(place: Place | undefined, start: number): Place | undefined {
  if (place?.kind === 'file') return { ...place, start: place.start + start };
  if (place?.kind === 'gzip') return { ...place, skip: place.skip + start };
  return undefined;
}

/** Bytes `offset .. offset+length` of a stream, which is destroyed once they have passed. */
async function windowOf(stream: Readable, offset: number, length: number): Promise<Uint8Array> {
  const out = new Uint8Array(length);
  let at = 0;
  let got = 0;
  try {
    for await (const chunk of stream) {
      const c = chunk as Uint8Array;
      const from = Math.max(0, offset - at);
      if (from < c.byteLength) {
        const part = c.subarray(from, Math.min(c.byteLength, from + length - got));
        out.set(part, got);
        got += part.byteLength;
      }
      at += c.byteLength;
      if (got >= length) break;
    }
  } finally {
    stream.destroy();
  }
  return got === length ? out : out.subarray(0, got);
}

/** How much of a compressed member's start is kept once read (the inspectors' heads). */
const KEPT_HEAD = 8 * 1024 * 1024;

/**
 * A compressed member (a deflated zip member): reads inflate it from its start again, as far
 * as the bytes asked for; its first bytes are kept, since every inspector reads them first.
 */
export function streamedSource(
  name: string,
  size: number,
  open: () => Promise<Readable>,
  fail: (err: unknown) => Error,
  place?: Place,
): ByteSource {
  return counted(
    name,
    size,
    keepingHead(async (offset, length) => {
      try {
        return await windowOf(await open(), offset, length);
      } catch (err) {
        throw fail(err);
      }
    }, KEPT_HEAD),
    undefined,
    place,
  );
}

/** One stretch of a member kept in memory. */
export interface Kept {
  offset: number;
  bytes: Uint8Array;
}

/**
 * A member of a streamed archive (tar, tar.gz), known by what was kept of it as it passed:
 * all of it when small, else its head and its tail. A read elsewhere cannot be answered.
 */
export function keptSource(
  name: string,
  size: number,
  kept: readonly Kept[],
  place?: Place,
): ByteSource {
  const readKept = async (offset: number, length: number) => {
    for (const k of kept) {
      if (offset >= k.offset && offset + length <= k.offset + k.bytes.byteLength)
        return k.bytes.subarray(offset - k.offset, offset - k.offset + length);
    }
    throw new InspectError(
      issue(
        'archive_member_unseekable',
        '',
        `${name}: bytes ${offset}..${offset + length} of this ${size}-byte member were not kept while the archive streamed past`,
        {
          hint: 'Infer the folder the archive was made from, or make a zip of it (zip members are read in place).',
          source: { file: name },
        },
      ),
    );
  };
  return counted(name, size, readKept, undefined, place);
}
