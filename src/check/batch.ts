/**
 * Check of a BatchConfig against its folder or archive: every listed file is there (did you
 * mean), its type matches its format, each listed file fits its own or default config, and
 * data files present but not listed are reported.
 */
import {
  type Container,
  type ContainerKind,
  containerKind,
  leftOutByName,
  openContainer,
} from '../inspect/index.js';
import type { BatchConfig } from '../model/index.js';
import { type Issue, issue, pointer, pushAll } from '../model/plain.js';
import { notFoundHint, pathSuggester } from '../validate/index.js';
import { MIN_MEMBERS_FOR_WORKERS } from '../values/index.js';
import { examine, type Seen } from './batch-member.js';
import type { CheckOptions } from './options.js';

function missingIssue(
  path: string,
  present: readonly string[],
  near: (path: string) => string | undefined,
): Issue {
  return issue(
    'batch_file_missing',
    pointer('batchConfig', 'fileConfigs', path),
    `${path} is listed but not in the folder or archive`,
    {
      hint: notFoundHint(
        path,
        present,
        'Paths are relative, with /, exactly as the archive holds them; it holds',
        near(path),
      ),
    },
  );
}

/**
 * The listed paths that are not there, each with its "did you mean" among the paths present
 * (sorted): one suggester for them all, so that N missing paths against M present cost about
 * N, not N × M, comparisons.
 */
export function missingIssues(missing: readonly string[], present: readonly string[]): Issue[] {
  const near = pathSuggester(present);
  return missing.map((p) => missingIssue(p, present, near));
}

function notListedIssue(path: string): Issue {
  return issue(
    'batch_file_not_listed',
    '/batchConfig/fileConfigs',
    `${path} is a data file of the folder or archive but is not listed: it will not be imported`,
    { source: { file: path } },
  );
}

/**
 * Checks a BatchConfig against the folder or archive it imports, `jobs` members at a time
 * (default 2; a CSV `--full` scan of each shares the jobs left, as several config/data
 * pairs do). `onProgress` counts the members done of those the folder, zip or tar holds (a
 * tar.gz is read as a stream: its count is not known before). The archive is walked once,
 * and each listed member is checked where it lies, through its byte source, as a folder's
 * file is (nothing is extracted; an HDF5 member is the one exception for now: see
 * `hdf5FileOf`). Issues name the members. Throws InspectError when the archive is damaged.
 */
export async function checkBatch(
  batch: BatchConfig,
  path: string,
  options: CheckOptions = {},
): Promise<Issue[]> {
  const kind = await containerKind(path);
  if (!kind)
    return [
      issue(
        'data_format_mismatch',
        '/batchConfig',
        `${path} is not a folder, a zip, a tar or a tar.gz archive, but the config is a BatchConfig`,
        { hint: 'Give the folder or the archive the batch imports.', source: { file: path } },
      ),
    ];
  return assemble(batch, await walkMembers(batch, { path, kind }, options));
}

/**
 * What the walk sees of each member of the folder or archive at `path`; the listed members
 * are checked against their configs through their sources, read in place.
 */
async function walkMembers(
  batch: BatchConfig,
  { path, kind }: { path: string; kind: ContainerKind },
  options: CheckOptions,
): Promise<Map<string, Seen>> {
  const container = await openContainer(path, kind);
  const seen = new Map<string, Seen>();
  const jobs = Math.max(1, Math.floor(options.jobs ?? 2));
  const each = memberOptions(options, jobs, container.count);
  let done = 0;
  try {
    if (kind === 'folder' && jobs > 1 && (container.count ?? 0) >= MIN_MEMBERS_FOR_WORKERS)
      return await walkInThreads(batch, path, container, each, jobs, options);
    await container.walk(async (member, open) => {
      if (!leftOutByName(member.path)) {
        const source = await open();
        try {
          seen.set(member.path, await examine(batch, member.path, source, each));
        } finally {
          await source.close();
        }
      }
      done += 1;
      if (container.count !== undefined) options.onProgress?.(done, container.count);
    }, jobs);
  } finally {
    await container.close();
  }
  return seen;
}

/**
 * A folder's members examined by `jobs` threads (batch-threads.ts), each member with `each`
 * (memberOptions: one job a member, no progress of its own).
 */
async function walkInThreads(
  batch: BatchConfig,
  root: string,
  folder: Container,
  each: Omit<CheckOptions, 'onProgress'>,
  jobs: number,
  { onProgress, threadsAsTheyPay }: Pick<CheckOptions, 'onProgress' | 'threadsAsTheyPay'>,
): Promise<Map<string, Seen>> {
  const paths = await memberPaths(folder);
  const count = folder.count ?? paths.length;
  // Members left out by their name count as done from the start, as the walk counts them.
  const progress = (done: number) => onProgress?.(done + count - paths.length, count);
  // Loaded here: a check of one file (or of a few members) never needs the worker pool.
  const { examineInThreads } = await import('./batch-threads.js');
  const input = { batch, root, options: each };
  return examineInThreads(input, paths, jobs, progress, threadsAsTheyPay === true);
}

/** The paths of the members a batch examines (those not left out by their name). */
async function memberPaths(container: Container): Promise<string[]> {
  const paths: string[] = [];
  await container.walk(async (member) => {
    if (!leftOutByName(member.path)) paths.push(member.path);
  }, 1);
  return paths;
}

/** The options each member is checked with: its share of the jobs, no progress of its own. */
function memberOptions(
  options: CheckOptions,
  jobs: number,
  members: number | undefined,
): Omit<CheckOptions, 'onProgress'> {
  const { onProgress: _, ...rest } = options;
  const atOnce = Math.max(1, Math.min(jobs, members ?? jobs));
  return { ...rest, jobs: Math.max(1, Math.floor(jobs / atOnce)) };
}

function assemble(batch: BatchConfig, seen: Map<string, Seen>): Issue[] {
  const listed = Object.keys(batch.fileConfigs ?? {});
  const isListed = new Set(listed);
  const present = [...seen.keys()].sort();
  const issues: Issue[] = [];
  pushAll(
    issues,
    missingIssues(
      listed.filter((p) => !seen.has(p)),
      present,
    ),
  );
  for (const p of present) {
    const s = seen.get(p) as Seen;
    if (isListed.has(p)) pushAll(issues, s.issues);
    else if (s.data) issues.push(notListedIssue(p));
  }
  return issues;
}
