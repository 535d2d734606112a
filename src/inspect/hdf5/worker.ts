import { Worker } from 'node:worker_threads';
import { type ReadOptions, type ReadResult, readHdf5Tree } from './reader.js';

/**
 * Runs `readHdf5Tree` in a worker thread that loads h5wasm (its Node build, reading the
 * file in place) on first use and is kept for later files. The worker does not keep the
 * process alive while idle. A read that takes longer than the time limit (the HDF5 library
 * can loop forever on some damaged metadata) terminates the worker: the next read starts a
 * fresh one.
 */
export type WorkerResult = ReadResult | { ok: false; reason: string; timedOut: true };

let worker: Worker | undefined;
let queue: Promise<unknown> = Promise.resolve();

function workerSource(h5url: string): string {
  return `'use strict';
var __name = (f) => f;
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const readHdf5Tree = (${readHdf5Tree.toString()});
let h5;
parentPort.on('message', async (job) => {
  try {
    if (!h5) {
      const mod = await import(${JSON.stringify(h5url)});
      await mod.default.ready;
      h5 = mod.default;
    }
    parentPort.postMessage(readHdf5Tree(h5, fs, job.path, job.options));
  } catch (e) {
    parentPort.postMessage({ ok: false, reason: String((e && e.message) || e), wasmFailure: true });
  }
});
`;
}

function start(): Worker {
  const w = new Worker(workerSource(import.meta.resolve('h5wasm/node')), {
    eval: true,
    stdout: false,
    stderr: false,
  });
  w.unref();
  return w;
}

function runOne(path: string, options: ReadOptions, timeoutMs: number): Promise<WorkerResult> {
  worker ??= start();
  const w = worker;
  return new Promise<WorkerResult>((resolve) => {
    const finish = (result: WorkerResult, kill: boolean) => {
      clearTimeout(timer);
      w.off('message', onMessage);
      w.off('error', onError);
      w.off('exit', onExit);
      w.unref();
      if (kill) {
        if (worker === w) worker = undefined;
        void w.terminate();
      }
      resolve(result);
    };
    const onMessage = (m: ReadResult) => finish(m, !m.ok && m.wasmFailure);
    const onError = (e: Error) => finish({ ok: false, reason: e.message, wasmFailure: true }, true);
    const onExit = (code: number) =>
      finish(
        { ok: false, reason: `the reader stopped (exit code ${code})`, wasmFailure: true },
        true,
      );
    const timer = setTimeout(
      () =>
        finish(
          {
            ok: false,
            reason: `the HDF5 library did not finish reading it within ${Math.round(timeoutMs / 1000)} s`,
            timedOut: true,
          },
          true,
        ),
      timeoutMs,
    );
    w.on('message', onMessage);
    w.on('error', onError);
    w.on('exit', onExit);
    w.ref();
    w.postMessage({ path, options });
  });
}

/** Reads the tree of one file in the worker; reads run one at a time. */
export function readTreeInWorker(
  path: string,
  options: ReadOptions,
  timeoutMs: number,
): Promise<WorkerResult> {
  const next = queue.then(() => runOne(path, options, timeoutMs));
  queue = next.catch(() => undefined);
  return next;
}
