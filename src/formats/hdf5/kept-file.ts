/**
 * The HDF5 file a worker thread's jobs read, kept open from one job to the next on the same
 * file. Opening a file costs the library its superblock and root group, and then every
 * dataset a job looks up costs the group's links again: on a file of 3,000 datasets in one
 * group, read in one job for its tree and then one job a slice, `infer` took 2.7 s and
 * `check --full` 3.0 s opening the file for each job, 2.1 s and 2.05 s keeping it open.
 *
 * The thread says which file its next job reads and what version of it (`expectFile`: the
 * host file's device, inode, size and modification time; a file node of a place is new for
 * each place, its path is its version). The kept file serves that job only when it is the
 * same file in the same version. It is closed when a job on it fails (the next opens it
 * afresh), when another file is expected, when the place under it goes, and once no job
 * has come for IDLE_MS: a thread waiting for work holds no file open (on some systems an
 * open file cannot be removed).
 *
 * Runs only in the HDF5 worker thread (thread.ts), as reader.ts.
 */
import type { H5Module } from './lent-rows.js';

type H5File = InstanceType<H5Module['File']>;

/** How long the thread keeps a file open with no job on it. */
const IDLE_MS = 50;

let kept: { h5: H5Module; path: string; version: string; file: H5File } | undefined;
let expected: { path: string; version: string } | undefined;
let idle: ReturnType<typeof setTimeout> | undefined;

/** The next job reads `path` in `version`: a kept file of another path or version is closed. */
export function expectFile(path: string, version: string): void {
  clearTimeout(idle);
  expected = { path, version };
  if (kept && (kept.path !== path || kept.version !== version)) closeKeptFile();
}

/**
 * `path` opened for reading in `h5`: the kept file when it is the one the job was expected
 * to read, else the file opened anew (and kept when it is that one). Throws when the
 * library cannot open it.
 */
export function openKept(h5: H5Module, path: string): H5File {
  if (kept && kept.h5 === h5 && kept.path === path) return kept.file;
  const file = new h5.File(path, 'r');
  if (file.file_id < 0n) throw new Error('the file could not be opened');
  if (expected?.path === path) {
    closeKeptFile();
    kept = { h5, path, version: expected.version, file };
  }
  return file;
}

/**
 * Whether `file` is the kept one: its reader leaves it open for the next job; any other
 * file the reader closes itself.
 */
export function isKept(file: H5File): boolean {
  return kept?.file === file;
}

/** After a job: a failed one closes the kept file; else it stays open for IDLE_MS. */
export function jobDone(ok: boolean): void {
  expected = undefined;
  if (!ok) {
    closeKeptFile();
    return;
  }
  idle = setTimeout(closeKeptFile, IDLE_MS);
  idle.unref();
}

/** Closes the kept file, if any (before the place under it goes). */
export function closeKeptFile(): void {
  clearTimeout(idle);
  const k = kept;
  kept = undefined;
  if (!k) return;
  try {
    k.file.close();
  } catch {
    // A file the library cannot close is gone with its id: nothing is left to do.
  }
}
