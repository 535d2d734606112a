/**
 * What `importFile` does before a batch is sent: the folder or archive is checked against
 * its BatchConfig (as `importkit check` does) and refused on errors, before an import exists.
 */
import { stat } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import type { CheckOptions } from '../check/index.js';
import type { ContainerKind } from '../inspect/index.js';
import type { BatchConfig } from '../model/index.js';
import type { Issue } from '../model/plain.js';
import type { CheckWorkerInput, FromCheckWorker } from './check-worker.js';
import { BatchCheckError, FileError } from './errors.js';

/** A batch ready to upload: a folder (zipped as it goes) or an archive (sent as it is). */
export interface BatchPlan {
  kind: ContainerKind;
  /** The listed paths, in order: the members of the zip made from a folder. */
  members: string[];
}

/**
 * Checks `path` (a folder, zip, tar or tar.gz) against the batch: FileError when it is not
 * one, BatchCheckError (with every issue) when the check finds errors.
 */
export async function planBatch(
  path: string,
  batch: BatchConfig,
  options: { jobs?: number } = {},
): Promise<BatchPlan> {
  const { containerKind } = await import('../inspect/index.js');
  const kind = await containerKind(path);
  if (!kind) {
    const exists = await stat(path).catch(() => undefined);
    if (!exists) throw new FileError(path, 'no such file or folder', { errno: 'ENOENT' });
    throw new FileError(
      path,
      'not a folder or a zip, tar or tar.gz archive (a BatchConfig imports one of those)',
      {},
    );
  }
  const issues = await checkBatchApart(batch, path, { jobs: options.jobs ?? 1 });
  if (issues.some((i) => i.severity === 'error')) throw new BatchCheckError(path, issues);
  return { kind, members: Object.keys(batch.fileConfigs ?? {}) };
}

/** The options of a check run apart: all but progress, which would have to cross threads. */
export type ApartCheckOptions = Omit<CheckOptions, 'onProgress'>;

// The worker module sits beside this one: check-worker.js in dist/; under the tests, the
// TypeScript source (the tests' module hooks load it, as for the CSV scan workers).
const CHECK_WORKER = new URL('./check-worker.js', import.meta.url);

/**
 * Heap limits of the check's thread. The check makes much short-lived garbage (cells,
 * records, issues of every member): a young generation of 4 MiB is collected often and
 * stays small, where the default (16 MiB a semi-space, grown to fit) would keep tens of MB
 * of heap. 256 MiB of old generation is far above what a sampled check holds; a check that
 * needs more ends the worker, and the check runs again in this thread, without the limit.
 */
const CHECK_LIMITS = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 256 };

/**
 * `checkBatch` (check's entry) run in a worker thread of its own that ends with the check,
 * so that what the check leaves behind (its heap, the modules of every format it read) is
 * given back before the upload starts, instead of adding to the upload's memory. When the
 * worker cannot start (its module missing, say in a bundle) or fails in any way (a damaged
 * archive, a crash, its heap limit), the check runs again in this thread: the same issues,
 * or the same error thrown as checking here throws it.
 */
export async function checkBatchApart(
  batch: BatchConfig,
  path: string,
  options: ApartCheckOptions = {},
  worker: URL = CHECK_WORKER,
): Promise<Issue[]> {
  const apart = await checkInWorker({ batch, path, options }, worker);
  if (apart) return apart;
  const { checkBatch } = await import('../check/index.js');
  return checkBatch(batch, path, options);
}

/** The issues the worker at `url` posts, or undefined when it could not start or failed. */
export function checkInWorker(
  input: CheckWorkerInput,
  url: URL = CHECK_WORKER,
): Promise<Issue[] | undefined> {
  let worker: Worker;
  try {
    worker = new Worker(url, { workerData: input, resourceLimits: CHECK_LIMITS });
  } catch {
    return Promise.resolve(undefined);
  }
  return new Promise((resolve) => {
    // The first of these settles the answer; the worker is ended before it is given.
    let settled = false;
    const settle = (issues: Issue[] | undefined) => {
      if (settled) return;
      settled = true;
      void worker.terminate().then(() => resolve(issues));
    };
    worker.on('message', (m: FromCheckWorker) => settle(m.ok ? m.issues : undefined));
    worker.on('error', () => settle(undefined));
    worker.on('exit', () => settle(undefined));
  });
}
