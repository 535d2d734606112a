/**
 * The member results of a walk → one BatchConfig document: listed files with their type and
 * config, configs shared by several files folded into their kind's default, issues and
 * evidence moved under each file's pointer.
 */
import { formatById } from '../inspect/index.js';
import type { BatchConfig, DataTypeKey } from '../model/index.js';
import {
  BATCH_FILE_KEYS,
  type BatchFileKey,
  batchDefaultKey,
  type Issue,
  isBatchFileKey,
  issue,
  pointer,
  pushAll,
  setOwn,
} from '../model/plain.js';
import type { MemberResult } from './batch-member.js';
import type { Draft, Evidence, InferOptions } from './types.js';

type FileKey = BatchFileKey;
/** The key a format's config has in a batch file entry; none for CH10 (listed by type only). */
/** The key a batch file entry holds a member's config under, from the format table. */
function keyOfFormat(format: string): FileKey | undefined {
  const key = formatById(format)?.config.key;
  return key !== undefined && isBatchFileKey(key) ? key : undefined;
}
/** Fields set once for the whole batch, or not needed in one (Parquet footers). */
const BATCH_LEVEL = new Set(['assetName', 'runName', 'runId', 'footerOffset', 'footerLength']);

/** One listed file, before folding. */
interface Listed {
  path: string;
  type: DataTypeKey;
  /** Its format's config key; none for a format a batch lists by its type only (CH10). */
  key: FileKey | undefined;
  config: Record<string, unknown> | undefined;
  draft: Draft | undefined;
  issues: Issue[];
}

function typeOf(format: string, config: Record<string, unknown> | undefined): DataTypeKey {
  const type = formatById(format)?.dataTypeKey?.(config);
  if (type === undefined) throw new TypeError(`no DataTypeKey for ${format}`);
  return type;
}

/** The file's own config, without what the batch sets once. */
function fileConfigOf(draft: Draft, key: FileKey): Record<string, unknown> | undefined {
  const whole = (draft.document as Record<string, unknown>)[key] as
    | Record<string, unknown>
    | undefined;
  if (!whole) return undefined;
  return Object.fromEntries(Object.entries(whole).filter(([k]) => !BATCH_LEVEL.has(k)));
}

/** Is this pointer (under a file config key) about a field the batch sets once? */
function batchLevelPath(path: string): boolean {
  const field = path.split('/')[2];
  return field !== undefined && BATCH_LEVEL.has(field);
}

function leftOutIssue(path: string, reason: string): Issue {
  return issue('batch_file_left_out', '/batchConfig/fileConfigs', `${path}: left out, ${reason}`, {
    source: { file: path },
  });
}

function listedOf(r: MemberResult): Listed | undefined {
  if (r.outcome === 'left-out') return undefined;
  const key = keyOfFormat(r.format);
  if (r.outcome === 'draft' && key) {
    const config = fileConfigOf(r.draft, key);
    const issues = r.draft.issues.filter((i) => !batchLevelPath(i.path));
    return { path: r.path, type: typeOf(r.format, config), key, config, draft: r.draft, issues };
  }
  const issues = r.outcome === 'failed' ? r.issues : [];
  return {
    path: r.path,
    type: typeOf(r.format, undefined),
    key,
    config: undefined,
    draft: undefined,
    issues,
  };
}

/** A canonical text of a config, to find files that share one. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/** Per config kind, the files whose config becomes the default: the largest group of 2 or more. */
function foldedGroups(listed: readonly Listed[]): Map<FileKey, Listed[]> {
  const out = new Map<FileKey, Listed[]>();
  for (const key of BATCH_FILE_KEYS) {
    const groups = new Map<string, Listed[]>();
    for (const l of listed) {
      if (l.key !== key || !l.config || l.issues.some((i) => i.severity === 'error')) continue;
      const text = canonical(l.config);
      groups.set(text, [...(groups.get(text) ?? []), l]);
    }
    let best: Listed[] = [];
    for (const g of groups.values()) if (g.length > best.length) best = g;
    if (best.length >= 2) out.set(key, best);
  }
  return out;
}

/** Moves a file's pointer (`/csvConfig/...`) to where its config now lives in the batch. */
function repoint(path: string, key: FileKey, base: string): string {
  if (path === '' || path === '/') return base;
  if (path.startsWith(`/${key}`)) return base + path.slice(key.length + 1);
  return base + path;
}

/** Where a file's pointers go: under its own entry, or into its kind's default when folded. */
function mover(l: Listed, folded: boolean): (path: string) => string {
  const key = l.key;
  if (folded && key) {
    const base = `/batchConfig/${batchDefaultKey(key)}`;
    return (path) => repoint(path, key, base);
  }
  const entry = pointer('batchConfig', 'fileConfigs', l.path);
  return (path) => (path === '' ? entry : entry + path);
}

function movedEvidence(l: Listed, move: (path: string) => string): Evidence[] {
  return (l.draft?.evidence ?? [])
    .filter((e) => !batchLevelPath(e.path))
    .map((e) => ({ ...e, path: move(e.path) }));
}

function movedIssues(l: Listed, move: (path: string) => string): Issue[] {
  return l.issues.map((i) => ({ ...i, path: move(i.path), source: { ...i.source, file: l.path } }));
}

function foldEvidence(key: FileKey, group: readonly Listed[]): Evidence {
  return {
    path: `/batchConfig/${batchDefaultKey(key)}`,
    choice: `the config of ${group.length} files`,
    reason: `${group.map((l) => l.path).join(', ')} share this config: they list only their type (the \`defaults: false\` option keeps every config whole)`,
    confidence: 'high',
  };
}

function noDataIssue(name: string, leftOut: number): Issue {
  return issue(
    'batch_no_data_files',
    '/batchConfig/fileConfigs',
    `${name}: no data file to list (${leftOut} file(s) left out)`,
    {
      hint: 'Check that this is the folder or archive you meant; batches import CSV, Parquet, HDF5, TDMS, CH10 and ULog files.',
    },
  );
}

export interface AssembleOptions {
  assetName?: string;
  runName?: string;
  /** Fold shared configs into `default*Config` (default true). */
  defaults?: boolean;
}

/** The draft BatchConfig of a walk's results (sorted by path), before validation. */
export function assembleBatch(
  results: readonly MemberResult[],
  name: string,
  options: AssembleOptions & InferOptions = {},
): Draft {
  const byPath = new Map<string, Listed>();
  for (const r of results) {
    const l = listedOf(r);
    if (l) byPath.set(r.path, l);
  }
  const listed = [...byPath.values()];
  const folded = options.defaults === false ? new Map<FileKey, Listed[]>() : foldedGroups(listed);
  const batch: BatchConfig = { assetName: options.assetName ?? name };
  if (options.runName !== undefined) batch.runName = options.runName;
  const evidence: Evidence[] = [
    {
      path: '/batchConfig/assetName',
      choice: batch.assetName ?? name,
      reason: options.assetName !== undefined ? 'given' : 'the folder or archive name',
      confidence: options.assetName !== undefined ? 'high' : 'medium',
    },
  ];
  for (const [key, group] of folded) {
    const first = group[0] as Listed;
    Object.assign(batch, { [batchDefaultKey(key)]: first.config });
    evidence.push(foldEvidence(key, group));
    pushAll(evidence, movedEvidence(first, mover(first, true)));
  }
  const issues: Issue[] = [];
  const fileConfigs: NonNullable<BatchConfig['fileConfigs']> = {};
  for (const r of results) {
    const l = byPath.get(r.path);
    if (!l) {
      if (r.outcome === 'left-out') issues.push(leftOutIssue(r.path, r.reason));
      continue;
    }
    const isFolded = (l.key && folded.get(l.key)?.includes(l)) ?? false;
    const move = mover(l, isFolded);
    pushAll(issues, movedIssues(l, move));
    // A file whose inference failed is not listed: its issues say why, under its pointer.
    if (r.outcome === 'failed') continue;
    setOwn(
      fileConfigs,
      l.path,
      isFolded || !l.config || !l.key ? { type: l.type } : { type: l.type, [l.key]: l.config },
    );
    if (!isFolded) pushAll(evidence, movedEvidence(l, move));
  }
  batch.fileConfigs = fileConfigs;
  if (listed.length === 0) issues.push(noDataIssue(name, results.length));
  return { document: { batchConfig: batch }, kind: 'batch', evidence, issues };
}
