/**
 * Checks a ParquetConfig against a Parquet file from its footer: footer offset and length,
 * every path the config names (with "did you mean"), the layout (a name column holds
 * text), declared channel types against the stored types, the time column's format and
 * unit (TIMESTAMP units, else the row-group statistics), and columns left out; with `full`,
 * the values too (see values.ts).
 */

import { fitOf } from '../../check/shared.js';
import type { ByteSource } from '../../inspect/shared.js';
import type { ChannelConfig, ParquetConfig, TimeFormat } from '../../model/index.js';
import { type Issue, issue, pointer, pushAll } from '../../model/plain.js';
import { notFoundHint } from '../../validate/index.js';
import {
  channelValueIssues,
  readsText,
  shortName,
  timeValueIssues,
  withoutRestatedTypeIssues,
} from '../../values/index.js';
import { parquetChannelTypeOf } from './channel-types.js';
import { readColumnHead } from './column-head.js';
import type { ParquetFooter } from './footer.js';
import { inspectParquetSource } from './inspect.js';
import { scanParquetFull } from './jobs.js';
import type { ParquetFieldProfile, ParquetProfile } from './profile.js';
import { parquetTimeIssues } from './time-issues.js';
import { columnPlace, type ValueChannel, type ValueTallies } from './values.js';

export interface ParquetCheckOptions {
  full?: boolean;
  onProgress?: (done: number, total: number) => void;
  key?: string;
  /** `full`: threads reading row groups, this one and workers (default: the cores). */
  jobs?: number;
  /** `full`: the largest run of row groups a thread reads, in bytes (default 64 MiB). */
  rangeBytes?: number;
}

type At = (...t: Array<string | number>) => string;
/** A channel whose values `--full` reads: a named, flat (not nested) column with a type. */
type ValuedChannel = ValueChannel & { field: ParquetFieldProfile };

/** What the column checks share: the file's fields by path, those used, the issues found. */
interface ParquetScope {
  dataPath: string;
  profile: ParquetProfile;
  byPath: Map<string, ParquetFieldProfile>;
  paths: string[];
  used: Set<string>;
  issues: Issue[];
}

/** Checks a ParquetConfig against the Parquet read through `source` (issues name `source.name`). */
export async function checkParquet(
  config: ParquetConfig,
  source: ByteSource,
  options: ParquetCheckOptions = {},
): Promise<Issue[]> {
  const key = options.key ?? 'parquetConfig';
  const at: At = (...t) => pointer(key, ...t);
  const dataPath = source.name;
  const { profile, footer: read } = await inspectParquetSource(source);
  const footer = footerIssues(config, profile, at, dataPath);
  const scope = indexFields(profile, dataPath);
  const flat = config.flatDataset;
  const rows = config.singleChannelPerRow;
  const base = flat ? 'flatDataset' : 'singleChannelPerRow';
  const timeColumn = flat?.timeColumn ?? rows?.timeColumn;
  const timeField = findField(
    scope,
    timeColumn?.path,
    at(base, 'timeColumn', 'path'),
    'time column',
  );
  // The time column's findings go here, before the data columns' (they need the full read).
  const timePathIssues = scope.issues.splice(0);
  const valued = checkColumns(scope, config, at);
  const fullTime = options.full && timeField && !timeField.nested ? timeField : undefined;
  const scanned = options.full
    ? await scanParquetFull(
        source,
        fullTime?.path,
        valued,
        {
          jobs: options.jobs,
          rangeBytes: options.rangeBytes,
          metadata: read.metadata,
          timeFormat: timeColumn?.format,
        },
        options.onProgress,
      )
    : undefined;
  const first =
    !options.full && timeField && timeColumn?.format
      ? await firstTextTimes(source, read, timeField, timeColumn.format)
      : undefined;
  const timeFindings =
    timeField && timeColumn?.format
      ? timeColumnIssues(
          timeField,
          timeColumn.format,
          { scanned, fullTime, first },
          at,
          base,
          dataPath,
        )
      : [];
  return withoutRestatedTypeIssues([
    ...footer,
    ...timePathIssues,
    ...timeFindings,
    ...scope.issues,
    ...valueIssues(valued, scanned, dataPath),
    ...(flat?.useEmbeddedConfig ? [] : unusedColumnIssues(scope, at(base))),
  ]);
}

function source(file: string, column?: string): { file: string; column?: string } {
  return column === undefined ? { file } : { file, column };
}

/** The footer offset and length the config gives, against the file's. */
function footerIssues(
  config: ParquetConfig,
  profile: ParquetProfile,
  at: At,
  dataPath: string,
): Issue[] {
  if (
    config.footerOffset === undefined ||
    config.footerLength === undefined ||
    (config.footerOffset === profile.footerOffset && config.footerLength === profile.footerLength)
  )
    return [];
  return [
    issue(
      'footer_mismatch',
      at(config.footerOffset !== profile.footerOffset ? 'footerOffset' : 'footerLength'),
      `footerOffset ${config.footerOffset} / footerLength ${config.footerLength} do not match the file: its footer is at ${profile.footerOffset}, ${profile.footerLength} bytes long`,
      {
        hint: `Use footerOffset: "${profile.footerOffset}" and footerLength: ${profile.footerLength}.`,
        source: source(dataPath),
      },
    ),
  ];
}

/** Every field of the file by its path and by the paths of its leaves. */
function indexFields(profile: ParquetProfile, dataPath: string): ParquetScope {
  const byPath = new Map<string, ParquetFieldProfile>();
  for (const f of profile.fields) {
    byPath.set(f.path, f);
    for (const leaf of f.leaves ?? []) byPath.set(leaf, f);
  }
  return { dataPath, profile, byPath, paths: [...byPath.keys()], used: new Set(), issues: [] };
}

/** The field at a path (marked used), or an issue naming the nearest path. */
function findField(
  scope: ParquetScope,
  path: string | undefined,
  ptr: string,
  what: string,
): ParquetFieldProfile | undefined {
  if (path === undefined || path === '') return undefined;
  const f = scope.byPath.get(path);
  if (f) {
    scope.used.add(f.path);
    return f;
  }
  scope.issues.push(
    issue('column_not_in_file', ptr, `${what} '${path}' is not a column of the file`, {
      hint: notFoundHint(path, scope.paths, "The file's columns"),
      source: source(scope.dataPath, path),
    }),
  );
  return undefined;
}

/**
 * Every column the layout names: it exists, its declared type fits the stored one, and a
 * name column holds text. Returns the channels whose values `--full` reads.
 */
function checkColumns(scope: ParquetScope, config: ParquetConfig, at: At): ValuedChannel[] {
  const valued: ValuedChannel[] = [];
  const channel = (
    path: string | undefined,
    cfg: ChannelConfig | undefined,
    pathAt: string,
    what: string,
    cfgAt: string,
  ) => {
    const f = findField(scope, path, pathAt, what);
    if (!f || f.nested || !cfg?.dataType || cfg.dataType === 'CHANNEL_DATA_TYPE_UNSPECIFIED')
      return;
    const fit = typeFitIssue(f, cfg.dataType, cfgAt, scope.dataPath);
    if (fit) scope.issues.push(fit);
    valued.push({
      column: f.path,
      ptr: cfgAt,
      dataType: cfg.dataType,
      enumTypes: cfg.enumTypes,
      field: f,
    });
  };
  const flat = config.flatDataset;
  if (flat && flat.useEmbeddedConfig !== true) {
    (flat.dataColumns ?? []).forEach((c, i) => {
      channel(
        c.path,
        c.channelConfig,
        at('flatDataset', 'dataColumns', i, 'path'),
        'data column',
        at('flatDataset', 'dataColumns', i, 'channelConfig'),
      );
    });
  }
  const rows = config.singleChannelPerRow;
  if (!rows) return valued;
  (rows.columns ?? []).forEach((c, i) => {
    channel(
      c.path,
      c.columnConfig,
      at('singleChannelPerRow', 'columns', i, 'path'),
      'column',
      at('singleChannelPerRow', 'columns', i, 'columnConfig'),
    );
  });
  if (rows.singleChannel) {
    const single = rows.singleChannel;
    channel(
      single.dataPath,
      single.channel,
      at('singleChannelPerRow', 'singleChannel', 'dataPath'),
      'data column',
      at('singleChannelPerRow', 'singleChannel', 'channel'),
    );
  }
  if (rows.multiChannel) {
    const namePtr = at('singleChannelPerRow', 'multiChannel', 'namePath');
    const name = findField(scope, rows.multiChannel.namePath, namePtr, 'name column');
    findField(
      scope,
      rows.multiChannel.dataPath,
      at('singleChannelPerRow', 'multiChannel', 'dataPath'),
      'data column',
    );
    if (name) pushAll(scope.issues, nameColumnIssues(name, namePtr, scope.dataPath));
  }
  return valued;
}

/** The declared type against the stored one: mismatch, too narrow or too wide. */
function typeFitIssue(
  f: ParquetFieldProfile,
  dataType: NonNullable<ChannelConfig['dataType']>,
  ptr: string,
  dataPath: string,
): Issue | undefined {
  const stored = parquetChannelTypeOf(f).dataType;
  const fit = fitOf(dataType, stored);
  const label = `column '${f.path}'`;
  const stores = `${f.physicalType}${f.logicalType ? ` (${f.logicalType})` : ''}`;
  const opts = { hint: `Use dataType: ${stored}.`, source: source(dataPath, f.path) };
  if (fit === 'mismatch')
    return issue(
      'value_type_mismatch',
      `${ptr}/dataType`,
      `${label} stores ${stores}, which does not fit ${shortName(dataType)}`,
      opts,
    );
  if (fit === 'narrow')
    return issue(
      'type_too_narrow',
      `${ptr}/dataType`,
      `${label} stores ${stores}; as ${shortName(dataType)} its values lose precision`,
      opts,
    );
  if (fit === 'wide')
    return issue(
      'type_too_wide',
      `${ptr}/dataType`,
      `${label} stores ${stores}; ${shortName(dataType)} is wider than it needs`,
      opts,
    );
  return undefined;
}

/** The layout: a multiChannel name column must hold text. */
function nameColumnIssues(name: ParquetFieldProfile, ptr: string, dataPath: string): Issue[] {
  if (parquetChannelTypeOf(name).dataType === 'CHANNEL_DATA_TYPE_STRING') return [];
  return [
    issue(
      'layout_mismatch',
      ptr,
      `the name column '${name.path}' stores ${name.physicalType}, not text: it cannot name channels`,
      {
        hint: 'A file with one column per channel is a flatDataset; `importkit infer <file>` drafts it.',
        source: source(dataPath, name.path),
      },
    ),
  ];
}

/**
 * The values of the first page of a text time column read in a text format (as infer reads
 * them, column-head.ts): a sampled check judges them as the full read would. Undefined for
 * other columns and formats, or a page that could not be read.
 */
async function firstTextTimes(
  source: ByteSource,
  footer: ParquetFooter,
  field: ParquetFieldProfile,
  format: TimeFormat,
): Promise<string[] | undefined> {
  if (field.nested || !readsText(format)) return undefined;
  if (parquetChannelTypeOf(field).dataType !== 'CHANNEL_DATA_TYPE_STRING') return undefined;
  const head = await readColumnHead(source, footer, field.name);
  return 'values' in head ? head.values : undefined;
}

/**
 * The time column's format and unit; with the full read, its values and range too; with a
 * sampled one, the values of its first page (`first`, text times).
 */
function timeColumnIssues(
  timeField: ParquetFieldProfile,
  format: TimeFormat,
  read: {
    scanned: ValueTallies | undefined;
    fullTime: ParquetFieldProfile | undefined;
    first: string[] | undefined;
  },
  at: At,
  base: string,
  dataPath: string,
): Issue[] {
  const { scanned, fullTime, first } = read;
  const found: Issue[] = [];
  let field = timeField;
  let range: { min: number; max: number } | undefined;
  const t = scanned?.time;
  if (t && fullTime) {
    pushAll(
      found,
      timeValueIssues(t, at(base, 'timeColumn', 'path'), columnPlace(dataPath, fullTime.path)),
    );
    // Every value was read: judge the range from them when the footer has no statistics,
    // and always for text times (their statistics are the least and greatest text, which
    // are not the earliest and latest time when zones differ, and may be cut short).
    const { min, max } = t;
    if (typeof min === 'number' && typeof max === 'number' && readsText(format)) {
      range = { min, max };
    } else if (
      (field.stats?.min === undefined || field.stats?.max === undefined) &&
      min !== undefined &&
      max !== undefined
    ) {
      field = { ...field, stats: { min: String(min), max: String(max) } };
    }
  }
  pushAll(
    found,
    parquetTimeIssues(field, format, at(base, 'timeColumn', 'format'), dataPath, range, first),
  );
  return found;
}

/** The full read's findings on each channel's values. */
function valueIssues(
  valued: ValuedChannel[],
  scanned: ValueTallies | undefined,
  dataPath: string,
): Issue[] {
  const found: Issue[] = [];
  for (const c of valued) {
    const tally = scanned?.channels.get(c.column);
    if (tally)
      pushAll(
        found,
        channelValueIssues(
          c,
          tally,
          columnPlace(dataPath, c.column),
          parquetChannelTypeOf(c.field).dataType,
        ),
      );
  }
  return found;
}

/** Columns of the file the config leaves out. */
function unusedColumnIssues(scope: ParquetScope, ptr: string): Issue[] {
  return scope.profile.fields
    .filter((f) => !scope.used.has(f.path))
    .map((f) =>
      issue(
        'column_not_in_config',
        ptr,
        `column '${f.path}' (${f.physicalType}${f.logicalType ? ` ${f.logicalType}` : ''}) is in the file but not in the config: it will not be imported`,
        { source: source(scope.dataPath, f.path) },
      ),
    );
}
