/**
 * One member of a batch's folder or archive, examined: its format, whether a batch could
 * list it, and (listed) its check against its own or its kind's default config, with the
 * issues moved under the batch's pointers. The walk of the batch (batch.ts) and its worker
 * threads (batch-worker.ts) both examine members with it.
 */
import {
  aFileOf,
  type ByteSource,
  detectFormat,
  type FileFormat,
  leftOutByContent,
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
} from '../model/plain.js';
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
export interface Seen {
  format: FileFormat;
  /** A data file a batch could list (not text, image, CH10...). */
  data: boolean;
  issues: Issue[];
}

export async function examine(
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
