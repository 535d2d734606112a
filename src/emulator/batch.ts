/**
 * A batch import in the emulator: the uploaded archive (zip, tar or tar.gz) is unpacked as a
 * stream, its listed members only, each written to disk as it inflates (memory stays at a
 * chunk or two whatever the sizes), then checked with the library's own batch check: every
 * member against its config (its own or its type's default) as a single file is checked.
 * The first members that do not fit are named in the import's error message.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import yauzl from 'yauzl';
import type { BatchConfig } from '../model/index.js';
import type { Issue } from '../model/plain.js';
import { MAX_INFLATION_RATIO } from './http.js';

/** The end of a batch import: a failure message, or the warnings of a success. */
export interface BatchOutcome {
  failure?: string;
  warnings: string[];
}

/** An archive member the emulator refuses or cannot read, by name. */
class MemberError extends Error {
  constructor(
    readonly member: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

const SLACK = 16 * 1024 * 1024;

/** Bytes the listed members may unpack to: the upload guard's inflation ratio. */
class Budget {
  private left: number;
  constructor(archiveSize: number) {
    this.left = archiveSize * MAX_INFLATION_RATIO + SLACK;
  }
  take(member: string, size: number): void {
    this.left -= size;
    if (this.left < 0)
      throw new MemberError(
        member,
        `unpacks to more than ${MAX_INFLATION_RATIO} times the archive`,
      );
  }
}

/** Where a member is written under `root`, or an error when its name could escape it. */
function target(root: string, name: string): string {
  const parts = name.split('/');
  if (name.startsWith('/') || name.includes('\\') || parts.some((p) => p === '..' || p === '')) {
    throw new MemberError(name, 'the name is not a relative path inside the archive');
  }
  return join(root, ...parts);
}

async function writeMember(stream: AsyncIterable<unknown>, file: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await pipeline(stream, createWriteStream(file));
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
) {
  const zip = await yauzl.openPromise(archive, {
    lazyEntries: true,
    autoClose: false,
    decodeStrings: true,
    validateEntrySizes: true,
  });
  let current: string | undefined;
  try {
    for (let e = await nextEntry(zip); e; e = await nextEntry(zip)) {
      current = e.fileName;
      if (!listed.has(e.fileName)) continue;
      const file = target(root, e.fileName);
      budget.take(e.fileName, e.uncompressedSize);
      await writeMember(await zip.openReadStreamPromise(e), file);
    }
  } catch (err) {
    throw err instanceof MemberError ? err : new MemberError(current, (err as Error).message);
  } finally {
    zip.close();
  }
}

async function unpackTar(
  archive: string,
  root: string,
  listed: ReadonlySet<string>,
  budget: Budget,
  gzip: boolean,
) {
  const input = createReadStream(archive);
  const extract = tar.extract();
  const piped = gzip ? pipeline(input, createGunzip(), extract) : pipeline(input, extract);
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
      const file = target(root, name);
      budget.take(name, size ?? 0);
      await writeMember(entry, file);
    }
    await piped;
  } catch (err) {
    input.destroy();
    throw err instanceof MemberError ? err : new MemberError(current, (err as Error).message);
  }
}

/** What a failed check says: the first errors, each naming its member. */
function describe(errors: readonly Issue[]): string {
  const shown = errors.slice(0, 3).map((i) => {
    const member = i.source?.file;
    return `${member ? `member ${member}: ` : ''}${i.message}${i.path ? ` (at ${i.path})` : ''}`;
  });
  const more = errors.length > 3 ? `; and ${errors.length - 3} more` : '';
  return `${shown.join('; ')}${more}`;
}

/** Unpacks the listed members of `archive` and checks each against the batch config. */
export async function importBatch(archive: string, batch: BatchConfig): Promise<BatchOutcome> {
  const { containerKind } = await import('../inspect/index.js');
  const kind = await containerKind(archive);
  if (!kind || kind === 'folder')
    return {
      failure: 'the upload is not a zip, tar or tar.gz archive, but the config is a BatchConfig',
      warnings: [],
    };
  const { size } = await stat(archive);
  const root = await mkdtemp(join(dirname(archive), 'members-'));
  const hide = (text: string) => text.split(`${root}${sep}`).join('');
  try {
    const listed = new Set(Object.keys(batch.fileConfigs ?? {}));
    const budget = new Budget(size);
    if (kind === 'zip') await unpackZip(archive, root, listed, budget);
    else await unpackTar(archive, root, listed, budget, kind === 'tar.gz');
    const { checkBatch } = await import('../check/index.js');
    const issues = await checkBatch(batch, root);
    const errors = issues.filter((i) => i.severity === 'error');
    const warnings = issues.filter((i) => i.severity === 'warning').map((i) => hide(i.message));
    return errors.length > 0 ? { failure: hide(describe(errors)), warnings } : { warnings };
  } catch (err) {
    if (!(err instanceof MemberError)) throw err;
    const at = err.member === undefined ? '' : `member ${err.member}: `;
    return { failure: `cannot read the archive: ${at}${hide(err.message)}`, warnings: [] };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
