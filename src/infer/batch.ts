/**
 * A folder or an archive of many files → a draft BatchConfig: each data file listed by its
 * path inside, with its type and config; configs shared by several files of one kind folded
 * into that kind's default.
 */
import { basename } from 'node:path';
import {
  archiveError,
  type ContainerKind,
  containerKind,
  hideRootInIssues,
  InspectError,
  inspectFormat,
  leftOutByName,
  memberTarget,
  openContainer,
  type Spill,
  UnpackError,
  withPrivateFolder,
  withUnpacked,
} from '../inspect/index.js';
import type { BatchFileConfig } from '../model/index.js';
import { issue } from '../model/plain.js';
import { assembleBatch } from './batch-assemble.js';
import { examineMember, type MemberResult } from './batch-member.js';
import { finishDraft } from './finish.js';
import { inferFormats } from './formats.js';
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
  const { results, bytesRead } =
    kind === 'folder'
      ? await walkAll(path, kind, undefined, options)
      : await withPrivateFolder(async (root) => {
          const walked = await walkAll(path, kind, spillByPath(root), options).catch(
            (err: unknown) => {
              throw err instanceof UnpackError ? archiveError(path, err.member, err) : err;
            },
          );
          return { ...walked, results: walked.results.map((r) => unpackedResult(r, root)) };
        });
  if (kind !== 'folder') await inferUnpacked(path, kind, results, options);
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
  spill: Spill | undefined,
  options: BatchOptions,
): Promise<{ results: MemberResult[]; bytesRead: number }> {
  const container = await openContainer(path, kind);
  const results: MemberResult[] = [];
  try {
    let done = 0;
    await container.walk(
      async (member, open) => {
        results.push(await examineMember(member.path, open, member.file, options));
        done += 1;
        options.onFiles?.(done, container.count ?? 0);
      },
      options.jobs ?? 1,
      spill,
    );
  } finally {
    await container.close();
  }
  return { results, bytesRead: container.bytesRead };
}

/** Extensions of the formats read by path (HDF5), whose archive members go to files. */
function byPathExtensions(): string[] {
  return inferFormats()
    .filter((f) => !f.inferSource)
    .flatMap((f) => inspectFormat(f.id)?.extensions ?? []);
}

/**
 * Has the walk write an archive's members of formats read by path (by their extension)
 * under `root` as it reads them, so the archive is read once; a member of such a format
 * under another name is left to `inferUnpacked`.
 */
function spillByPath(root: string): Spill {
  const extensions = byPathExtensions();
  return (member) => {
    const lower = member.toLowerCase();
    if (leftOutByName(member) || !extensions.some((e) => lower.endsWith(e))) return undefined;
    return memberTarget(root, member);
  };
}

/**
 * The members read by path (HDF5) that the walk of an archive could only list by type (a
 * name without their extension): unpacked to a private temporary folder (removed
 * afterwards) and inferred there as a folder's files are, their results replacing the
 * type-only ones in `results`.
 */
async function inferUnpacked(
  archive: string,
  kind: Exclude<ContainerKind, 'folder'>,
  results: MemberResult[],
  options: BatchOptions,
): Promise<void> {
  const wanted = new Set(results.filter((r) => r.outcome === 'type-only').map((r) => r.path));
  if (wanted.size === 0) return;
  const inferred = await withUnpacked(archive, kind, wanted, async (root) => {
    const folder = await openContainer(root, 'folder');
    const out: MemberResult[] = [];
    await folder.walk(async (member, open) => {
      out.push(unpackedResult(await examineMember(member.path, open, member.file, options), root));
    }, options.jobs ?? 1);
    return out;
  }).catch((err: unknown) => {
    throw err instanceof UnpackError ? archiveError(archive, err.member, err) : err;
  });
  for (const r of inferred) {
    const at = results.findIndex((x) => x.path === r.path);
    if (at >= 0) results[at] = r;
  }
}

/** A member's result inferred from its unpacked file, naming the member, not that file. */
function unpackedResult(r: MemberResult, root: string): MemberResult {
  if (r.outcome === 'failed') return { ...r, issues: hideRootInIssues(r.issues, root) };
  if (r.outcome === 'draft')
    return { ...r, draft: { ...r.draft, issues: hideRootInIssues(r.draft.issues, root) } };
  return r;
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
