import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import { type ByteSource, openFileSource, type Place } from '../byte-source.js';
import { type Kept, keptSource, sliceSource } from './member-source.js';
import { createPool } from './pool.js';
import { ArchiveListing } from './rules.js';
import { TarError, tarMembers } from './tar-index.js';
import { archiveError, type Container } from './types.js';

const MiB = 1024 * 1024;
/** Members up to this size are kept whole while the archive streams past. */
export const TAR_KEEP_WHOLE = 32 * MiB;
/** Of larger members, this much of the head and of the tail is kept (headers and footers). */
export const TAR_KEEP_ENDS = 8 * MiB;

/** What is kept of one member as it streams: all of it when small, else its two ends. */
async function keep(entry: AsyncIterable<unknown>, size: number): Promise<Kept[]> {
  const whole = size <= TAR_KEEP_WHOLE;
  const head: Buffer[] = [];
  let headBytes = 0;
  let tail: Buffer[] = [];
  let tailBytes = 0;
  for await (const chunk of entry) {
    let c = chunk as Buffer;
    if (whole || headBytes < TAR_KEEP_ENDS) {
      const take = whole ? c.byteLength : Math.min(c.byteLength, TAR_KEEP_ENDS - headBytes);
      head.push(c.subarray(0, take));
      headBytes += take;
      c = c.subarray(take);
    }
    if (c.byteLength === 0) continue;
    tail.push(c);
    tailBytes += c.byteLength;
    while (tail.length > 1 && tailBytes - (tail[0]?.byteLength ?? 0) >= TAR_KEEP_ENDS) {
      tailBytes -= tail[0]?.byteLength ?? 0;
      tail = tail.slice(1);
    }
  }
  const kept: Kept[] = [{ offset: 0, bytes: Buffer.concat(head, headBytes) }];
  if (tailBytes > 0) kept.push({ offset: size - tailBytes, bytes: Buffer.concat(tail, tailBytes) });
  return kept;
}

/**
 * The bytes of the `index`th entry (counting every header the walk sees) of the tar.gz at
 * `path`, from a new stream of the archive: the entries before it are skipped as they pass.
 */
async function* restream(
  path: string,
  index: number,
  counted: (bytes: number) => void,
): AsyncGenerator<Uint8Array> {
  const input = createReadStream(path).on('data', (c) => counted(c.length));
  const extract = tar.extract();
  pipeline(input, createGunzip(), extract).catch(() => {});
  try {
    let at = 0;
    for await (const entry of extract) {
      if (at++ === index) {
        for await (const chunk of entry) yield chunk as Uint8Array;
        return;
      }
      entry.resume();
    }
    throw new Error('the member was not found when the archive was read again');
  } finally {
    input.destroy();
    extract.destroy();
  }
}

/**
 * The source of a tar.gz member the walk kept `kept` of: reads elsewhere in it stream the
 * archive again (restream), counted into the container's bytes read.
 */
function streamMemberSource(
  archive: { path: string; name: string; counted: (bytes: number) => void },
  index: number,
  member: { path: string; size: number },
  kept: readonly Kept[],
  place: Place | undefined,
): ByteSource {
  return keptSource(
    member.path,
    member.size,
    kept,
    async () => restream(archive.path, index, archive.counted),
    (err) => archiveError(archive.name, member.path, err),
    place,
  );
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
 * in one pass over the stream, members inspected as they pass (at most `jobs` kept in
 * memory at once; a read of a member outside what was kept streams the archive again, to
 * that member). Long names (PAX, GNU) are read.
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
      let index = -1;
      try {
        for await (const entry of extract) {
          const { header } = entry;
          current = header.name;
          index += 1;
          if (header.type !== 'file' && header.type !== 'contiguous-file') {
            entry.resume();
            continue;
          }
          const size = header.size ?? 0;
          listing.see(header.name, size);
          const member = { path: header.name, size };
          const kept = await keep(entry, size);
          const at = index;
          const place = gzipPlace(path, header);
          await pool.run(() =>
            visit(member, async () => streamMemberSource(archive, at, member, kept, place)),
          );
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
