import { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { type ByteSource, openFileSource, type Place } from '../byte-source.js';
import { sliceSource, streamedSource } from './member-source.js';
import { createPool } from './pool.js';
import { ArchiveListing, refuseOverlaps, zipNameError } from './rules.js';
import { archiveError, type Container } from './types.js';

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

/**
 * The regular members of a zip's central directory (directories left out), once the
 * listing's rules hold (ArchiveListing, refuseOverlaps): the command line's walk and the
 * emulator's unpacking both list a zip through it.
 */
export async function zipMembers(
  zip: yauzl.ZipFile,
  name: string,
  archiveSize: number,
  ratio?: number,
): Promise<yauzl.Entry[]> {
  let entries: yauzl.Entry[];
  try {
    entries = await readEntries(zip);
  } catch (err) {
    throw zipNameError(name, err) ?? err;
  }
  const listing = new ArchiveListing(name, archiveSize, ratio);
  const files = entries.filter((e) => !e.fileName.endsWith('/'));
  for (const e of files) listing.see(e.fileName, e.uncompressedSize);
  refuseOverlaps(
    name,
    entries.map((e) => ({
      name: e.fileName,
      start: e.relativeOffsetOfLocalHeader,
      length: 30 + e.fileNameLength + e.compressedSize,
    })),
  );
  return files;
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

/**
 * A member's bytes, from where its local header says its data starts: stored members read
 * in place, deflated ones inflated (their place lets a reader in another thread inflate
 * them in place too).
 */
async function memberSource(
  zip: yauzl.ZipFile,
  archive: ByteSource,
  entry: yauzl.Entry,
  name: string,
): Promise<ByteSource> {
  const path = entry.fileName;
  try {
    if (entry.isEncrypted()) throw new Error('the member is encrypted');
    const method = entry.compressionMethod;
    if (method !== 0 && method !== 8)
      throw new Error(`compression method ${method} (only stored and deflated are read)`);
    const { fileDataStart } = await zip.readLocalFileHeaderPromise(entry, { minimal: true });
    if (method === 0) return sliceSource(archive, fileDataStart, entry.uncompressedSize, path);
    return streamedSource(
      path,
      entry.uncompressedSize,
      () => zip.openReadStreamPromise(entry),
      (err) => archiveError(name, path, err),
      deflatePlace(archive.place, fileDataStart, entry.compressedSize),
    );
  } catch (err) {
    throw archiveError(name, path, err);
  }
}

/** Where a deflated member's data lies, `start` bytes into an archive at `archive`. */
function deflatePlace(
  archive: Place | undefined,
  start: number,
  compressedSize: number,
): Place | undefined {
  if (archive?.kind !== 'file') return undefined;
  return { kind: 'deflate', path: archive.path, start: archive.start + start, compressedSize };
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
    entries = await zipMembers(zip, name, archive.size);
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
      for (const e of entries)
        await pool.run(() =>
          visit({ path: e.fileName, size: e.uncompressedSize }, () =>
            memberSource(zip, archive, e, name),
          ),
        );
      await pool.drain();
    },
    async close() {
      zip.close();
      await archive.close();
    },
  };
}
