/**
 * Checks a ParquetConfig against a Parquet file from its footer: footer offset and length,
 * every path the config names (with "did you mean"), the layout (a name column holds
 * text), declared channel types against the stored types, the time column's format and
 * unit (TIMESTAMP units, else the row-group statistics), and columns left out; with `full`,
 * the values too (see parquet-values.ts).
 */
import { parquetChannelTypeOf as channelTypeOf, isUnixFormat } from '../infer/index.js';
import { inspectParquet, type ParquetFieldProfile } from '../inspect/index.js';
import type { ChannelConfig } from '../model/channel.js';
import type { TimeFormat } from '../model/enums.js';
import type { Issue } from '../model/issue.js';
import { pointer } from '../model/issue.js';
import type { ParquetConfig } from '../model/parquet.js';
import { suggestClosest as closest } from '../validate/index.js';
import { checkIssue, plausibleUnix, shortName, unitThatFits } from './_issue.js';
import {
  channelValueIssues,
  scanParquetValues,
  timeValueIssues,
  type ValueChannel,
} from './parquet-values.js';
import { fitOf } from './types.js';

export interface ParquetCheckOptions {
  full?: boolean;
  onProgress?: (done: number, total: number) => void;
  key?: string;
}

const UNIX_OF_UNIT: Record<string, TimeFormat> = {
  MILLIS: 'TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS',
  MICROS: 'TIME_FORMAT_ABSOLUTE_UNIX_MICROSECONDS',
  NANOS: 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS',
};

export async function checkParquet(
  config: ParquetConfig,
  dataPath: string,
  options: ParquetCheckOptions = {},
): Promise<Issue[]> {
  const key = options.key ?? 'parquetConfig';
  const at = (...t: Array<string | number>) => pointer(key, ...t);
  const profile = await inspectParquet(dataPath);
  const issues: Issue[] = [];
  const src = (column?: string) =>
    column === undefined ? { file: dataPath } : { file: dataPath, column };

  // Footer.
  if (
    config.footerOffset !== undefined &&
    config.footerLength !== undefined &&
    (config.footerOffset !== profile.footerOffset || config.footerLength !== profile.footerLength)
  ) {
    issues.push(
      checkIssue(
        'footer_mismatch',
        at(config.footerOffset !== profile.footerOffset ? 'footerOffset' : 'footerLength'),
        `footerOffset ${config.footerOffset} / footerLength ${config.footerLength} do not match the file: its footer is at ${profile.footerOffset}, ${profile.footerLength} bytes long`,
        {
          hint: `Use footerOffset: "${profile.footerOffset}" and footerLength: ${profile.footerLength}.`,
          source: src(),
        },
      ),
    );
  }

  const byPath = new Map<string, ParquetFieldProfile>();
  for (const f of profile.fields) {
    byPath.set(f.path, f);
    for (const leaf of f.leaves ?? []) byPath.set(leaf, f);
  }
  const allPaths = [...byPath.keys()];
  const used = new Set<string>();

  /** The field at a path, or an issue naming the nearest path. */
  const field = (path: string | undefined, ptr: string, what: string) => {
    if (path === undefined || path === '') return undefined;
    const f = byPath.get(path);
    if (f) {
      used.add(f.path);
      return f;
    }
    const near = closest(path, allPaths);
    issues.push(
      checkIssue('column_not_in_file', ptr, `${what} '${path}' is not a column of the file`, {
        hint: near
          ? `Did you mean '${near}'?`
          : `The file's columns: ${profile.fields.map((x) => x.path).join(', ')}.`,
        source: src(path),
      }),
    );
    return undefined;
  };

  const channel = (
    f: ParquetFieldProfile | undefined,
    cfg: ChannelConfig | undefined,
    ptr: string,
  ) => {
    if (!f || !cfg?.dataType || cfg.dataType === 'CHANNEL_DATA_TYPE_UNSPECIFIED') return;
    if (f.nested) return;
    const stored = channelTypeOf(f).dataType;
    const fit = fitOf(cfg.dataType, stored);
    const label = `column '${f.path}'`;
    const stores = `${f.physicalType}${f.logicalType ? ` (${f.logicalType})` : ''}`;
    if (fit === 'mismatch') {
      issues.push(
        checkIssue(
          'value_type_mismatch',
          `${ptr}/dataType`,
          `${label} stores ${stores}, which does not fit ${shortName(cfg.dataType)}`,
          { hint: `Use dataType: ${stored}.`, source: src(f.path) },
        ),
      );
    } else if (fit === 'narrow') {
      issues.push(
        checkIssue(
          'type_too_narrow',
          `${ptr}/dataType`,
          `${label} stores ${stores}; as ${shortName(cfg.dataType)} its values lose precision`,
          { hint: `Use dataType: ${stored}.`, source: src(f.path) },
        ),
      );
    } else if (fit === 'wide') {
      issues.push(
        checkIssue(
          'type_too_wide',
          `${ptr}/dataType`,
          `${label} stores ${stores}; ${shortName(cfg.dataType)} is wider than it needs`,
          { hint: `Use dataType: ${stored}.`, source: src(f.path) },
        ),
      );
    }
  };

  const flat = config.flatDataset;
  const rows = config.singleChannelPerRow;
  const base = flat ? 'flatDataset' : 'singleChannelPerRow';
  const timeColumn = flat?.timeColumn ?? rows?.timeColumn;
  const timeField = field(timeColumn?.path, at(base, 'timeColumn', 'path'), 'time column');
  // The time column's findings go here, before the data columns' (they need the full read).
  const timeIssuesAt = issues.length;
  /** Channels whose values `--full` reads: named, flat (not nested) columns with a type. */
  const valued: Array<ValueChannel & { field: ParquetFieldProfile }> = [];
  const channelAt = (
    f: ParquetFieldProfile | undefined,
    cfg: ChannelConfig | undefined,
    ptr: string,
  ) => {
    channel(f, cfg, ptr);
    if (f && !f.nested && cfg?.dataType && cfg.dataType !== 'CHANNEL_DATA_TYPE_UNSPECIFIED')
      valued.push({
        column: f.path,
        ptr,
        dataType: cfg.dataType,
        enumTypes: cfg.enumTypes,
        field: f,
      });
  };

  if (flat && flat.useEmbeddedConfig !== true) {
    (flat.dataColumns ?? []).forEach((c, i) => {
      const f = field(c.path, at('flatDataset', 'dataColumns', i, 'path'), 'data column');
      channelAt(f, c.channelConfig, at('flatDataset', 'dataColumns', i, 'channelConfig'));
    });
  }
  if (rows) {
    (rows.columns ?? []).forEach((c, i) => {
      const f = field(c.path, at('singleChannelPerRow', 'columns', i, 'path'), 'column');
      channelAt(f, c.columnConfig, at('singleChannelPerRow', 'columns', i, 'columnConfig'));
    });
    if (rows.singleChannel) {
      const f = field(
        rows.singleChannel.dataPath,
        at('singleChannelPerRow', 'singleChannel', 'dataPath'),
        'data column',
      );
      channelAt(
        f,
        rows.singleChannel.channel,
        at('singleChannelPerRow', 'singleChannel', 'channel'),
      );
    }
    if (rows.multiChannel) {
      const name = field(
        rows.multiChannel.namePath,
        at('singleChannelPerRow', 'multiChannel', 'namePath'),
        'name column',
      );
      field(
        rows.multiChannel.dataPath,
        at('singleChannelPerRow', 'multiChannel', 'dataPath'),
        'data column',
      );
      if (name && channelTypeOf(name).dataType !== 'CHANNEL_DATA_TYPE_STRING') {
        issues.push(
          checkIssue(
            'layout_mismatch',
            at('singleChannelPerRow', 'multiChannel', 'namePath'),
            `the name column '${name.path}' stores ${name.physicalType}, not text: it cannot name channels`,
            {
              hint: 'A file with one column per channel is a flatDataset; `importkit infer <file>` drafts it.',
              source: src(name.path),
            },
          ),
        );
      }
    }
  }

  const fullTime = options.full && timeField && !timeField.nested ? timeField : undefined;
  const scanned = options.full
    ? await scanParquetValues(dataPath, fullTime?.path, valued, options.onProgress)
    : undefined;
  const timeFindings: Issue[] = [];
  if (timeField && timeColumn?.format) {
    let field = timeField;
    const t = scanned?.time;
    if (t && fullTime) {
      timeFindings.push(
        ...timeValueIssues(t, at(base, 'timeColumn', 'path'), dataPath, fullTime.path),
      );
      // Every value was read: judge the range from them when the footer has no statistics.
      if (
        (field.stats?.min === undefined || field.stats?.max === undefined) &&
        t.min !== undefined &&
        t.max !== undefined
      ) {
        field = { ...field, stats: { min: String(t.min), max: String(t.max) } };
      }
    }
    timeFindings.push(
      ...timeIssues(field, timeColumn.format, at(base, 'timeColumn', 'format'), dataPath),
    );
  }
  issues.splice(timeIssuesAt, 0, ...timeFindings);
  for (const c of valued) {
    const tally = scanned?.channels.get(c.column);
    if (tally)
      issues.push(...channelValueIssues(c, tally, dataPath, channelTypeOf(c.field).dataType));
  }

  for (const f of profile.fields) {
    if (used.has(f.path)) continue;
    if (flat?.useEmbeddedConfig) continue;
    issues.push(
      checkIssue(
        'column_not_in_config',
        at(base),
        `column '${f.path}' (${f.physicalType}${f.logicalType ? ` ${f.logicalType}` : ''}) is in the file but not in the config: it will not be imported`,
        { source: src(f.path) },
      ),
    );
  }
  return issues;
}

function timeIssues(
  f: ParquetFieldProfile,
  format: TimeFormat,
  ptr: string,
  file: string,
): Issue[] {
  const source = { file, column: f.path };
  const fmt = shortName(format);
  if (f.temporal?.kind === 'TIMESTAMP' && f.temporal.unit) {
    const fits = UNIX_OF_UNIT[f.temporal.unit] as TimeFormat;
    if (format === fits) return [];
    if (isUnixFormat(format)) {
      return [
        checkIssue(
          'time_wrong_unit',
          ptr,
          `the time column '${f.path}' is a TIMESTAMP in ${f.temporal.unit}, but the format is ${fmt}`,
          { hint: `Use format: ${fits}.`, source },
        ),
      ];
    }
    return [
      checkIssue(
        'time_not_parseable',
        ptr,
        `the time column '${f.path}' is a TIMESTAMP in ${f.temporal.unit}, which ${fmt} does not read`,
        { hint: `Use format: ${fits}.`, source },
      ),
    ];
  }
  const numeric = ['INT32', 'INT64', 'FLOAT', 'DOUBLE'].includes(f.physicalType);
  const text = channelTypeOf(f).dataType === 'CHANNEL_DATA_TYPE_STRING';
  const wantsText =
    format === 'TIME_FORMAT_ABSOLUTE_RFC3339' || format === 'TIME_FORMAT_ABSOLUTE_DATETIME';
  if ((wantsText && !text) || (!wantsText && !numeric)) {
    return [
      checkIssue(
        'time_not_parseable',
        ptr,
        `the time column '${f.path}' stores ${f.physicalType}${f.logicalType ? ` (${f.logicalType})` : ''}, which ${fmt} does not read`,
        {
          hint: wantsText
            ? 'Use the unix format of the values’ unit.'
            : 'Use TIME_FORMAT_ABSOLUTE_RFC3339 or ABSOLUTE_DATETIME for text times.',
          source,
        },
      ),
    ];
  }
  const min = f.stats?.min;
  const max = f.stats?.max;
  if (!isUnixFormat(format) || min === undefined || max === undefined || !numeric) return [];
  const lo = toBig(min);
  const hi = toBig(max);
  if (lo === undefined || hi === undefined) return [];
  if (plausibleUnix([lo, hi], format)) return [];
  const fits = unitThatFits([lo, hi]);
  if (fits && fits !== format) {
    return [
      checkIssue(
        'time_wrong_unit',
        ptr,
        `read as ${fmt}, the times of '${f.path}' (statistics ${lo} to ${hi}) land outside 1971-2100; as ${shortName(fits)} they are plausible`,
        { hint: `Use format: ${fits}.`, source },
      ),
    ];
  }
  return [
    checkIssue(
      'time_out_of_range',
      ptr,
      `read as ${fmt}, the times of '${f.path}' (statistics ${lo} to ${hi}) land outside 1971-2100, and no unix unit fits`,
      { source },
    ),
  ];
}

function toBig(v: string | number): bigint | undefined {
  try {
    return typeof v === 'number' ? BigInt(Math.trunc(v)) : BigInt(v);
  } catch {
    return undefined;
  }
}
