/**
 * A folder or an archive of many files → a draft BatchConfig: each data file listed by its
 * path inside, with its type and config; configs shared by several files of one kind folded
 * into that kind's default.
 */
import { basename } from 'node:path';
import {
  type Container,
  type ContainerKind,
  containerKind,
  InspectError,
  openContainer,
} from '../inspect/index.js';
import type { BatchFileConfig } from '../model/index.js';
import { issue } from '../model/plain.js';
import { MIN_MEMBERS_FOR_WORKERS } from '../values/index.js';
import { assembleBatch } from './batch-assemble.js';
import { examineMember, type MemberResult } from './batch-member.js';
import { finishDraft } from './finish.js';
import type { Draft, InferOptions } from './types.js';

export interface BatchOptions extends InferOptions {
  /** Fold configs shared by several files of one kind into `default*Config` (default true). */
  defaults?: boolean;
  /**
   * Files inspected at once (default 1). A folder of MIN_MEMBERS_FOR_WORKERS files or more is
   * shared by as many threads (this one and workers, at most one a core).
   */
  jobs?: number;
  /**
   * A folder shared by several threads: start the workers only once they pay for their
   * start (values/paying-start.ts; the CLI's default without `--jobs`); default false: at
   * once.
   */
  threadsAsTheyPay?: boolean;
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
    const jobs = options.jobs ?? 1;
    if (kind === 'folder' && jobs > 1 && (container.count ?? 0) >= MIN_MEMBERS_FOR_WORKERS)
      return { results: await walkInThreads(path, container, jobs, options), bytesRead: 0 };
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

/**
 * A folder's members examined by `jobs` threads (batch-threads.ts). Members left out by
 * their name are examined too (each says it is left out), as the one-thread walk does.
 */
async function walkInThreads(
  root: string,
  folder: Container,
  jobs: number,
  options: BatchOptions,
): Promise<MemberResult[]> {
  const paths: string[] = [];
  await folder.walk(async (member) => {
    paths.push(member.path);
  }, 1);
  const { onProgress: _p, onFiles, threadsAsTheyPay, jobs: _j, defaults: _d, ...rest } = options;
  // Loaded here: an inference of one file (or of a few members) never needs the pool.
  const { inferInThreads } = await import('./batch-threads.js');
  const count = folder.count ?? paths.length;
  const done = (n: number) => onFiles?.(n, count);
  return inferInThreads({ root, options: rest }, paths, jobs, done, threadsAsTheyPay === true);
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
