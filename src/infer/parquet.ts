/**
 * A Parquet profile → a draft ParquetConfig. Reads the footer (through the inspector) and,
 * where a choice needs values the footer does not hold, one small page per purpose: the
 * first page of a text time column (to see whether it is RFC 3339) and the dictionary or
 * first page of a channel-name column (to list the channel names).
 */
import { basename, extname } from 'node:path';
import {
  type ByteSource,
  type ColumnHead,
  type ColumnHeadMissing,
  inspectParquetSource,
  openForInspection,
  type ParquetFieldProfile,
  type ParquetProfile,
  readColumnHead,
} from '../inspect/index.js';
import type { ChannelConfig } from '../model/channel.js';
import {
  type ChannelDataType,
  PARQUET_COMPLEX_TYPES_IMPORT_MODE_VALUES,
  type ParquetComplexTypesImportMode,
  TIME_FORMAT_VALUES,
  type TimeFormat,
} from '../model/enums.js';
import type { Issue } from '../model/issue.js';
import type { ParquetColumn, ParquetConfig, ParquetTimeColumn } from '../model/parquet.js';
import {
  startTimeFromFileName,
  timeNameScore,
  unitFromName,
  unixFormatOfUnit,
  unixUnitFromMagnitude,
} from './time.js';
import type { Confidence, Draft, Evidence, InferOptions, Layout } from './types.js';

/** Infers a draft ParquetConfig for a file on disk. */
export async function inferParquet(path: string, options: InferOptions = {}): Promise<Draft> {
  const source = await openForInspection(path);
  try {
    return await inferParquetSource(source, options);
  } finally {
    await source.close();
  }
}

/** Infers through a byte source (tests wrap it in a counter). */
export async function inferParquetSource(
  source: ByteSource,
  options: InferOptions = {},
): Promise<Draft> {
  const { profile, footer } = await inspectParquetSource(source);
  return draftFromProfile(profile, options, (column) => readColumnHead(source, footer, column));
}

/** Reads the first values of a column (one page), or says why it could not. */
export type HeadReader = (column: string) => Promise<ColumnHead | ColumnHeadMissing>;

const P = '/parquetConfig';

/** What a value column becomes: its channel type, and a note when the mapping loses something. */
export function channelTypeOf(f: ParquetFieldProfile): {
  dataType: ChannelDataType;
  note?: 'decimal' | 'temporal';
} {
  if (f.decimal) return { dataType: 'CHANNEL_DATA_TYPE_DOUBLE', note: 'decimal' };
  if (f.temporal) return { dataType: 'CHANNEL_DATA_TYPE_INT_64', note: 'temporal' };
  const lt = f.logicalType ?? '';
  switch (f.physicalType) {
    case 'BOOLEAN':
      return { dataType: 'CHANNEL_DATA_TYPE_BOOL' };
    case 'INT32':
      return {
        dataType:
          f.integer?.signed === false ? 'CHANNEL_DATA_TYPE_UINT_32' : 'CHANNEL_DATA_TYPE_INT_32',
      };
    case 'INT64':
      return {
        dataType:
          f.integer?.signed === false ? 'CHANNEL_DATA_TYPE_UINT_64' : 'CHANNEL_DATA_TYPE_INT_64',
      };
    case 'INT96':
      return { dataType: 'CHANNEL_DATA_TYPE_INT_64', note: 'temporal' };
    case 'FLOAT':
      return { dataType: 'CHANNEL_DATA_TYPE_FLOAT' };
    case 'DOUBLE':
      return { dataType: 'CHANNEL_DATA_TYPE_DOUBLE' };
    default:
      if (lt === 'FLOAT16') return { dataType: 'CHANNEL_DATA_TYPE_FLOAT' };
      if (isText(f)) return { dataType: 'CHANNEL_DATA_TYPE_STRING' };
      return { dataType: 'CHANNEL_DATA_TYPE_BYTES' };
  }
}

/** STRING, ENUM, JSON and UUID columns hold text (UTF8 is the older name of STRING). */
function isText(f: ParquetFieldProfile): boolean {
  return ['STRING', 'UTF8', 'ENUM', 'JSON', 'UUID'].includes(f.logicalType ?? '');
}

function isNumeric(f: ParquetFieldProfile): boolean {
  return (
    !f.temporal &&
    (['INT32', 'INT64', 'FLOAT', 'DOUBLE', 'BOOLEAN'].includes(f.physicalType) ||
      f.logicalType === 'FLOAT16' ||
      f.decimal !== undefined)
  );
}

function normalizeEnum<T extends string>(
  value: string,
  prefix: string,
  values: readonly T[],
): T | undefined {
  const v = value.trim().toUpperCase().replace(/-/g, '_');
  const full = v.startsWith(prefix) ? v : `${prefix}${v}`;
  return values.find((x) => x === full);
}

interface TimeChoice {
  field: ParquetFieldProfile;
  format: TimeFormat;
  reason: string;
  confidence: Confidence;
  alternatives: string[];
}

/** Scans the file name and date-time text. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

const NAME_COLUMN =
  /^(channel|channel_?name|channel_?id|name|signal|signal_?name|sensor|sensor_?name|tag|key|variable|measurement|metric|parameter|param|series)$/i;
const VALUE_COLUMN = /^(value|values|val|data|reading|measurement|y|v)$/i;

/**
 * The draft for a profile: time column, layout, channels, footer, complex types, each with
 * its evidence. Pure but for `readHead`, called at most once per purpose.
 */
export async function draftFromProfile(
  profile: ParquetProfile,
  options: InferOptions,
  readHead: HeadReader,
): Promise<Draft> {
  const issues: Issue[] = [];
  const evidence: Evidence[] = [];
  const file = profile.file.path;
  const issue = (
    code: Issue['code'],
    severity: Issue['severity'],
    path: string,
    message: string,
    hint?: string,
  ) => {
    issues.push({
      code,
      severity,
      path,
      message,
      ...(hint ? { hint } : {}),
      source: { file },
    });
  };

  const complex = profile.fields.filter((f) => f.nested);
  const flat = profile.fields.filter((f) => !f.nested);

  // ---- time column -------------------------------------------------------------------
  let time: TimeChoice | undefined;
  if (options.timeColumn !== undefined) {
    const want = options.timeColumn;
    const field =
      typeof want === 'number' || /^\d+$/.test(want)
        ? profile.fields[Number(want) - 1]
        : (profile.fields.find((f) => f.name === want) ??
          profile.fields.find((f) => f.name.toLowerCase() === String(want).toLowerCase()));
    if (!field || field.nested) {
      issue(
        'parquet_option_invalid',
        'error',
        `${P}`,
        field
          ? `--time-column ${want}: ${field.name} is a nested column and cannot be the time`
          : `--time-column ${want}: no such column (columns: ${profile.fields.map((f) => f.name).join(', ')})`,
      );
    } else {
      time = await timeOfField(field, readHead, issue, true);
      time.reason = `given as an option; ${time.reason}`;
    }
  }
  if (!time) time = await pickTime(flat, readHead, issue);

  if (time && options.timeFormat) {
    const format = normalizeEnum(options.timeFormat, 'TIME_FORMAT_', TIME_FORMAT_VALUES);
    if (format) {
      time = { ...time, format, reason: `given as an option (--time-format)`, confidence: 'high' };
      // What inference said about its own guess of the unit no longer applies.
      for (let i = issues.length - 1; i >= 0; i--) {
        const code = issues[i]?.code;
        if (code === 'parquet_time_unit_guessed' || code === 'parquet_time_out_of_range') {
          issues.splice(i, 1);
        }
      }
    } else {
      issue(
        'parquet_option_invalid',
        'error',
        P,
        `--time-format ${options.timeFormat}: not a time format (e.g. ABSOLUTE_UNIX_NANOSECONDS)`,
      );
    }
  }

  const timeColumn: ParquetTimeColumn | undefined = time
    ? { path: time.field.name, format: time.format }
    : undefined;
  if (time && timeColumn && time.format.startsWith('TIME_FORMAT_RELATIVE_')) {
    const start = options.relativeStartTime ?? startTimeFromFileName(file);
    if (start) {
      timeColumn.relativeStartTime = start;
    } else {
      issue(
        'parquet_relative_start_unknown',
        'error',
        P,
        `${time.field.name} holds relative time (${time.format}) and no start time was given or found in the file name`,
        'Give it with --relative-start 2024-01-01T00:00:00Z.',
      );
    }
  }
  if (!time) {
    issue(
      'parquet_no_time_column',
      'error',
      P,
      'no column looks like time (no TIMESTAMP column, no time-named integer column, no date-time text)',
      'Name it with --time-column and give its format with --time-format.',
    );
  }

  // ---- channels ----------------------------------------------------------------------
  // pyarrow writes a pandas index that is not a plain range as `__index_level_N__`: row
  // labels, not a channel.
  const pandasIndex = flat.filter((f) => f !== time?.field && /^__index_level_\d+__$/.test(f.name));
  const data = flat.filter((f) => f !== time?.field && !pandasIndex.includes(f));
  const channelOf = (f: ParquetFieldProfile, name = f.name): ChannelConfig => {
    const { dataType } = channelTypeOf(f);
    return {
      name,
      ...(f.units ? { units: f.units } : {}),
      ...(f.description ? { description: f.description } : {}),
      dataType,
    };
  };

  // ---- layout ------------------------------------------------------------------------
  const layoutOpt: Layout | undefined = options.layout;
  const texts = data.filter((f) => channelTypeOf(f).dataType === 'CHANNEL_DATA_TYPE_STRING');
  const values = data.filter(isNumeric);
  const namedName = texts.find((f) => NAME_COLUMN.test(f.name));
  const namedValue = values.find((f) => VALUE_COLUMN.test(f.name));
  // Without telling names, a lone text column beside a lone number is a name column only
  // when it is dictionary-encoded (few distinct values) and not all null.
  const onlyPair =
    data.length === 2 &&
    texts.length === 1 &&
    values.length === 1 &&
    texts[0]?.dictionary === true &&
    texts[0].nullCount !== profile.rowCount;
  // Asked for long form, take the first text and the first number when no name tells.
  const asked = layoutOpt === 'multi-channel';
  const nameCol = namedName ?? (onlyPair || asked ? texts[0] : undefined);
  const valueCol =
    namedValue ?? (onlyPair || asked || (nameCol && values.length === 1) ? values[0] : undefined);
  let layout: Layout;
  let layoutReason: string;
  let layoutConfidence: Confidence;
  const layoutAlternatives: string[] = [];
  if (layoutOpt === 'multi-channel' && !(nameCol && valueCol)) {
    issue(
      'parquet_option_invalid',
      'error',
      P,
      `--layout multi-channel: the file has no ${nameCol ? 'numeric value column' : 'text column of channel names'} beside the time`,
    );
  }
  if (layoutOpt === 'single-channel' && data.length === 0) {
    issue(
      'parquet_option_invalid',
      'error',
      P,
      '--layout single-channel: no value column beside the time',
    );
  }
  if (layoutOpt === 'multi-channel' && nameCol && valueCol) {
    layout = 'multi-channel';
    layoutReason = 'given as an option (--layout)';
    layoutConfidence = 'high';
  } else if (layoutOpt === 'single-channel' && data.length > 0) {
    layout = 'single-channel';
    layoutReason = 'given as an option (--layout)';
    layoutConfidence = 'high';
  } else if (layoutOpt === 'flat') {
    layout = 'flat';
    layoutReason = 'given as an option (--layout)';
    layoutConfidence = 'high';
  } else if (nameCol && valueCol) {
    layout = 'multi-channel';
    layoutReason = `${nameCol.name} is a text column ${NAME_COLUMN.test(nameCol.name) ? 'named like channel names' : 'beside a single value column'} and ${valueCol.name} ${VALUE_COLUMN.test(valueCol.name) ? 'is named like the value' : 'is the only numeric column'}: one row per sample of the channel it names (long form)`;
    layoutConfidence =
      NAME_COLUMN.test(nameCol.name) && VALUE_COLUMN.test(valueCol.name) ? 'high' : 'medium';
    layoutAlternatives.push('flatDataset: one channel per column (--layout flat)');
  } else {
    layout = 'flat';
    layoutReason = 'time plus one column per channel (wide form)';
    layoutConfidence = 'high';
    if (data.length === 1 && data[0]) {
      layoutReason = `time plus the single value column ${data[0].name}: a flat dataset of one channel`;
      layoutConfidence = 'medium';
      layoutAlternatives.push(
        `singleChannelPerRow singleChannel {dataPath: ${data[0].name}}: the whole file is one channel (--layout single-channel)`,
      );
    }
  }

  // Channel names of a long-form file, from the name column's dictionary or first page.
  let channelNames: string[] | undefined;
  let namesFrom = '';
  if (layout === 'multi-channel' && nameCol) {
    const head = await readHead(nameCol.name);
    if ('values' in head) {
      channelNames = [...new Set(head.values)].slice(0, 1000);
      namesFrom = head.from === 'dictionary' ? 'dictionary' : 'first page';
      nameCol.samples = channelNames.slice(0, 20);
    } else {
      issue(
        'parquet_page_unread',
        'info',
        P,
        `channel names not listed: ${nameCol.name}: ${head.reason}`,
      );
    }
  }

  // ---- embedded configs, complex types --------------------------------------------------
  const embedded = flat.filter((f) => hasEmbeddedConfig(f.arrowMetadata));
  const useEmbedded = layout === 'flat' && embedded.length > 0;

  let complexMode: ParquetComplexTypesImportMode | undefined;
  if (options.complexTypes !== undefined) {
    complexMode = normalizeEnum(
      options.complexTypes,
      'PARQUET_COMPLEX_TYPES_IMPORT_MODE_',
      PARQUET_COMPLEX_TYPES_IMPORT_MODE_VALUES,
    );
    if (!complexMode) {
      issue(
        'parquet_option_invalid',
        'error',
        P,
        `--complex-types ${options.complexTypes}: not one of IGNORE, BOTH, STRING, BYTES`,
      );
    }
  }
  if (!complexMode && complex.length > 0) complexMode = 'PARQUET_COMPLEX_TYPES_IMPORT_MODE_BOTH';

  // ---- document ----------------------------------------------------------------------
  const base = basename(file, extname(file));
  const config: ParquetConfig = {
    assetName: options.assetName ?? base,
    ...(options.runName ? { runName: options.runName } : {}),
  };
  evidence.push({
    path: `${P}/assetName`,
    choice: config.assetName ?? '',
    reason: options.assetName ? 'given as an option' : "default: the file's base name",
    confidence: options.assetName ? 'high' : 'low',
  });

  let layoutPath: string;
  const dataColumnIssues = (f: ParquetFieldProfile, path: string) => {
    const { note } = channelTypeOf(f);
    if (note === 'decimal') {
      issue(
        'parquet_decimal_as_double',
        'warning',
        path,
        `${f.name} is ${f.logicalType ?? 'DECIMAL'}: imported as DOUBLE, exact only to 15-16 significant digits`,
      );
    } else if (note === 'temporal') {
      issue(
        'parquet_temporal_as_int64',
        'info',
        path,
        `${f.name} is ${f.logicalType ?? f.physicalType} and not the time column: imported as INT_64 of its stored value`,
      );
    }
  };
  const typeEvidence = (f: ParquetFieldProfile, path: string) => {
    evidence.push({
      path,
      choice: channelTypeOf(f).dataType,
      reason: `Parquet ${f.physicalType}${f.logicalType ? ` ${f.logicalType}` : ''}${f.units ? `; units ${f.units} from Arrow field metadata` : ''}`,
      confidence: 'high',
    });
  };

  if (layout === 'flat') {
    layoutPath = `${P}/flatDataset`;
    config.flatDataset = {
      ...(timeColumn ? { timeColumn } : {}),
      dataColumns: data.map((f) => ({ path: f.name, channelConfig: channelOf(f) })),
      ...(useEmbedded ? { useEmbeddedConfig: true } : {}),
    };
    data.forEach((f, i) => {
      const path = `${layoutPath}/dataColumns/${i}/channelConfig/dataType`;
      typeEvidence(f, path);
      dataColumnIssues(f, `${layoutPath}/dataColumns/${i}`);
    });
    if (data.length === 0) {
      issue(
        'parquet_no_data_columns',
        'warning',
        `${layoutPath}/dataColumns`,
        'no column besides the time can be a channel',
      );
    }
    if (useEmbedded) {
      issue(
        'parquet_embedded_config',
        'info',
        `${layoutPath}/useEmbeddedConfig`,
        `Arrow field metadata of ${embedded.map((f) => f.name).join(', ')} carries channel configs: useEmbeddedConfig is set`,
      );
      evidence.push({
        path: `${layoutPath}/useEmbeddedConfig`,
        choice: 'true',
        reason: `channel configs in the Arrow field metadata of ${embedded.map((f) => f.name).join(', ')}`,
        confidence: 'medium',
      });
    }
  } else {
    layoutPath = `${P}/singleChannelPerRow`;
    const used = new Set<ParquetFieldProfile>();
    const scpr: NonNullable<ParquetConfig['singleChannelPerRow']> = {
      ...(timeColumn ? { timeColumn } : {}),
    };
    if (layout === 'multi-channel' && nameCol && valueCol) {
      used.add(nameCol).add(valueCol);
      scpr.multiChannel = { namePath: nameCol.name, dataPath: valueCol.name };
      evidence.push({
        path: `${layoutPath}/multiChannel`,
        choice: `namePath ${nameCol.name}, dataPath ${valueCol.name}`,
        reason: channelNames
          ? `${channelNames.length} channel name${channelNames.length === 1 ? '' : 's'} in ${nameCol.name} (${namesFrom} of the first row group${profile.rowGroups > 1 ? `, of ${profile.rowGroups}` : ''}): ${channelNames.slice(0, 20).join(', ')}${channelNames.length > 20 ? ', ...' : ''}`
          : `${nameCol.name} holds the channel names, ${valueCol.name} the values`,
        confidence: layoutConfidence,
      });
      typeEvidence(valueCol, `${layoutPath}/multiChannel/dataPath`);
    } else {
      const value = namedValue ?? values[0] ?? data[0];
      if (value) {
        used.add(value);
        const generic = VALUE_COLUMN.test(value.name);
        scpr.singleChannel = {
          dataPath: value.name,
          channel: channelOf(value, generic ? base : value.name),
        };
        evidence.push({
          path: `${layoutPath}/singleChannel/channel/name`,
          choice: generic ? base : value.name,
          reason: generic
            ? `the value column's name (${value.name}) names no channel: the file's base name`
            : 'the value column name',
          confidence: 'low',
        });
        typeEvidence(value, `${layoutPath}/singleChannel/channel/dataType`);
        dataColumnIssues(value, `${layoutPath}/singleChannel`);
      }
    }
    const others = data.filter((f) => !used.has(f));
    if (others.length > 0) {
      scpr.columns = others.map(
        (f): ParquetColumn => ({ path: f.name, columnConfig: channelOf(f) }),
      );
      others.forEach((f, i) => {
        typeEvidence(f, `${layoutPath}/columns/${i}/columnConfig/dataType`);
        dataColumnIssues(f, `${layoutPath}/columns/${i}`);
      });
    }
    config.singleChannelPerRow = scpr;
  }
  evidence.push({
    path: layoutPath,
    choice:
      layout === 'flat'
        ? 'flatDataset'
        : layout === 'multi-channel'
          ? 'singleChannelPerRow multiChannel'
          : 'singleChannelPerRow singleChannel',
    reason: layoutReason,
    confidence: layoutConfidence,
    ...(layoutAlternatives.length > 0 ? { alternatives: layoutAlternatives } : {}),
  });

  if (time && timeColumn) {
    evidence.push({
      path: `${layoutPath}/timeColumn/path`,
      choice: time.field.name,
      reason: time.reason,
      confidence: time.confidence,
      ...(time.alternatives.length > 0 ? { alternatives: time.alternatives } : {}),
    });
    evidence.push({
      path: `${layoutPath}/timeColumn/format`,
      choice: time.format,
      reason: time.reason,
      confidence: time.confidence,
    });
    const range = timeRange(time.field, time.format);
    if (range) {
      evidence.push({
        path: `${layoutPath}/timeColumn`,
        choice: `${range.min} to ${range.max}`,
        reason: `the data's time range, from the row-group statistics${time.field.statsComplete ? '' : ' (some row groups have none)'}`,
        confidence: time.field.statsComplete ? 'high' : 'medium',
      });
    }
    if (timeColumn.relativeStartTime) {
      evidence.push({
        path: `${layoutPath}/timeColumn/relativeStartTime`,
        choice: timeColumn.relativeStartTime,
        reason: options.relativeStartTime ? 'given as an option' : 'a date in the file name',
        confidence: options.relativeStartTime ? 'high' : 'medium',
      });
    }
  }

  if (pandasIndex.length > 0) {
    evidence.push({
      path: layoutPath,
      choice: `left out ${pandasIndex.map((f) => f.name).join(', ')}`,
      reason: 'a pandas index written by pyarrow: row labels, not a channel',
      confidence: 'medium',
    });
  }

  config.footerOffset = profile.footerOffset;
  config.footerLength = profile.footerLength;
  evidence.push({
    path: `${P}/footerOffset`,
    choice: `${profile.footerOffset} (length ${profile.footerLength})`,
    reason: `file size ${profile.file.size} - footer length ${profile.footerLength} - 8`,
    confidence: 'high',
  });

  if (complexMode) {
    config.complexTypesImportMode = complexMode;
    evidence.push({
      path: `${P}/complexTypesImportMode`,
      choice: complexMode,
      reason:
        options.complexTypes !== undefined
          ? 'given as an option (--complex-types)'
          : 'default for nested columns: both the Arrow bytes and the JSON text',
      confidence: options.complexTypes !== undefined ? 'high' : 'medium',
      alternatives: ['IGNORE', 'BOTH', 'STRING', 'BYTES']
        .map((m) => `PARQUET_COMPLEX_TYPES_IMPORT_MODE_${m}`)
        .filter((m) => m !== complexMode),
    });
  }
  if (complex.length > 0) {
    issue(
      'parquet_complex_columns',
      'info',
      `${P}/complexTypesImportMode`,
      `nested columns imported as complex types, not data columns: ${complex.map((f) => `${f.name} (${f.nested})`).join(', ')}`,
      'Choose how with --complex-types IGNORE|STRING|BYTES|BOTH.',
    );
  }

  // Issues about the time column were found before the layout was known: point them at it.
  for (const i of issues) {
    if (i.path === P && TIME_CODES.has(i.code)) i.path = `${layoutPath}/timeColumn`;
  }
  return { document: { parquetConfig: config }, kind: 'parquet', evidence, issues };
}

const TIME_CODES = new Set<string>([
  'parquet_time_not_utc',
  'parquet_time_int96',
  'parquet_time_out_of_range',
  'parquet_time_unit_guessed',
  'parquet_relative_start_unknown',
]);

type Report = (
  code: Issue['code'],
  severity: Issue['severity'],
  path: string,
  message: string,
  hint?: string,
) => void;

/** Candidates in order of strength: TIMESTAMP, INT96, time-named numbers, date-time text. */
async function pickTime(
  flat: ParquetFieldProfile[],
  readHead: HeadReader,
  issue: Report,
): Promise<TimeChoice | undefined> {
  const byName = (a: ParquetFieldProfile, b: ParquetFieldProfile) =>
    timeNameScore(b.name) - timeNameScore(a.name);
  const timestamps = flat.filter((f) => f.temporal?.kind === 'TIMESTAMP').sort(byName);
  const int96 = flat.filter((f) => f.temporal?.kind === 'INT96').sort(byName);
  const numbers = flat
    .filter((f) => isNumeric(f) && f.physicalType !== 'BOOLEAN' && timeNameScore(f.name) > 0)
    .sort(byName);
  const texts = flat.filter((f) => isText(f) && timeNameScore(f.name) > 0).sort(byName);
  const others = (chosen: ParquetFieldProfile) =>
    [...timestamps, ...int96, ...numbers, ...texts]
      .filter((f) => f !== chosen)
      .map((f) => `${f.name} (${f.logicalType ?? f.physicalType})`);

  const first = timestamps[0] ?? int96[0];
  if (first) {
    const t = await timeOfField(first, readHead, issue, false);
    return { ...t, alternatives: others(first) };
  }
  // Numbers whose statistics read as unix time beat the rest.
  for (const f of numbers) {
    const stats = statValues(f);
    if (stats && unixUnitFromMagnitude(stats)) {
      const t = await timeOfField(f, readHead, issue, false);
      return { ...t, alternatives: others(f) };
    }
  }
  const text = texts[0];
  if (text) {
    const head = await readHead(text.name);
    if ('values' in head) {
      const fmt = textFormat(head.values);
      if (fmt) {
        text.samples = head.values.slice(0, 5);
        return {
          field: text,
          format: fmt.format,
          reason: `${text.name} is named like time and its first values ${fmt.reason}`,
          confidence: 'high',
          alternatives: others(text),
        };
      }
    } else {
      issue(
        'parquet_page_unread',
        'info',
        '/parquetConfig',
        `${text.name} not sampled: ${head.reason}`,
      );
    }
  }
  const num = numbers[0];
  if (num) {
    const t = await timeOfField(num, readHead, issue, false);
    return { ...t, alternatives: others(num) };
  }
  return undefined;
}

function statValues(f: ParquetFieldProfile): Array<string | number> | undefined {
  const s = f.stats;
  if (!s || s.min === undefined || s.max === undefined) return undefined;
  return [s.min, s.max];
}

function textFormat(values: string[]): { format: TimeFormat; reason: string } | undefined {
  const vs = values
    .map((v) => v.trim())
    .filter((v) => v !== '')
    .slice(0, 100);
  if (vs.length === 0) return undefined;
  if (vs.every((v) => RFC3339.test(v) && !Number.isNaN(Date.parse(v)))) {
    return { format: 'TIME_FORMAT_ABSOLUTE_RFC3339', reason: 'parse as RFC 3339 (with a zone)' };
  }
  if (vs.every((v) => DATETIME.test(v) && !Number.isNaN(Date.parse(`${v.replace(' ', 'T')}Z`)))) {
    return {
      format: 'TIME_FORMAT_ABSOLUTE_DATETIME',
      reason: 'are dates and times without a zone (assumed UTC)',
    };
  }
  return undefined;
}

const UNIT_FORMAT: Record<string, TimeFormat> = {
  MILLIS: 'TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS',
  MICROS: 'TIME_FORMAT_ABSOLUTE_UNIX_MICROSECONDS',
  NANOS: 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS',
};

/** The format of a column chosen (or proposed) as time, with the reason. */
async function timeOfField(
  f: ParquetFieldProfile,
  readHead: HeadReader,
  issue: Report,
  given: boolean,
): Promise<TimeChoice> {
  const P0 = '/parquetConfig';
  const t = f.temporal;
  if (t?.kind === 'TIMESTAMP' && t.unit) {
    if (t.utc === false) {
      issue(
        'parquet_time_not_utc',
        'info',
        P0,
        `${f.name} is TIMESTAMP(${t.unit}) not adjusted to UTC (no zone); the platform reads it as UTC`,
      );
    }
    return {
      field: f,
      format: UNIT_FORMAT[t.unit] ?? 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS',
      reason: `${f.name} has the TIMESTAMP logical type in ${t.unit} (${t.utc ? 'UTC-adjusted' : 'not UTC-adjusted: local time without zone'})`,
      confidence: 'high',
      alternatives: [],
    };
  }
  if (t?.kind === 'INT96') {
    issue(
      'parquet_time_int96',
      'warning',
      P0,
      `${f.name} is a legacy INT96 timestamp; no unix time format describes it exactly`,
      'Rewrite the file with INT64 timestamps.',
    );
    return {
      field: f,
      format: 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS',
      reason: `${f.name} is an INT96 timestamp (nanosecond precision)`,
      confidence: 'low',
      alternatives: [],
    };
  }
  if (isText(f)) {
    const head = await readHead(f.name);
    if ('values' in head) {
      f.samples = head.values.slice(0, 5);
      const fmt = textFormat(head.values);
      if (fmt) {
        return {
          field: f,
          format: fmt.format,
          reason: `its first values ${fmt.reason}`,
          confidence: 'high',
          alternatives: [],
        };
      }
    }
    issue(
      'parquet_time_unit_guessed',
      'warning',
      P0,
      `${f.name}: its first values ${'values' in head ? 'are not RFC 3339 date-times' : `could not be read (${head.reason})`}; RFC 3339 is a guess`,
      'Give the format with --time-format.',
    );
    return {
      field: f,
      format: 'TIME_FORMAT_ABSOLUTE_RFC3339',
      reason: 'text column, format guessed',
      confidence: 'low',
      alternatives: [],
    };
  }
  const name = given ? 'chosen' : 'named like time';
  const stats = statValues(f);
  const fromName = unitFromName(f.name);
  if (stats) {
    const unix = unixUnitFromMagnitude(stats);
    if (unix) {
      return {
        field: f,
        format: unix.format,
        reason: `${f.name} is ${name}; its statistics (min ${stats[0]}, max ${stats[1]}) ${unix.reason}`,
        confidence: f.statsComplete ? 'high' : 'medium',
        alternatives: [],
      };
    }
    if (fromName) {
      return {
        field: f,
        format: fromName.format,
        reason: `${f.name} is ${name}; its statistics (min ${stats[0]}, max ${stats[1]}) are no unix time, the unit ${fromName.unit} is in its name`,
        confidence: 'medium',
        alternatives: [],
      };
    }
    if (Number(stats[0]) >= 1e9) {
      issue(
        'parquet_time_out_of_range',
        'warning',
        P0,
        `${f.name}: statistics min ${stats[0]}, max ${stats[1]} fit no unix unit within 1990-2100; read as relative seconds`,
      );
    } else {
      issue(
        'parquet_time_unit_guessed',
        'warning',
        P0,
        `${f.name}: values from ${stats[0]} to ${stats[1]} look relative, with no unit in the name; seconds is a guess`,
        'Give the unit with --time-format (e.g. RELATIVE_MILLISECONDS).',
      );
    }
    return {
      field: f,
      format: 'TIME_FORMAT_RELATIVE_SECONDS',
      reason: `${f.name} is ${name}; small values from ${stats[0]} to ${stats[1]}: relative, unit guessed`,
      confidence: 'low',
      alternatives: [],
    };
  }
  // No statistics: the name and the physical type are all there is.
  let format: TimeFormat;
  if (f.physicalType === 'INT64') {
    format =
      (fromName && unixFormatOfUnit(fromName.format)) ?? 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS';
  } else if (f.physicalType === 'INT32') {
    format = fromName?.format ?? 'TIME_FORMAT_ABSOLUTE_UNIX_SECONDS';
  } else {
    format = fromName?.format ?? 'TIME_FORMAT_RELATIVE_SECONDS';
  }
  issue(
    'parquet_time_unit_guessed',
    'warning',
    P0,
    `${f.name} has no statistics to judge its unit by; ${format} is a guess from its ${fromName ? 'name' : 'type'}`,
    'Give the format with --time-format.',
  );
  return {
    field: f,
    format,
    reason: `${f.name} is ${name}; no statistics, unit guessed from its ${fromName ? 'name' : 'type'}`,
    confidence: 'low',
    alternatives: [],
  };
}

const PER_SECOND: Record<string, bigint> = {
  TIME_FORMAT_ABSOLUTE_UNIX_SECONDS: 1n,
  TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS: 1_000n,
  TIME_FORMAT_ABSOLUTE_UNIX_MICROSECONDS: 1_000_000n,
  TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS: 1_000_000_000n,
};

/** The time range in the statistics, as RFC 3339 for unix formats, as stored otherwise. */
export function timeRange(
  f: ParquetFieldProfile,
  format: TimeFormat,
): { min: string; max: string } | undefined {
  const s = f.stats;
  if (!s || s.min === undefined || s.max === undefined) return undefined;
  const per = PER_SECOND[format];
  if (per !== undefined) {
    const a = unixText(s.min, per);
    const b = unixText(s.max, per);
    return a && b ? { min: a, max: b } : undefined;
  }
  return { min: String(s.min), max: String(s.max) };
}

function unixText(v: string | number, per: bigint): string | undefined {
  let big: bigint;
  try {
    big = typeof v === 'number' ? BigInt(Math.floor(v)) : BigInt(v);
  } catch {
    return undefined;
  }
  let sec = big / per;
  let rem = big % per;
  if (rem < 0n) {
    sec -= 1n;
    rem += per;
  }
  const ms = Number(sec) * 1000;
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return undefined;
  const whole = new Date(ms).toISOString().slice(0, 19);
  const digits = per.toString().length - 1;
  return digits === 0 ? `${whole}Z` : `${whole}.${rem.toString().padStart(digits, '0')}Z`;
}

/** A field metadata value that is one of the platform's channel configs (JSON). */
function hasEmbeddedConfig(meta: Record<string, string> | undefined): boolean {
  if (!meta) return false;
  return Object.entries(meta).some(([k, v]) => {
    if (!/^\s*\{/.test(v)) return false;
    try {
      const o: unknown = JSON.parse(v);
      if (typeof o !== 'object' || o === null) return false;
      const dt = (o as Record<string, unknown>).dataType;
      return (
        (typeof dt === 'string' && dt.startsWith('CHANNEL_DATA_TYPE_')) ||
        /channel.?config/i.test(k)
      );
    } catch {
      return false;
    }
  });
}
