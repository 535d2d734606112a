/**
 * Unpacking chosen members of an archive (zip, tar or tar.gz) to a folder, as the platform
 * does with a batch it imports (the emulator's batch import uses it; inference and checks
 * read members in place and never unpack). A zip or a tar.gz is read as a stream, a plain
 * tar by member offsets, each member written to disk as it is read (memory stays at a chunk
 * or two whatever the sizes); a name that could escape the folder is refused, and an
 * optional cap bounds the bytes written against the archive's size.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type yauzl from 'yauzl';
import type { Issue } from '../../model/plain.js';
import { openFileSource } from '../byte-source.js';
import { TarError, tarMembers } from './tar-index.js';
import type { ContainerKind } from './types.js';

/** Writes a member's stream (inflated, or passing in a tar.gz) to `file`. */
async function writeStream(stream: AsyncIterable<unknown>, file: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await pipeline(stream, createWriteStream(file));
}

/** An archive member that is refused or cannot be read, by name (undefined: before any). */
export class UnpackError extends Error {
  constructor(
    readonly member: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

export interface UnpackOptions {
  /** The listed members may unpack to at most this many times the archive's size. */
  maxRatio?: number;
}

/** Room above the ratio, so that a small archive of small members is never refused. */
const SLACK = 16 * 1024 * 1024;

/** Bytes the listed members may still unpack to. */
class Budget {
  private left: number;
  constructor(
    archiveSize: number,
    private readonly ratio: number | undefined,
  ) {
    this.left = ratio === undefined ? Number.POSITIVE_INFINITY : archiveSize * ratio + SLACK;
  }
  take(member: string, size: number): void {
    this.left -= size;
    if (this.left < 0)
      throw new UnpackError(member, `unpacks to more than ${this.ratio} times the archive`);
  }
}

/** Where a member is written under `root`; UnpackError when its name could escape it. */
export function memberTarget(root: string, name: string): string {
  const parts = name.split('/');
  if (name.startsWith('/') || name.includes('\\') || parts.some((p) => p === '..' || p === '')) {
    throw new UnpackError(name, 'the name is not a relative path inside the archive');
  }
  return join(root, ...parts);
}

/** The next entry of a zip opened with lazyEntries, or undefined at its end. */
function nextEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | undefined> {
  return new Promise((resolve, reject) => {
    const done = () => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    const onEntry = (e: yauzl.Entry) => {
      done();
      resolve(e);
    };
    const onEnd = () => {
      done();
      resolve(undefined);
    };
    const onError = (err: Error) => {
      done();
      reject(err);
    };
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}

async function unpackZip(
  archive: string,
  root: string,
  listed: ReadonlySet<string>,
  budget: Budget,
): Promise<void> {
  // Loaded when an archive is unpacked, not with the inspect stage (a folder never needs it).
  const { default: yauzl } = await import('yauzl');
  const zip = await yauzl
    .openPromise(archive, {
      lazyEntries: true,
      autoClose: false,
      decodeStrings: true,
      validateEntrySizes: true,
    })
    .catch((err: Error) => {
      throw new UnpackError(undefined, err.message);
    });
  let current: string | undefined;
  try {
    for (let e = await nextEntry(zip); e; e = await nextEntry(zip)) {
      current = e.fileName;
      if (!listed.has(e.fileName) || e.fileName.endsWith('/')) continue;
      const file = memberTarget(root, e.fileName);
      budget.take(e.fileName, e.uncompressedSize);
      await writeStream(await zip.openReadStreamPromise(e), file);
    }
  } catch (err) {
    throw err instanceof UnpackError ? err : new UnpackError(current, (err as Error).message);
  } finally {
    zip.close();
  }
}

/** A plain tar: its headers walked, then each listed member copied from its byte range. */
async function unpackPlainTar(
  archive: string,
  root: string,
  listed: ReadonlySet<string>,
  budget: Budget,
): Promise<void> {
  const source = await openFileSource(archive);
  let current: string | undefined;
  try {
    for (const m of await tarMembers(source)) {
      current = m.path;
      if (!listed.has(m.path)) continue;
      const file = memberTarget(root, m.path);
      budget.take(m.path, m.size);
      const range = { start: m.dataStart, end: m.dataStart + m.size - 1 };
      await writeStream(m.size === 0 ? Readable.from([]) : createReadStream(archive, range), file);
    }
  } catch (err) {
    if (err instanceof UnpackError) throw err;
    throw new UnpackError(err instanceof TarError ? err.member : current, (err as Error).message);
  } finally {
    await source.close();
  }
}

async function unpackStreamedTar(
  archive: string,
  root: string,
  listed: ReadonlySet<string>,
  budget: Budget,
): Promise<void> {
  const { default: tar } = await import('tar-stream');
  const input = createReadStream(archive);
  const extract = tar.extract();
  const piped = pipeline(input, createGunzip(), extract);
  piped.catch(() => {});
  let current: string | undefined;
  try {
    for await (const entry of extract) {
      const { name, type, size } = entry.header;
      current = name;
      if (!listed.has(name) || (type !== 'file' && type !== 'contiguous-file')) {
        entry.resume();
        continue;
      }
      const file = memberTarget(root, name);
      budget.take(name, size ?? 0);
      await writeStream(entry, file);
    }
    await piped;
  } catch (err) {
    input.destroy();
    throw err instanceof UnpackError ? err : new UnpackError(current, (err as Error).message);
  }
}

/**
 * Writes the members of `archive` named in `listed` under `root` (at their paths inside the
 * archive); the others are skipped as they pass. Throws UnpackError naming the member when
 * the archive is damaged, a name could escape `root`, or the cap is passed.
 */
export async function unpackMembers(
  archive: string,
  kind: Exclude<ContainerKind, 'folder'>,
  root: string,
  listed: ReadonlySet<string>,
  options: UnpackOptions = {},
): Promise<void> {
  const { size } = await stat(archive);
  const budget = new Budget(size, options.maxRatio);
  if (kind === 'zip') await unpackZip(archive, root, listed, budget);
  else if (kind === 'tar') await unpackPlainTar(archive, root, listed, budget);
  else await unpackStreamedTar(archive, root, listed, budget);
}

/** Runs `use` on a new private folder under the system's temp folder, removed afterwards. */
export async function withPrivateFolder<T>(use: (root: string) => Promise<T>): Promise<T> {
  const root = await mkdtemp(join(tmpdir(), 'importkit-unpack-'));
  try {
    return await use(root);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** `text` with the unpacking folder left out, so that it names members by their paths. */
export function hideRoot(text: string, root: string): string {
  return text.split(`${root}${sep}`).join('');
}

/** Issues found on unpacked files, naming the members instead of their places on disk. */
export function hideRootInIssues(issues: readonly Issue[], root: string): Issue[] {
  return issues.map((i) => {
    const out: Issue = { ...i, message: hideRoot(i.message, root) };
    if (i.hint !== undefined) out.hint = hideRoot(i.hint, root);
    if (i.source?.file !== undefined)
      out.source = { ...i.source, file: hideRoot(i.source.file, root) };
    return out;
  });
}
