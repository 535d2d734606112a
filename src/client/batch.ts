/**
 * What `importFile` does before a batch is sent: the folder or archive is checked against
 * its BatchConfig (as `importkit check` does) and refused on errors, before an import exists.
 */
import { stat } from 'node:fs/promises';
import type { ContainerKind } from '../inspect/index.js';
import type { BatchConfig } from '../model/index.js';
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
  const { checkBatch } = await import('../check/index.js');
  const issues = await checkBatch(batch, path, { jobs: options.jobs ?? 1 });
  if (issues.some((i) => i.severity === 'error')) throw new BatchCheckError(path, issues);
  return { kind, members: Object.keys(batch.fileConfigs ?? {}) };
}
