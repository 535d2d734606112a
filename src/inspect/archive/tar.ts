import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import { type ByteSource, openFileSource, type Place } from '../byte-source.js';
import { type Kept, keptSource, renamedSource, sliceSource } from './member-source.js';
import { createPool } from './pool.js';
import { ArchiveListing } from './rules.js';
import { spill } from './spill.js';
import { TarError, tarMembers } from './tar-index.js';
import { archiveError, type Container } from './types.js';

const MiB = 1024 * 1024;
/**
 * Members of a tar.gz up to this size are kept whole in memory while the archive streams
 * past; larger ones are inflated once into a private temp file.
 */
export const TAR_KEEP_WHOLE = 32 * MiB;

/** A member small enough to keep, read whole as the archive streams past. */
async function keepWhole(entry: AsyncIterable<unknown>, size: number): Promise<Kept[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of entry) chunks.push(chunk as Buffer);
  return [{ offset: 0, bytes: Buffer.concat(chunks, size) }];
}

/** A kept member is read from memory only: nothing streams the archive again. */
async function notStreamedAgain(): Promise<AsyncIterable<Uint8Array>> {
  throw new Error('a member kept whole is read from memory');
}

/**
 * What the walk hands out for one tar.gz member as the stream passes it, read once: a small
 * one kept whole in memory (its place lets the HDF5 worker inflate it from the archive), a
 * larger one inflated once into a private temp file (spill) that its visit reads in place,
 * removed when the visit ends.
 */
async function passMember(
  entry: AsyncIterable<unknown>,
  member: { path: string; size: number },
  archive: { path: string; name: string },
  place: Place | undefined,
): Promise<{ open: () => Promise<ByteSource>; done: () => Promise<void> }> {
  if (member.size > TAR_KEEP_WHOLE) {
    const spilled = await spill(entry);
    return {
      open: async () => renamedSource(await openFileSource(spilled.file), member.path),
      done: spilled.remove,
    };
  }
  const kept = await keepWhole(entry, member.size);
  const fail = (err: unknown) => archiveError(archive.name, member.path, err);
  return {
    open: async () => keptSource(member.path, member.size, kept, notStreamedAgain, fail, place),
    done: async () => {},
  };
}

/**
 * A plain tar as a container: its headers are walked first (positioned reads), then each
 * member is read in place over its byte range, as a stored zip member is.
 */
async function openPlainTar(path: string, name: string): Promise<Container> {
  const archive = await openFileSource(path);
  let members: Awaited<ReturnType<typeof tarMembers>>;
  try {
    members = await tarMembers(archive);
    const listing = new ArchiveListing(name, archive.size);
    for (const m of members) listing.see(m.path, m.size);
  } catch (err) {
    await archive.close();
    throw archiveError(name, err instanceof TarError ? err.member : undefined, err);
  }
  return {
    kind: 'tar',
    name,
    count: members.length,
    get bytesRead() {
      return archive.bytesRead;
    },
    async walk(visit, jobs) {
      const pool = createPool(jobs);
      for (const m of members)
        await pool.run(() =>
          visit({ path: m.path, size: m.size }, async () =>
            sliceSource(archive, m.dataStart, m.size, m.path),
          ),
        );
      await pool.drain();
    },
    async close() {
      await archive.close();
    },
  };
}

/**
 * Where a tar.gz member's bytes are in the archive's inflated stream: tar-stream notes, on
 * each header it decodes, the offset just past it (`byteOffset`, not in its types), which
 * is where the member's data starts.
 */
function gzipPlace(path: string, header: tar.Header): Place | undefined {
  const at = (header as { byteOffset?: unknown }).byteOffset;
  return typeof at === 'number' ? { kind: 'gzip', path: resolve(path), skip: at } : undefined;
}

/**
 * A tar or tar.gz archive as a container. A plain tar is read by member offsets; a tar.gz
 * in one pass over the stream, each member read once, in archive order, and inspected as it
 * passes (at most `jobs` at once: small ones kept in memory, larger ones in private temp
 * files; see passMember). Long names (PAX, GNU) are read.
 */
export async function openTar(path: string, name: string, gzip: boolean): Promise<Container> {
  if (!gzip) return openPlainTar(path, name);
  let bytesRead = 0;
  const archive = {
    path,
    name,
    counted: (n: number) => {
      bytesRead += n;
    },
  };
  const { size: archiveSize } = await stat(path);
  return {
    kind: gzip ? 'tar.gz' : 'tar',
    name,
    count: undefined,
    get bytesRead() {
      return bytesRead;
    },
    async walk(visit, jobs) {
      const listing = new ArchiveListing(name, archiveSize);
      const input = createReadStream(path).on('data', (c) => archive.counted(c.length));
      const extract = tar.extract();
      const piped = gzip ? pipeline(input, createGunzip(), extract) : pipeline(input, extract);
      piped.catch(() => {});
      const pool = createPool(jobs);
      let current: string | undefined;
      try {
        for await (const entry of extract) {
          const { header } = entry;
          current = header.name;
          if (header.type !== 'file' && header.type !== 'contiguous-file') {
            entry.resume();
            continue;
          }
          const size = header.size ?? 0;
          listing.see(header.name, size);
          const member = { path: header.name, size };
          const passed = await passMember(entry, member, archive, gzipPlace(path, header));
          await pool
            .run(() => visit(member, passed.open).finally(passed.done))
            .catch(async (err: unknown) => {
              await passed.done();
              throw err;
            });
        }
        await piped;
        current = undefined;
      } catch (err) {
        input.destroy();
        await pool.drain().catch(() => {});
        throw archiveError(name, current, err);
      }
      await pool.drain();
    },
    async close() {},
  };
}
