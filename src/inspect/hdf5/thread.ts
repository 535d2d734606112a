/**
 * The HDF5 worker thread (started by worker.ts): loads h5wasm on the first job, then runs
 * each job it is sent with `runHdf5Job` and answers with its result; long jobs send their
 * progress after each slice.
 *
 * The job's target (a file, or a place: a file's range, a zip member's deflate data, a
 * tar.gz member) is read in place through a PlaceReader behind a file node of h5wasm's
 * in-memory file system (file-node.ts): the build of h5wasm used is the one with that file
 * system, `h5wasm`, not `h5wasm/node`, whose file system is the host's and cannot read a
 * member of an archive.
 */
import fs from 'node:fs';
import { resolve } from 'node:path';
import { parentPort } from 'node:worker_threads';
import { openPlaceReader, type PlaceReader } from '../place-reader.js';
import { type EmFs, placeFile } from './file-node.js';
import { type H5Module, type Hdf5Job, runHdf5Job } from './reader.js';

// The wasm runtime prints to stdout and stderr when the library aborts or decodes bad text:
// dropped here, never forwarded to the process's own streams (the reason reaches the
// caller in the job's result).
process.stdout.write = () => true;
process.stderr.write = () => true;

let h5: { module: H5Module; fs: EmFs } | undefined;

async function load(): Promise<{ module: H5Module; fs: EmFs }> {
  if (!h5) {
    const mod = await import('h5wasm');
    await mod.default.ready;
    // `FS` is set once `ready` has resolved.
    h5 = { module: mod.default, fs: mod.FS as unknown as EmFs };
  }
  return h5;
}

/** A reader of the job's target: a path is the whole file. */
function readerOf(job: Hdf5Job): PlaceReader {
  if (job.size !== undefined) return openPlaceReader(job.target, job.size);
  const path = resolve(job.target);
  return openPlaceReader({ kind: 'file', path, start: 0 }, fs.statSync(path).size);
}

type Done = ReturnType<typeof runHdf5Job>;

/** Runs a job on its target; a read that failed gives the job's reason. */
function run(h: { module: H5Module; fs: EmFs }, job: Hdf5Job, progress: (n: number) => void) {
  let reader: PlaceReader;
  try {
    reader = readerOf(job);
  } catch (e) {
    const reason = String((e as { message?: unknown } | undefined)?.message ?? e);
    return { ok: false, reason, wasmFailure: false } satisfies Done;
  }
  try {
    const file = placeFile(h.fs, reader);
    try {
      const done: Done = runHdf5Job(h.module, file.path, job, progress);
      const failure = file.failure();
      if (done.ok) return done;
      // The file node's path means nothing to the caller: the reason names "the file".
      const reason = failure ?? done.reason.split(file.path).join('the file');
      return { ...done, reason } satisfies Done;
    } finally {
      file.remove();
    }
  } finally {
    reader.close();
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
  port.on('message', async (job: Hdf5Job) => {
    try {
      const done = run(await load(), job, (n) => port.postMessage({ progress: n }));
      port.postMessage({ done }, transferable(done));
    } catch (e) {
      const reason = String((e as { message?: unknown } | undefined)?.message ?? e);
      port.postMessage({ done: { ok: false, reason, wasmFailure: true } });
    }
  });
}
