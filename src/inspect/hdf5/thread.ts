/**
 * The HDF5 worker thread (started by worker.ts): loads h5wasm (its Node build, reading the
 * file in place) on the first job, then runs each job it is sent with `runHdf5Job` and
 * answers with its result; long jobs send their progress after each slice.
 */
import { parentPort } from 'node:worker_threads';
import { type H5Module, type Hdf5Job, runHdf5Job } from './reader.js';

// The wasm runtime prints to stdout and stderr when the library aborts or decodes bad text:
// dropped here, never forwarded to the process's own streams (the reason reaches the
// caller in the job's result).
process.stdout.write = () => true;
process.stderr.write = () => true;

let h5: H5Module | undefined;

async function load(): Promise<H5Module> {
  if (!h5) {
    const mod = await import('h5wasm/node');
    await mod.default.ready;
    h5 = mod.default;
  }
  return h5;
}

/** The buffer of a slice's typed array: moved to the caller, not copied. */
function transferable(done: ReturnType<typeof runHdf5Job>): ArrayBuffer[] {
  if (!done.ok || !('values' in done.value)) return [];
  const v = done.value.values;
  return ArrayBuffer.isView(v) && v.buffer instanceof ArrayBuffer ? [v.buffer] : [];
}

const port = parentPort;
if (port) {
  port.on('message', async (job: Hdf5Job) => {
    try {
      const done = runHdf5Job(await load(), job, (n) => port.postMessage({ progress: n }));
      port.postMessage({ done }, transferable(done));
    } catch (e) {
      const reason = String((e as { message?: unknown } | undefined)?.message ?? e);
      port.postMessage({ done: { ok: false, reason, wasmFailure: true } });
    }
  });
}
