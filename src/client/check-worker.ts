/**
 * The worker thread of the batch check that runs before an upload (batch.ts
 * `checkBatchApart`): it checks the folder or archive against its BatchConfig, posts the
 * issues and ends. Any failure posts `ok: false`; the caller then checks in its own thread,
 * where the error (a damaged archive, say) is met again and thrown as it would be there.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type CheckOptions, checkBatch } from '../check/index.js';
import type { BatchConfig } from '../model/index.js';
import type { Issue } from '../model/plain.js';

export interface CheckWorkerInput {
  batch: BatchConfig;
  path: string;
  options: Omit<CheckOptions, 'onProgress'>;
}

export type FromCheckWorker = { ok: true; issues: Issue[] } | { ok: false; error: string };

const port = parentPort;
if (port) {
  const { batch, path, options } = workerData as CheckWorkerInput;
  const send = (m: FromCheckWorker) => port.postMessage(m);
  checkBatch(batch, path, options)
    .then((issues) => send({ ok: true, issues }))
    .catch((e: unknown) => send({ ok: false, error: e instanceof Error ? e.message : String(e) }));
}
