/**
 * Unpacking chosen members of an archive (zip, tar or tar.gz) to a folder, as the platform
 * does with a batch it imports (the emulator's batch import uses it; inference and checks
 * read members in place and never unpack). A zip is listed from its central directory, a
 * plain tar by member offsets, a tar.gz read as a stream; each member is written to disk as
 * it is read (memory stays at a chunk or two whatever the sizes). The archive's listing
 * keeps the rules the command line's walks keep (rules.ts: safe names, each name once, zip
 * members apart, the inflation budget), or the unpacking stops with an UnpackError.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { Issue } from '../../model/plain.js';
import { openFileSource } from '../byte-source.js';
import { InspectError } from '../profile.js';
import { ArchiveListing } from './rules.js';
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
  /** The members may unpack to at most this many times the archive's size (a test's bound; default MAX_INFLATION_RATIO, as the command line's walks). */
  maxRatio?: number;
}

/** Where a member is written under `root`; UnpackError when its name could escape it. */
export function memberTarget(root: string, name: string): string {
  const parts = name.split('/');
  if (name.startsWith('/') || name.includes('\\') || parts.some((p) => p === '..' || p === '')) {
    throw new UnpackError(name, 'the name is not a relative path inside the archive');
  }
  return join(root, name);
}

async function unpackZip(
  archive: string,
  root: string,
  listed: ReadonlySet<string>,
  ratio: number | undefined,
): Promise<void> {
  // Loaded when an archive is unpacked, not with the inspect stage (a folder never needs it).
  const { default: yauzl } = await import('yauzl');
  const { zipMembers } = await import('./zip.js');
  const { size } = await stat(archive);
  const zip = await yauzl
    .openPromise(archive, { autoClose: false, decodeStrings: true, validateEntrySizes: true })
    .catch((err: Error) => {
      throw new UnpackError(undefined, err.message);
    });
  let current: string | undefined;
  try {
    for (const e of await zipMembers(zip, '', size, ratio)) {
      current = e.fileName;
      if (!listed.has(e.fileName)) continue;
      await writeStream(await zip.openReadStreamPromise(e), memberTarget(root, e.fileName));
    }
  } catch (err) {
    throw unpackError(current, err);
  } finally {
    zip.close();
  }
}

/** A refusal or a read failure as the UnpackError naming the member being read. */
function unpackError(current: string | undefined, err: unknown): UnpackError {
  if (err instanceof UnpackError) return err;
  if (err instanceof InspectError) return new UnpackError(undefined, err.message);
  if (err instanceof TarError) return new UnpackError(err.member, err.message);
  return new UnpackError(current, (err as Error).message);
}

/** A plain tar: its headers walked (the listing's rules kept), then each listed member copied. */
async function unpackPlainTar(
  archive: string,
  root: string,
  listed: ReadonlySet<string>,
  ratio: number | undefined,
): Promise<void> {
  const source = await openFileSource(archive);
  let current: string | undefined;
  try {
    const members = await tarMembers(source);
    const listing = new ArchiveListing('', source.size, ratio);
    for (const m of members) listing.see(m.path, m.size);
    for (const m of members) {
      current = m.path;
      if (!listed.has(m.path)) continue;
      const file = memberTarget(root, m.path);
      const range = { start: m.dataStart, end: m.dataStart + m.size - 1 };
      await writeStream(m.size === 0 ? Readable.from([]) : createReadStream(archive, range), file);
    }
  } catch (err) {
    throw unpackError(current, err);
  } finally {
    await source.close();
  }
}

/**
 * A tar.gz, as one stream: every member's header passes the listing's rules before its data
 * (an unlisted member too, since the stream inflates it to reach the next header: its size
 * counts against the budget, and one past it is refused before a byte of it is inflated).
 */
async function unpackStreamedTar(
  archive: string,
  root: string,
  listed: ReadonlySet<string>,
  ratio: number | undefined,
): Promise<void> {
  const { default: tar } = await import('tar-stream');
  const { size: archiveSize } = await stat(archive);
  const listing = new ArchiveListing('', archiveSize, ratio);
  const input = createReadStream(archive);
  const extract = tar.extract();
  const piped = pipeline(input, createGunzip(), extract);
  piped.catch(() => {});
  let current: string | undefined;
  try {
    for await (const entry of extract) {
      const { name, type, size } = entry.header;
      current = name;
      if (type !== 'file' && type !== 'contiguous-file') {
        entry.resume();
        continue;
      }
      listing.see(name, size ?? 0);
      if (!listed.has(name)) {
        entry.resume();
        continue;
      }
      await writeStream(entry, memberTarget(root, name));
    }
    await piped;
  } catch (err) {
    input.destroy();
    throw unpackError(current, err);
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
  const ratio = options.maxRatio;
  if (kind === 'zip') await unpackZip(archive, root, listed, ratio);
  else if (kind === 'tar') await unpackPlainTar(archive, root, listed, ratio);
  else await unpackStreamedTar(archive, root, listed, ratio);
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
