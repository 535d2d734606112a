/**
 * A folder or an archive of many files, read member by member through ByteSources: zip
 * members in place (through their local headers), tar members in place (by their offsets),
 * tar.gz as one stream read once (a member over TAR_KEEP_WHOLE goes to a private temp file
 * as it passes; see tar.ts).
 */
import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { formatById, formats } from '../../formats/index.js';
import { type ByteSource, openFileSource } from '../byte-source.js';
import { gunzipHead, isGzip } from '../gzip-source.js';
import type { FileFormat } from '../profile.js';
import type { Container, ContainerKind } from './types.js';

export type { Container, ContainerKind, ContainerMember, MemberVisit } from './types.js';
export { archiveError } from './types.js';

/**
 * Why a path is not data by its name alone (hidden, macOS metadata, a TDMS index), or
 * undefined. A leading `./` (what `tar czf x.tar.gz .` writes before every name) is the
 * archive's top folder, not a hidden part.
 */
export function leftOutByName(path: string): string | undefined {
  const parts = path.split('/');
  while (parts[0] === '.' && parts.length > 1) parts.shift();
  if (parts[0] === '__MACOSX') return 'macOS metadata (__MACOSX/)';
  if (parts.some((p) => p.startsWith('.'))) return 'a hidden file';
  if (path.toLowerCase().endsWith('.tdms_index'))
    return 'a TDMS index (the platform reads the .tdms file)';
  return undefined;
}

/** The formats a batch lists, in words: "CSV, Parquet, HDF5, TDMS, CH10 and ULog". */
function batchTitles(): string {
  const titles = formats()
    .filter((f) => f.batch !== 'none')
    .map((f) => f.title);
  return titles.length > 1
    ? `${titles.slice(0, -1).join(', ')} and ${titles.at(-1)}`
    : titles.join('');
}

/** Why a member of this format and name is not data, or undefined when the batch lists it. */
export function leftOutByContent(path: string, format: FileFormat, by: string): string | undefined {
  const entry = formatById(format);
  if (!entry) return 'not a data file (binary, not a format importkit knows)';
  if (entry.batch === 'none') return `a ${entry.title} file (a batch imports ${batchTitles()})`;
  const ext = extname(path.replace(/\.gz$/i, '')).toLowerCase();
  const data = entry.batchExtensions ?? entry.extensions;
  if (entry.text && by !== 'magic' && !data.includes(ext))
    return `a text file without a data extension (${data.join(', ')})`;
  return undefined;
}

const TAR_MAGIC = 'ustar';

function isTarHeader(block: Uint8Array): boolean {
  return Buffer.from(block.subarray(257, 262)).toString('latin1') === TAR_MAGIC;
}

function isZip(head: Uint8Array): boolean {
  return (
    head[0] === 0x50 &&
    head[1] === 0x4b &&
    (head[2] === 3 || head[2] === 5) &&
    head[3] === head[2] + 1
  );
}

/**
 * What kind of container `path` is: a folder, a zip, a tar or a gzip-compressed tar (by
 * content, not by name), or undefined for anything else (a data file, a missing path).
 */
export async function containerKind(path: string): Promise<ContainerKind | undefined> {
  const st = await stat(path).catch(() => undefined);
  if (!st) return undefined;
  if (st.isDirectory()) return 'folder';
  if (!st.isFile() || st.size < 4) return undefined;
  const source = await openFileSource(path).catch(() => undefined);
  if (!source) return undefined;
  try {
    const head = await source.read(0, 512);
    if (isZip(head)) return 'zip';
    if (isTarHeader(head)) return 'tar';
    if (isGzip(head)) {
      const inner = await gunzipHead(source, 512).catch(() => undefined);
      if (inner && isTarHeader(inner.bytes)) return 'tar.gz';
    }
    return undefined;
  } finally {
    await source.close();
  }
}

/** Opens a folder or an archive of the given kind for a walk over its members. */
export async function openContainer(
  path: string,
  kind: ContainerKind,
  name = path,
): Promise<Container> {
  switch (kind) {
    case 'folder':
      return (await import('./folder.js')).openFolder(path, name);
    case 'zip':
      return (await import('./zip.js')).openZip(path, name);
    default:
      return (await import('./tar.js')).openTar(path, name, kind === 'tar.gz');
  }
}

/**
 * A file of the folder at `root`, read in place and named by its path in the folder, as the
 * folder's walk reads it (a batch's worker threads open members with it).
 */
export async function openFolderMember(root: string, path: string): Promise<ByteSource> {
  return (await import('./folder.js')).openFolderMember(root, path);
}
