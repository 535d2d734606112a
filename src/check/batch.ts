/**
 * Check of a BatchConfig against its folder or archive: every listed file is there (did you
 * mean), its type matches its format, each listed file fits its own or default config, and
 * data files present but not listed are reported.
 */
import {
  aFileOf,
  type ByteSource,
  type ContainerKind,
  containerKind,
  detectFormat,
  type FileFormat,
  leftOutByContent,
  leftOutByName,
  openContainer,
} from '../inspect/index.js';
import type { BatchConfig, BatchFileConfig, ImportDocument } from '../model/index.js';
import {
  type BatchFileKey,
  batchDefaultKey,
  DATA_TYPE_KEY_KIND,
  type Issue,
  isBatchFileKey,
  issue,
  ownValue,
  pointer,
  pushAll,
} from '../model/plain.js';
import { notFoundHint, pathSuggester } from '../validate/index.js';
import { checkSource } from './dispatch.js';
import type { CheckOptions } from './options.js';

type FileKey = BatchFileKey;

/** A listed file's config (its own or its kind's default) and where that config lives. */
function configOf(
  batch: BatchConfig,
  path: string,
  entry: BatchFileConfig,
): { document: ImportDocument; key: FileKey; base: string } | undefined {
  const kind =
    entry.type === 'DATA_TYPE_KEY_UNSPECIFIED' ? undefined : DATA_TYPE_KEY_KIND[entry.type];
  const key = `${kind}Config`;
  if (!isBatchFileKey(key)) return undefined;
  const own = entry[key];
  if (own)
    return { document: { [key]: own }, key, base: pointer('batchConfig', 'fileConfigs', path) };
  const shared = batch[batchDefaultKey(key)];
  if (shared)
    return { document: { [key]: shared }, key, base: `/batchConfig/${batchDefaultKey(key)}` };
  return undefined;
}

/** A member's check issues, moved under the batch's pointer for its config. */
function moved(issues: readonly Issue[], key: FileKey, base: string, member: string): Issue[] {
  return issues.map((i) => {
    const own = base.startsWith('/batchConfig/fileConfigs/');
    const rest = own
      ? i.path
      : i.path.startsWith(`/${key}`)
        ? i.path.slice(key.length + 1)
        : i.path;
    return { ...i, path: base + rest, source: { ...i.source, file: member } };
  });
}

function typeIssue(path: string, entry: BatchFileConfig, format: FileFormat): Issue | undefined {
  if (entry.type === 'DATA_TYPE_KEY_UNSPECIFIED') return undefined;
  const kind = DATA_TYPE_KEY_KIND[entry.type];
  if (kind === format) return undefined;
  const what = aFileOf(format);
  return issue(
    'batch_type_mismatch',
    `${pointer('batchConfig', 'fileConfigs', path)}/type`,
    `${path} is ${what}, but it is listed as ${entry.type}`,
    {
      hint: "Set the file's type to its format.",
      source: { file: path },
    },
  );
}

/** What the walk saw of one member. */
interface Seen {
  format: FileFormat;
  /** A data file a batch could list (not text, image, CH10...). */
  data: boolean;
  issues: Issue[];
}

async function examine(
  batch: BatchConfig,
  path: string,
  source: ByteSource,
  options: CheckOptions,
): Promise<Seen> {
  const detection = await detectFormat(source);
  const format = detection.format;
  const data = leftOutByContent(path, format, detection.by) === undefined;
  const entry = ownValue(batch.fileConfigs, path);
  if (!entry) return { format, data, issues: [] };
  const mismatch = typeIssue(path, entry, format);
  if (mismatch) return { format, data, issues: [mismatch] };
  const config = configOf(batch, path, entry);
  if (!config) return { format, data, issues: [] };
  const found = await checkSource(config.document, source, options);
  return { format, data, issues: moved(found, config.key, config.base, path) };
}

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

/** The options each member is checked with: its share of the jobs, no progress of its own. */
function memberOptions(
  options: CheckOptions,
  jobs: number,
  members: number | undefined,
): CheckOptions {
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
