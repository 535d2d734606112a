import { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { type ByteSource, openFileSource } from '../byte-source.js';
import { sliceSource, streamedSource } from './member-source.js';
import { createPool } from './pool.js';
import { archiveError, type Container, type MemberVisit } from './types.js';

const CHUNK = 64 * 1024;

/** yauzl reads the archive through our ByteSource, so the bytes it reads are counted. */
class SourceReader extends yauzl.RandomAccessReader {
  constructor(private readonly source: ByteSource) {
    super();
  }
  override _readStreamForRange(start: number, end: number): Readable {
    const source = this.source;
    async function* chunks() {
      for (let at = start; at < end; at += CHUNK) {
        const bytes = await source.read(at, Math.min(CHUNK, end - at));
        if (bytes.byteLength === 0) break;
        yield Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      }
    }
    return Readable.from(chunks(), { objectMode: false });
  }
}

/** The central directory's entries (the listing: names, sizes, methods). */
function readEntries(zip: yauzl.ZipFile): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    zip.on('entry', (entry: yauzl.Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', reject);
    zip.readEntry();
  });
}

/** A member's bytes: stored members read in place after their local header, deflated ones inflated. */
async function memberSource(
  zip: yauzl.ZipFile,
  archive: ByteSource,
  entry: yauzl.Entry,
  name: string,
): Promise<ByteSource> {
  const path = entry.fileName;
  try {
    if (entry.isEncrypted()) throw new Error('the member is encrypted');
    if (entry.compressionMethod === 0) {
      const { fileDataStart } = await zip.readLocalFileHeaderPromise(entry, { minimal: true });
      return sliceSource(archive, fileDataStart, entry.uncompressedSize, path);
    }
    if (entry.compressionMethod !== 8)
      throw new Error(
        `compression method ${entry.compressionMethod} (only stored and deflated are read)`,
      );
    // Where the deflate data starts, so a reader in another thread can inflate it in place.
    const { fileDataStart } = await zip.readLocalFileHeaderPromise(entry, { minimal: true });
    return streamedSource(
      path,
      entry.uncompressedSize,
      () => zip.openReadStreamPromise(entry),
      (err) => archiveError(name, path, err),
      archive.place?.kind === 'file'
        ? {
            kind: 'deflate',
            path: archive.place.path,
            start: archive.place.start + fileDataStart,
            compressedSize: entry.compressedSize,
          }
        : undefined,
    );
  } catch (err) {
    throw archiveError(name, path, err);
  }
}

/** Visits one member, read in place. */
async function visitEntry(
  zip: yauzl.ZipFile,
  archive: ByteSource,
  entry: yauzl.Entry,
  name: string,
  visit: MemberVisit,
): Promise<void> {
  const member = { path: entry.fileName, size: entry.uncompressedSize };
  return visit(member, () => memberSource(zip, archive, entry, name));
}

/** A zip archive as a container; its members are read in place, never extracted. */
export async function openZip(path: string, name: string): Promise<Container> {
  const archive = await openFileSource(path);
  let zip: yauzl.ZipFile;
  let entries: yauzl.Entry[];
  try {
    zip = await yauzl.fromRandomAccessReaderPromise(new SourceReader(archive), archive.size, {
      autoClose: false,
      decodeStrings: true,
      validateEntrySizes: true,
    });
    entries = (await readEntries(zip)).filter((e) => !e.fileName.endsWith('/'));
  } catch (err) {
    await archive.close();
    throw archiveError(name, undefined, err);
  }
  entries.sort((a, b) => (a.fileName < b.fileName ? -1 : a.fileName > b.fileName ? 1 : 0));
  return {
    kind: 'zip',
    name,
    count: entries.length,
    get bytesRead() {
      return archive.bytesRead;
    },
    async walk(visit, jobs) {
      const pool = createPool(jobs);
      for (const e of entries) await pool.run(() => visitEntry(zip, archive, e, name, visit));
      await pool.drain();
    },
    async close() {
      zip.close();
      await archive.close();
    },
  };
}
