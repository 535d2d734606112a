/**
 * Writing a file the user named, the one way every command and `normalizeCsv` do it: the
 * bytes go to a new file in the target's folder, created exclusively under a random name
 * (`wx`: O_CREAT | O_EXCL, so a file or a symlink planted at that name makes the open fail
 * instead of being followed), which is then renamed over the target in one step. A reader
 * never sees half a file, a failure leaves the target as it was, and whatever entry was
 * at the target (a file, a symlink) is replaced, never written through. The target's
 * permissions are kept when it was a regular file.
 *
 * Written by hand: `write-file-atomic` does the same but names its temporary file from
 * the process id and a counter (a name that can be guessed and planted beforehand) and
 * follows a symlink at the target; this is ~60 lines.
 */
import { type FileHandle, lstat, open, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** A file being written: write through `handle` (or its `fd`), then `commit` or `abort`. */
export interface PendingFile {
  readonly handle: FileHandle;
  /** The temporary file's path (beside the target). */
  readonly temp: string;
  /** Closes the file and renames it over the target. */
  commit(): Promise<void>;
  /** Closes and removes the temporary file; the target is left as it was. */
  abort(): Promise<void>;
}

/** How many random names are tried before giving up (each collision is 48 random bits). */
const TRIES = 8;

/** Opens a new temporary file beside `target`, exclusively, to be renamed over it. */
export async function openPendingFile(target: string): Promise<PendingFile> {
  // Loaded here, not with the module: `lint`, `check` and every worker thread load this
  // module (through files/index.ts) and never write; node:crypto takes a few ms to load.
  const { randomBytes } = await import('node:crypto');
  const before = await lstat(target).catch(() => undefined);
  const mode = before?.isFile() ? before.mode & 0o777 : 0o666;
  let handle: FileHandle | undefined;
  let temp = '';
  for (let i = 0; handle === undefined; i++) {
    temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      handle = await open(temp, 'wx', mode);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || i + 1 >= TRIES) throw err;
    }
  }
  // The mode given to open is masked by the umask: an existing file's mode is set as it was.
  if (before?.isFile()) await handle.chmod(mode);
  const opened = handle;
  let closed = false;
  const close = async () => {
    if (!closed) await opened.close();
    closed = true;
  };
  return {
    handle: opened,
    temp,
    async commit() {
      try {
        await close();
        await rename(temp, target);
      } catch (err) {
        await rm(temp, { force: true });
        throw err;
      }
    },
    async abort() {
      await close().catch(() => undefined);
      await rm(temp, { force: true });
    },
  };
}

/** Writes `data` to `target` through a temporary file renamed over it (see above). */
export async function writeFileSafely(target: string, data: string | Uint8Array): Promise<void> {
  const pending = await openPendingFile(target);
  try {
    await pending.handle.writeFile(data);
  } catch (err) {
    await pending.abort();
    throw err;
  }
  await pending.commit();
}

/**
 * True when the two paths name the same file: the same device and inode once symlinks are
 * followed, so a symlink, a hard link and another spelling of the path all count. False
 * when either does not exist.
 */
export async function isSameFile(a: string, b: string): Promise<boolean> {
  const [sa, sb] = await Promise.all([
    stat(a).catch(() => undefined),
    stat(b).catch(() => undefined),
  ]);
  return sa !== undefined && sb !== undefined && sa.dev === sb.dev && sa.ino === sb.ino;
}
