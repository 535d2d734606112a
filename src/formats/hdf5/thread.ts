/**
 * The HDF5 worker thread (started by worker.ts): loads h5wasm on the first job, then runs
 * each job it is sent with `runHdf5Job` (or, a range of rows to tally, `runTallyJob`) and
 * answers with its result; long jobs send their progress after each slice. `check --full`
 * with several jobs runs several of these threads, each with its own h5wasm.
 *
 * A job on a whole file, by its path, runs on h5wasm's Node build, whose file system is the
 * host's: the library reads the file in place. A job on a place (a file's range, a zip
 * member's deflate data, a tar.gz member) runs on h5wasm's other build, whose file system
 * is in memory: the place is read through a PlaceReader behind a file node of it
 * (file-node.ts). Each build loads on the first job that needs it. Files stay on the Node
 * build because it reads them faster: reading every value of a 200 MB file took 1.4 s
 * through the other build's file node against 0.9 s.
 */
import fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import type { Place } from '../../inspect/shared.js';
import { openPlaceReader, type PlaceReader } from '../../inspect/shared.js';
import { type EmFs, placeFile } from './file-node.js';
import { closeKeptFile, expectFile, jobDone } from './kept-file.js';
import { registerLibrary } from './lent-rows.js';
import { type H5Module, type Hdf5Job, type RawTree, runHdf5Job } from './reader.js';
import { runTallyJob, type TallyJob } from './slice-tally.js';

/** A job of this thread: a read (reader.ts), or a range of rows read into a tally (slice-tally.ts). */
type ThreadJob = Hdf5Job | TallyJob;

// The wasm runtime prints to stdout and stderr when the library aborts or decodes bad text:
// dropped here, never forwarded to the process's own streams (the reason reaches the
// caller in the job's result).
process.stdout.write = () => true;
process.stderr.write = () => true;

/**
 * Bytes this thread has read from files: the HDF5 library's own reads (h5wasm's Node build
 * reads through this thread's `fs.readSync`) and the place readers' (they read through it
 * too). A tree job answers the bytes it read, so `inspect` says what it read, not only the
 * superblock. Pinned by test/inspect/hdf5.test.ts: a build that reads otherwise fails there.
 */
let bytesRead = 0;
const readSync = fs.readSync as (...args: unknown[]) => number;
fs.readSync = ((...args: unknown[]) => {
  const n = readSync.apply(fs, args);
  bytesRead += n;
  return n;
}) as typeof fs.readSync;

let onHost: H5Module | undefined;
let inMemory: { module: H5Module; fs: EmFs } | undefined;

async function hostBuild(): Promise<H5Module> {
  if (!onHost) {
    const mod = await import('h5wasm/node');
    registerLibrary(mod.default, await mod.default.ready);
    onHost = mod.default;
  }
  return onHost;
}

async function memoryBuild(): Promise<{ module: H5Module; fs: EmFs }> {
  if (!inMemory) {
    const mod = await import('h5wasm');
    registerLibrary(mod.default, await mod.default.ready);
    // `FS` is set once `ready` has resolved.
    inMemory = { module: mod.default, fs: mod.FS as unknown as EmFs };
  }
  return inMemory;
}

type Done = ReturnType<typeof runHdf5Job> | ReturnType<typeof runTallyJob>;

function runJob(h5: H5Module, path: string, job: ThreadJob, progress: (n: number) => void): Done {
  return job.kind === 'tally'
    ? runTallyJob(h5, path, job, progress)
    : runHdf5Job(h5, path, job, progress);
}

function failed(e: unknown, wasmFailure: boolean): Done {
  const reason = String((e as { message?: unknown } | undefined)?.message ?? e);
  return { ok: false, reason, wasmFailure };
}

/**
 * The place the last job read, kept open for the next job on it: `check --full` reads a
 * dataset in many slice jobs, and a compressed member's reader carries on from where the
 * last slice left it (its inflater's position, its cache) instead of inflating the member
 * from its start again for every slice. `version` tells the same file from one written
 * again under the same path since (tests do that).
 */
let kept: { key: string; version: string; reader: PlaceReader; file: PlaceFile } | undefined;

type PlaceFile = ReturnType<typeof placeFile>;

function versionOf(path: string): string {
  const s = fs.statSync(path);
  return `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}`;
}

function closeKept(): void {
  const k = kept;
  kept = undefined;
  if (!k) return;
  // The library's file on the node goes before the node.
  closeKeptFile();
  try {
    k.file.remove();
  } finally {
    k.reader.close();
  }
}

/** The reader and file node of `place`: the kept ones when they are of the same bytes. */
function openPlace(h: { fs: EmFs }, place: Place, size: number): PlaceFile {
  const key = JSON.stringify([place, size]);
  const version = versionOf(place.path);
  if (kept?.key === key && kept.version === version) return kept.file;
  closeKept();
  const reader = openPlaceReader(place, size);
  try {
    kept = { key, version, reader, file: placeFile(h.fs, reader) };
  } catch (e) {
    reader.close();
    throw e;
  }
  return kept.file;
}

/** Runs a job on a place; a read that failed gives the job's reason. */
async function runOnPlace(
  job: ThreadJob,
  place: Place,
  size: number,
  progress: (n: number) => void,
): Promise<Done> {
  const h = await memoryBuild();
  let file: PlaceFile;
  try {
    file = openPlace(h, place, size);
  } catch (e) {
    return failed(e, false);
  }
  // A node is made for each place: its path is its version.
  expectOpen(job, file.path, file.path);
  const done = runJob(h.module, file.path, job, progress);
  if (done.ok) return done;
  // The file node's path means nothing to the caller: the reason names "the file". After a
  // failure the next job opens the place afresh.
  const reason = file.failure() ?? done.reason.split(file.path).join('the file');
  closeKept();
  return { ...done, reason };
}

async function run(job: ThreadJob, progress: (n: number) => void): Promise<Done> {
  if (job.size !== undefined) return runOnPlace(job, job.target, job.size, progress);
  const h5 = await hostBuild();
  expectOpen(job, job.target, hostVersion(job.target));
  return runJob(h5, job.target, job, progress);
}

/**
 * The job reads `path` in `version` (kept-file.ts). A tree job opens it afresh: the bytes
 * it answers (`bytesRead`) count the library's open too, the same whatever job came before.
 */
function expectOpen(job: ThreadJob, path: string, version: string): void {
  expectFile(path, version);
  if (job.kind === 'tree') closeKeptFile();
}

/** A host file's version; a file that cannot be stat'ed has none (the library's open says why). */
function hostVersion(path: string): string {
  try {
    return versionOf(path);
  } catch {
    return '';
  }
}

/** The buffer of a slice's typed array: moved to the caller, not copied. */
function transferable(done: Done): ArrayBuffer[] {
  if (!done.ok || !('values' in done.value)) return [];
  const v = done.value.values;
  return ArrayBuffer.isView(v) && v.buffer instanceof ArrayBuffer ? [v.buffer] : [];
}

const port = parentPort;
if (port) {
  const answer = async (id: number, job: ThreadJob) => {
    try {
      const before = bytesRead;
      const done = await run(job, (n) => port.postMessage({ id, progress: n }));
      jobDone(done.ok);
      if (done.ok && job.kind === 'tree') (done.value as RawTree).bytesRead = bytesRead - before;
      port.postMessage({ id, done }, transferable(done));
    } catch (e) {
      port.postMessage({ id, done: failed(e, true) });
    }
  };
  // Up to two jobs are sent at a time (worker.ts): each is answered in turn, the second
  // started once the first is answered, even while the library is still loading.
  let last: Promise<void> = Promise.resolve();
  port.on('message', ({ id, job }: { id: number; job: ThreadJob }) => {
    last = last.then(() => answer(id, job));
  });
}
