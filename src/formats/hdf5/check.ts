/**
 * Checks an Hdf5Config against an HDF5 file from its structure (h5wasm, no data loaded):
 * every dataset, member and index the config names exists (with "did you mean"), time and
 * value datasets have the same length, declared channel types fit the stored types, and
 * the first and last time values parse in the declared unit and go forward. With `full`,
 * every value of the time and value datasets is read (in slices, formats/hdf5/values.ts; with
 * several `jobs`, ranges of rows in several HDF5 threads, jobs.ts): time
 * order, repeats and NaN; NaN/±inf, integers outside the declared type, unknown ENUM keys
 * and BOOL values other than 0/1 in the channels. Every read of the file runs
 * in the HDF5 worker with its time limit: a file on which the HDF5 library loops gives an
 * InspectError (`hdf5_unreadable`), never a hang.
 */

import { fitOf } from '../../check/shared.js';
import type { ByteSource } from '../../inspect/shared.js';
import type { ChannelDataType, Hdf5Config } from '../../model/index.js';
import { type Issue, issue, pointer, pushAll } from '../../model/plain.js';
import { listSome, notFoundHint } from '../../validate/index.js';
import { shortName, withoutRestatedTypeIssues } from '../../values/index.js';
import { hdf5ChannelTypeOf } from './channel-types.js';
import { type Hdf5Dataset, type Hdf5Type, inspectHdf5 } from './inspect.js';
import { hdf5FullValueIssues, hdf5JobThreads } from './jobs.js';
import { hdf5TimeIssues } from './time-issues.js';
import { hdf5ChannelRead, type ReadGroup } from './values.js';
import { closeThreads } from './worker.js';

export interface Hdf5CheckOptions {
  full?: boolean;
  onProgress?: (done: number, total: number) => void;
  key?: string;
  /** Time limit of each read of the HDF5 library, in ms (default: that of `inspectHdf5`). */
  timeoutMs?: number;
  /** `full`: HDF5 threads reading the values (default 1; jobs.ts). */
  jobs?: number | undefined;
  /** `full` with several jobs: the most bytes of rows a thread reads as one range. */
  rangeBytes?: number | undefined;
}

type Part = { type: Hdf5Type; column: number | string | undefined };
type Entry = NonNullable<Hdf5Config['data']>[number];
type At = (...t: Array<string | number>) => string;
type TimeLimit = { timeoutMs?: number };

/** What the checks of the entries share: the file's datasets, those used, the issues found. */
interface Hdf5Scope {
  dataPath: string;
  byPath: Map<string, Hdf5Dataset>;
  paths: string[];
  used: Set<string>;
  issues: Issue[];
  /** What `full` reads: each time dataset (and column) with the channels it times. */
  groups: Map<string, ReadGroup>;
  /** `full`: every value is read, and judged there. */
  full: boolean;
}

/**
 * Checks an Hdf5Config against an HDF5 file, by its path or through a byte source (an
 * archive's member, read in place); issues name the path or the source's name.
 */
export async function checkHdf5(
  config: Hdf5Config,
  data: string | ByteSource,
  options: Hdf5CheckOptions = {},
): Promise<Issue[]> {
  const dataPath = typeof data === 'string' ? data : data.name;
  const key = options.key ?? 'hdf5Config';
  const at: At = (...t) => pointer(key, ...t);
  const entries = config.data ?? [];
  const timePaths = [...new Set(entries.map((e) => e.timeDataset).filter((p): p is string => !!p))];
  const limit: TimeLimit = options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };
  const read = {
    ...limit,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    jobs: options.jobs,
    rangeBytes: options.rangeBytes,
  };
  // Several jobs: their threads load while the structure is read (jobs.ts).
  const threads = options.full ? hdf5JobThreads(data, read) : undefined;
  try {
    const profile = await inspectHdf5(data, { sample: timePaths, ...limit });
    const byPath = new Map(profile.datasets.map((d) => [d.path, d]));
    const scope: Hdf5Scope = {
      dataPath,
      byPath,
      paths: [...byPath.keys()],
      used: new Set<string>(),
      issues: [],
      groups: new Map(),
      full: options.full === true,
    };
    entries.forEach((e, i) => {
      checkEntry(scope, config, e, i, at);
    });
    if (options.full) {
      const groups = [...scope.groups.values()];
      pushAll(scope.issues, await hdf5FullValueIssues(data, groups, read, threads));
    }
    pushAll(scope.issues, unusedDatasetIssues(profile.datasets, scope.used, at('data'), dataPath));
    return withoutRestatedTypeIssues(scope.issues);
  } finally {
    if (threads) await closeThreads(threads);
  }
}

/** One entry of `data`: its datasets, their parts, lengths, declared type and time. */
function checkEntry(scope: Hdf5Scope, config: Hdf5Config, e: Entry, i: number, at: At): void {
  const { issues, dataPath } = scope;
  const p = (k: string) => at('data', i, k);
  const t = findDataset(scope, e.timeDataset, p('timeDataset'), 'time dataset');
  const v = findDataset(scope, e.valueDataset, p('valueDataset'), 'value dataset');
  const tp = t
    ? elementPart(scope, t, e.timeField, e.timeIndex, p('timeField'), p('timeIndex'), 'time')
    : undefined;
  const vp = v
    ? elementPart(scope, v, e.valueField, e.valueIndex, p('valueField'), p('valueIndex'), 'value')
    : undefined;
  if (t && v && t.shape && v.shape && t.shape[0] !== v.shape[0]) {
    issues.push(
      issue(
        'dataset_length_mismatch',
        p('valueDataset'),
        `'${v.path}' has ${v.shape[0]} rows but its time dataset '${t.path}' has ${t.shape[0]}`,
        {
          source: { file: dataPath, dataset: v.path },
        },
      ),
    );
  }
  const declared = e.channelConfig?.dataType;
  if (vp && declared && declared !== 'CHANNEL_DATA_TYPE_UNSPECIFIED') {
    const issue = valueTypeIssue(
      v,
      vp,
      declared,
      at('data', i, 'channelConfig', 'dataType'),
      dataPath,
    );
    if (issue) issues.push(issue);
  }
  const key = t && tp ? `${t.path}#${String(tp.column)}` : '';
  if (t && tp && config.timeFormat && !scope.groups.has(key)) {
    scope.groups.set(key, {
      time: { dataset: t, column: tp.column, ptr: p('timeDataset'), format: config.timeFormat },
      channels: [],
    });
    pushAll(
      issues,
      hdf5TimeIssues(t, tp, config.timeFormat, at('timeFormat'), dataPath, scope.full),
    );
  }
  const channel =
    v && vp
      ? hdf5ChannelRead(e, v, vp, at('data', i, 'channelConfig'), storedTypeOf(vp.type))
      : undefined;
  if (channel) {
    const group = scope.groups.get(key) ?? { channels: [] };
    scope.groups.set(key, group);
    group.channels.push(channel);
  }
}

/** The channel type the stored values have, if they have one. */
function storedTypeOf(t: Hdf5Type): ChannelDataType | undefined {
  const stored = hdf5ChannelTypeOf(t);
  return 'dataType' in stored ? stored.dataType : undefined;
}

/** The dataset at a path the config names (marked used), or an issue with "did you mean". */
function findDataset(
  scope: Hdf5Scope,
  path: string | undefined,
  ptr: string,
  what: string,
): Hdf5Dataset | undefined {
  if (!path) return undefined;
  const norm = path.startsWith('/') ? path : `/${path}`;
  const d = scope.byPath.get(norm);
  if (d) {
    scope.used.add(d.path);
    return d;
  }
  const { paths } = scope;
  scope.issues.push(
    issue('dataset_not_in_file', ptr, `${what} '${path}' is not a dataset of the file`, {
      hint: notFoundHint(norm, paths, "The file's datasets"),
      source: { file: scope.dataPath, dataset: path },
    }),
  );
  return undefined;
}

/** The element type at a member or column, or an issue. */
function elementPart(
  scope: Hdf5Scope,
  d: Hdf5Dataset,
  field: string | undefined,
  index: string | undefined,
  ptrField: string,
  ptrIndex: string,
  role: 'time' | 'value',
): Part | undefined {
  const members = d.type.members;
  if (d.type.class === 'compound' && members) {
    return memberPart(scope, d, members, field, ptrField, role);
  }
  if (field) {
    scope.issues.push(
      issue(
        'layout_mismatch',
        ptrField,
        `'${d.path}' is not a compound dataset: ${role}Field '${field}' does not apply`,
        {
          hint: `Leave ${role}Field out${d.shape && d.shape.length === 2 ? ` and use ${role}Index (0 to ${(d.shape[1] ?? 1) - 1})` : ''}.`,
          source: { file: scope.dataPath, dataset: d.path },
        },
      ),
    );
    return undefined;
  }
  return columnPart(scope, d, index, ptrIndex, role);
}

/** The member a compound dataset's field names, or an issue. */
function memberPart(
  scope: Hdf5Scope,
  d: Hdf5Dataset,
  members: NonNullable<Hdf5Type['members']>,
  field: string | undefined,
  ptrField: string,
  role: 'time' | 'value',
): Part | undefined {
  if (!field) {
    scope.issues.push(
      issue(
        'layout_mismatch',
        ptrField,
        `'${d.path}' is a compound dataset: the ${role} needs a member name (${role}Field)`,
        {
          hint: `Its members: ${listSome(
            members.map((m) => m.name),
            8,
          )}.`,
          source: { file: scope.dataPath, dataset: d.path },
        },
      ),
    );
    return undefined;
  }
  const m = members.find((x) => x.name === field);
  if (!m) {
    scope.issues.push(
      issue('member_not_in_dataset', ptrField, `'${d.path}' has no member '${field}'`, {
        hint: notFoundHint(
          field,
          members.map((x) => x.name),
          'Its members',
        ),
        source: { file: scope.dataPath, dataset: d.path },
      }),
    );
    return undefined;
  }
  return { type: m.type, column: m.name };
}

/** The column an index names in a 1-D or [N, k] dataset, or an issue. */
function columnPart(
  scope: Hdf5Scope,
  d: Hdf5Dataset,
  index: string | undefined,
  ptrIndex: string,
  role: 'time' | 'value',
): Part | undefined {
  const shape = d.shape ?? [];
  const idx = index === undefined ? 0 : Number(index);
  const source = { file: scope.dataPath, dataset: d.path };
  if (shape.length === 2) {
    const width = shape[1] ?? 0;
    if (idx >= width) {
      scope.issues.push(
        issue(
          'index_out_of_range',
          ptrIndex,
          `${role}Index ${idx} is past the last column of '${d.path}' (shape [${shape.join(', ')}]: indexes 0 to ${width - 1})`,
          { hint: `Indexes count from 0; use 0 to ${width - 1}.`, source },
        ),
      );
      return undefined;
    }
    return { type: d.type, column: idx };
  }
  if (shape.length === 1 && idx > 0) {
    scope.issues.push(
      issue(
        'index_out_of_range',
        ptrIndex,
        `'${d.path}' is 1-D: ${role}Index ${idx} does not exist`,
        { hint: `Leave ${role}Index out (or 0).`, source },
      ),
    );
    return undefined;
  }
  if (shape.length !== 1 && shape.length !== 2) {
    scope.issues.push(
      issue(
        'layout_mismatch',
        ptrIndex,
        `'${d.path}' has shape [${shape.join(', ')}]: only 1-D, [N, k] and compound datasets can be imported`,
        { source },
      ),
    );
    return undefined;
  }
  return { type: d.type, column: undefined };
}

/** A declared channel type that does not fit the stored values, or undefined. */
function valueTypeIssue(
  v: Hdf5Dataset | undefined,
  vp: Part,
  declared: NonNullable<NonNullable<Entry['channelConfig']>['dataType']>,
  ptr: string,
  dataPath: string,
): Issue | undefined {
  const stored = hdf5ChannelTypeOf(vp.type);
  if (!('dataType' in stored)) return undefined;
  const fit = fitOf(declared, stored.dataType);
  const label = `'${v?.path}'${typeof vp.column === 'string' ? ` member '${vp.column}'` : ''}`;
  const code =
    fit === 'mismatch'
      ? 'value_type_mismatch'
      : fit === 'narrow'
        ? 'type_too_narrow'
        : fit === 'wide'
          ? 'type_too_wide'
          : undefined;
  if (!code) return undefined;
  return issue(
    code,
    ptr,
    `${label} stores ${shortName(stored.dataType)} values; declared ${shortName(declared)} ${fit === 'mismatch' ? 'does not fit them' : fit === 'narrow' ? 'loses precision' : 'is wider than they need'}`,
    {
      hint: `Use dataType: ${stored.dataType}.`,
      source: { file: dataPath, dataset: v?.path ?? '' },
    },
  );
}

/** Datasets of the file the config does not name: they will not be imported. */
function unusedDatasetIssues(
  datasets: readonly Hdf5Dataset[],
  used: ReadonlySet<string>,
  ptr: string,
  dataPath: string,
): Issue[] {
  const issues: Issue[] = [];
  for (const d of datasets) {
    if (used.has(d.path)) continue;
    if (!d.shape || d.shape.length === 0) continue;
    issues.push(
      issue(
        'column_not_in_config',
        ptr,
        `dataset '${d.path}' is in the file but not in the config: it will not be imported`,
        {
          source: { file: dataPath, dataset: d.path },
        },
      ),
    );
  }
  return issues;
}
