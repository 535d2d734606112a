/**
 * A folder or an archive of many files → a draft BatchConfig: each data file listed by its
 * path inside, with its type and config; configs shared by several files of one kind folded
 * into that kind's default.
 */
import { basename } from 'node:path';
import {
  type ContainerKind,
  containerKind,
  InspectError,
  openContainer,
} from '../inspect/index.js';
import type { BatchFileConfig } from '../model/index.js';
import { issue } from '../model/plain.js';
import { assembleBatch } from './batch-assemble.js';
import { examineMember, type MemberResult } from './batch-member.js';
import { finishDraft } from './finish.js';
import type { Draft, InferOptions } from './types.js';

export interface BatchOptions extends InferOptions {
  /** Fold configs shared by several files of one kind into `default*Config` (default true). */
  defaults?: boolean;
  /** Files inspected at once (default 1). */
  jobs?: number;
  /** Files done of the total (the total is 0 while a streamed archive is still being read). */
  onFiles?: (done: number, total: number) => void;
}

/** A batch draft, with what the walk read. */
export interface BatchDraft extends Draft {
  /** Bytes read from the archive file (0 for a folder). */
  archiveBytesRead: number;
  /** Paths listed, in order. */
  listed: string[];
}

/**
 * Walks a folder or an archive (zip, tar, tar.gz; read in place, never extracted) and infers
 * one draft BatchConfig for its data files. A file that cannot be inferred gives its issues
 * under its own pointer and does not stop the others. Throws InspectError when the path is
 * not a folder or an archive, or when the archive is damaged.
 */
export async function inferBatch(path: string, options: BatchOptions = {}): Promise<BatchDraft> {
  const kind = await containerKind(path);
  if (!kind) throw notAContainer(path);
  const { results, bytesRead } = await walkAll(path, kind, options);
  results.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const draft = finishDraft(assembleBatch(results, batchName(path), options));
  return {
    ...draft,
    archiveBytesRead: bytesRead,
    listed: Object.keys(
      (draft.document.batchConfig?.fileConfigs ?? {}) as Record<string, BatchFileConfig>,
    ),
  };
}

/** Every member of the folder or archive examined, `jobs` at a time. */
async function walkAll(
  path: string,
  kind: ContainerKind,
  options: BatchOptions,
): Promise<{ results: MemberResult[]; bytesRead: number }> {
  const container = await openContainer(path, kind);
  const results: MemberResult[] = [];
  try {
    let done = 0;
    await container.walk(async (member, open) => {
      results.push(await examineMember(member.path, open, member.file, options));
      done += 1;
      options.onFiles?.(done, container.count ?? 0);
    }, options.jobs ?? 1);
  } finally {
    await container.close();
  }
  return { results, bytesRead: container.bytesRead };
}

/** The batch's asset name by default: the folder's or archive's name without its extension. */
export function batchName(path: string): string {
  return basename(path.replace(/[/\\]+$/, '')).replace(/\.(zip|tar|tgz|tar\.gz)$/i, '');
}

function notAContainer(path: string): InspectError {
  return new InspectError(
    issue('batch_no_data_files', '', `${path}: not a folder, a zip, a tar or a tar.gz archive`, {
      hint: 'Give a folder or an archive of data files (or a single data file to `importkit infer`).',
      source: { file: path },
    }),
  );
}
