/**
 * A Parquet profile → a draft ParquetConfig. Reads the footer (through the inspector) and,
 * where a choice needs values the footer does not hold, one small page per purpose: the
 * first page of a text time column (to see whether it is RFC 3339) and the dictionary or
 * first page of a channel-name column (to list the channel names).
 */
import { basename, extname } from 'node:path';
import type { Confidence, Draft, Evidence, InferOptions, Layout } from '../../infer/shared.js';
import {
  startTimeFromFileName,
  timeNameScore,
  unitFromName,
  unixFormatOfUnit,
  unixUnitFromMagnitude,
} from '../../infer/shared.js';
import { type ByteSource, openForInspection } from '../../inspect/shared.js';
import {
  type ChannelConfig,
  PARQUET_COMPLEX_TYPES_IMPORT_MODE_VALUES,
  type ParquetColumn,
  type ParquetComplexTypesImportMode,
  type ParquetConfig,
  type ParquetTimeColumn,
  TIME_FORMAT_VALUES,
  type TimeFormat,
} from '../../model/index.js';
import {
  DATETIME_TEXT,
  enumName,
  type Issue,
  issue as newIssue,
  RFC3339_TEXT,
} from '../../model/plain.js';
import { listSome, notFoundHint } from '../../validate/index.js';
import { isParquetText, parquetChannelTypeOf } from './channel-types.js';
import {
  type ColumnHead,
  type ColumnHeadMissing,
  inspectParquetSource,
  type ParquetFieldProfile,
  type ParquetProfile,
  readColumnHead,
} from './inspect.js';

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

function isNumeric(f: ParquetFieldProfile): boolean {
  return (
    !f.temporal &&
    (['INT32', 'INT64', 'FLOAT', 'DOUBLE', 'BOOLEAN'].includes(f.physicalType) ||
      f.logicalType === 'FLOAT16' ||
      f.decimal !== undefined)
  );
}

interface TimeChoice {
  field: ParquetFieldProfile;
  format: TimeFormat;
  reason: string;
  confidence: Confidence;
  alternatives: string[];
}

/** Scans the file name and date-time text. */

const NAME_COLUMN =
  /^(channel|channel_?name|channel_?id|name|signal|signal_?name|sensor|sensor_?name|tag|key|variable|measurement|metric|parameter|param|series)$/i;
const VALUE_COLUMN = /^(value|values|val|data|reading|measurement|y|v)$/i;

/**
 * The draft for a profile: time column, layout, channels, footer, complex types, each with
 * its evidence. Pure but for `readHead`, called at most once per purpose. The steps run in
 * the order their issues and evidence are listed.
 */
export async function draftFromProfile(
  profile: ParquetProfile,
  options: InferOptions,
  readHead: HeadReader,
): Promise<Draft> {
  const out = newFindings(profile.file.path);
  const complex = profile.fields.filter((f) => f.nested);
  const flat = profile.fields.filter((f) => !f.nested);
  const time = await chooseTimeColumn(profile, flat, options, readHead, out);
  const timeColumn = timeColumnOf(time, options, profile.file.path, out);
  // pyarrow writes a pandas index that is not a plain range as `__index_level_N__`: row
  // labels, not a channel.
  const pandasIndex = flat.filter((f) => f !== time?.field && /^__index_level_\d+__$/.test(f.name));
  const data = flat.filter((f) => f !== time?.field && !pandasIndex.includes(f));
  const layout = chooseLayout(profile, data, options.layout, out);
  const names =
    layout.layout === 'multi-channel' && layout.nameCol
      ? await channelNamesOf(layout.nameCol, readHead, out)
      : undefined;
  const embedded = flat.filter((f) => hasEmbeddedConfig(f.arrowMetadata));
  const complexMode = chooseComplexMode(options, complex, out);

  const base = basename(profile.file.path, extname(profile.file.path));
  const config: ParquetConfig = assetAndRun(options, base, out);
  const layoutPath =
    layout.layout === 'flat'
      ? buildFlat(config, data, timeColumn, embedded, out)
      : buildSingleChannelPerRow(config, { profile, data, timeColumn, layout, names, base }, out);
  out.evidence.push(layoutEvidence(layout, layoutPath));
  if (time && timeColumn) timeEvidence(time, timeColumn, layoutPath, options, out);
  if (pandasIndex.length > 0) {
    out.evidence.push({
      path: layoutPath,
      choice: `left out ${pandasIndex.map((f) => f.name).join(', ')}`,
      reason: 'a pandas index written by pyarrow: row labels, not a channel',
      confidence: 'medium',
    });
  }
  footerOf(config, profile, out);
  complexTypesOf(config, complexMode, complex, options, out);
  // Issues about the time column were found before the layout was known: point them at it.
  for (const i of out.issues) {
    if (i.path === P && TIME_CODES.has(i.code)) i.path = `${layoutPath}/timeColumn`;
  }
  return {
    document: { parquetConfig: config },
    kind: 'parquet',
    evidence: out.evidence,
    issues: out.issues,
  };
}

/** What the steps found, in order: issues (through `issue`) and evidence. */
interface Findings {
  issues: Issue[];
  evidence: Evidence[];
  issue: Report;
}

function newFindings(file: string): Findings {
  const issues: Issue[] = [];
  const issue: Report = (code, path, message, hint) => {
    issues.push(newIssue(code, path, message, { hint: hint || undefined, source: { file } }));
  };
  return { issues, evidence: [], issue };
}

/** The time column: the one given (by name or 1-based position), else the strongest candidate. */
async function chooseTimeColumn(
  profile: ParquetProfile,
  flat: ParquetFieldProfile[],
  options: InferOptions,
  readHead: HeadReader,
  out: Findings,
): Promise<TimeChoice | undefined> {
  let time: TimeChoice | undefined;
  if (options.timeColumn !== undefined) {
    const want = options.timeColumn;
    const field =
      typeof want === 'number' || /^\d+$/.test(want)
        ? profile.fields[Number(want) - 1]
        : (profile.fields.find((f) => f.name === want) ??
          profile.fields.find((f) => f.name.toLowerCase() === String(want).toLowerCase()));
    if (!field || field.nested) {
      out.issue(
        'parquet_option_invalid',
        `${P}`,
        field
          ? `\`timeColumn\` ${want}: ${field.name} is a nested column and cannot be the time`
          : `\`timeColumn\` ${want}: no such column`,
        field
          ? undefined
          : notFoundHint(
              String(want),
              profile.fields.map((f) => f.name),
              "The file's columns",
            ),
      );
    } else {
      time = await timeOfField(field, readHead, out.issue, true);
      time.reason = `given as an option; ${time.reason}`;
    }
  }
  if (!time) time = await pickTime(flat, readHead, out.issue);
  if (time && options.timeFormat) time = chooseTimeFormat(time, options.timeFormat, out);
  return time;
}

/** A time format given as an option replaces the inferred one (and what was said of it). */
function chooseTimeFormat(time: TimeChoice, given: string, out: Findings): TimeChoice {
  const format = enumName(given, 'TIME_FORMAT_', TIME_FORMAT_VALUES);
  if (!format) {
    out.issue(
      'parquet_option_invalid',
      P,
      `\`timeFormat\` ${given}: not a time format (e.g. ABSOLUTE_UNIX_NANOSECONDS)`,
    );
    return time;
  }
  // What inference said about its own guess of the unit no longer applies.
  for (let i = out.issues.length - 1; i >= 0; i--) {
    const code = out.issues[i]?.code;
    if (code === 'parquet_time_unit_guessed' || code === 'parquet_time_out_of_range') {
      out.issues.splice(i, 1);
    }
  }
  return { ...time, format, reason: 'given as an option (`timeFormat`)', confidence: 'high' };
}

/** The config's time column, with the start of relative time; no time is an error. */
function timeColumnOf(
  time: TimeChoice | undefined,
  options: InferOptions,
  file: string,
  out: Findings,
): ParquetTimeColumn | undefined {
  if (!time) {
    out.issue(
      'parquet_no_time_column',
      P,
      `${file}: no column looks like time (no TIMESTAMP column, no time-named integer column, no date-time text)`,
      'Name it with the `timeColumn` option and give its format with `timeFormat`.',
    );
    return undefined;
  }
  const timeColumn: ParquetTimeColumn = { path: time.field.name, format: time.format };
  const nulls = time.field.nullCount ?? 0;
  if (nulls > 0) {
    out.issue(
      'time_null',
      P,
      `${time.field.name}: the row-group statistics count ${nulls} row${nulls === 1 ? '' : 's'} without a time (null); the platform cannot place ${nulls === 1 ? 'it' : 'them'}`,
      'Fill in or drop the rows without a time before importing.',
    );
  }
  if (time.format.startsWith('TIME_FORMAT_RELATIVE_')) {
    const start = options.relativeStartTime ?? startTimeFromFileName(file);
    if (start) {
      timeColumn.relativeStartTime = start;
    } else {
      out.issue(
        'parquet_relative_start_unknown',
        P,
        `${time.field.name} holds relative time (${time.format}) and no start time was given or found in the file name`,
        'Give it with the `relativeStartTime` option (e.g. 2024-01-01T00:00:00Z).',
      );
    }
  }
  return timeColumn;
}

function channelOf(f: ParquetFieldProfile, name = f.name): ChannelConfig {
  const { dataType } = parquetChannelTypeOf(f);
  return {
    name,
    ...(f.units ? { units: f.units } : {}),
    ...(f.description ? { description: f.description } : {}),
    dataType,
  };
}

interface LayoutChoice {
  layout: Layout;
  reason: string;
  confidence: Confidence;
  alternatives: string[];
  /** The long form's name and value columns, when the file has them. */
  nameCol: ParquetFieldProfile | undefined;
  valueCol: ParquetFieldProfile | undefined;
  /** The single channel's value column, when long form without names. */
  single: ParquetFieldProfile | undefined;
}

/** Flat (wide), long form (a name column and a value column), or one channel per file. */
function chooseLayout(
  profile: ParquetProfile,
  data: ParquetFieldProfile[],
  given: Layout | undefined,
  out: Findings,
): LayoutChoice {
  const texts = data.filter((f) => parquetChannelTypeOf(f).dataType === 'CHANNEL_DATA_TYPE_STRING');
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
  const asked = given === 'multi-channel';
  const nameCol = namedName ?? (onlyPair || asked ? texts[0] : undefined);
  const valueCol =
    namedValue ?? (onlyPair || asked || (nameCol && values.length === 1) ? values[0] : undefined);
  const columns = { nameCol, valueCol, single: namedValue ?? values[0] ?? data[0] };
  checkLayoutOption(given, data, nameCol, valueCol, out);
  const byOption = { reason: 'given as an option (`layout`)', confidence: 'high' as const };
  if (given === 'multi-channel' && nameCol && valueCol) {
    return { layout: 'multi-channel', ...byOption, alternatives: [], ...columns };
  }
  if (given === 'single-channel' && data.length > 0) {
    return { layout: 'single-channel', ...byOption, alternatives: [], ...columns };
  }
  if (given === 'flat') return { layout: 'flat', ...byOption, alternatives: [], ...columns };
  if (nameCol && valueCol) {
    return {
      layout: 'multi-channel',
      reason: `${nameCol.name} is a text column ${NAME_COLUMN.test(nameCol.name) ? 'named like channel names' : 'beside a single value column'} and ${valueCol.name} ${VALUE_COLUMN.test(valueCol.name) ? 'is named like the value' : 'is the only numeric column'}: one row per sample of the channel it names (long form)`,
      confidence:
        NAME_COLUMN.test(nameCol.name) && VALUE_COLUMN.test(valueCol.name) ? 'high' : 'medium',
      alternatives: ['flatDataset: one channel per column (`layout`: flat)'],
      ...columns,
    };
  }
  if (data.length === 1 && data[0]) {
    return {
      layout: 'flat',
      reason: `time plus the single value column ${data[0].name}: a flat dataset of one channel`,
      confidence: 'medium',
      alternatives: [
        `singleChannelPerRow singleChannel {dataPath: ${data[0].name}}: the whole file is one channel (\`layout\`: single-channel)`,
      ],
      ...columns,
    };
  }
  return {
    layout: 'flat',
    reason: 'time plus one column per channel (wide form)',
    confidence: 'high',
    alternatives: [],
    ...columns,
  };
}

/** A layout option the file cannot follow is an error (inference then chooses). */
function checkLayoutOption(
  given: Layout | undefined,
  data: ParquetFieldProfile[],
  nameCol: ParquetFieldProfile | undefined,
  valueCol: ParquetFieldProfile | undefined,
  out: Findings,
) {
  if (given === 'multi-channel' && !(nameCol && valueCol)) {
    out.issue(
      'parquet_option_invalid',
      P,
      `\`layout\` multi-channel: the file has no ${nameCol ? 'numeric value column' : 'text column of channel names'} beside the time`,
    );
  }
  if (given === 'single-channel' && data.length === 0) {
    out.issue(
      'parquet_option_invalid',
      P,
      '`layout` single-channel: no value column beside the time',
    );
  }
}

interface ChannelNames {
  names: string[];
  from: 'dictionary' | 'first page';
}

/** Channel names of a long-form file, from the name column's dictionary or first page. */
async function channelNamesOf(
  nameCol: ParquetFieldProfile,
  readHead: HeadReader,
  out: Findings,
): Promise<ChannelNames | undefined> {
  const head = await readHead(nameCol.name);
  if (!('values' in head)) {
    out.issue(
      'parquet_page_unread',
      P,
      `channel names not listed: ${nameCol.name}: ${head.reason}`,
    );
    return undefined;
  }
  const names = [...new Set(head.values)].slice(0, 1000);
  nameCol.samples = names.slice(0, 20);
  return { names, from: head.from === 'dictionary' ? 'dictionary' : 'first page' };
}

/** The complex-types mode: the one given, else BOTH when the file has nested columns. */
function chooseComplexMode(
  options: InferOptions,
  complex: ParquetFieldProfile[],
  out: Findings,
): ParquetComplexTypesImportMode | undefined {
  let mode: ParquetComplexTypesImportMode | undefined;
  if (options.complexTypes !== undefined) {
    mode = enumName(
      options.complexTypes,
      'PARQUET_COMPLEX_TYPES_IMPORT_MODE_',
      PARQUET_COMPLEX_TYPES_IMPORT_MODE_VALUES,
    );
    if (!mode) {
      out.issue(
        'parquet_option_invalid',
        P,
        `\`complexTypes\` ${options.complexTypes}: not one of IGNORE, BOTH, STRING, BYTES`,
      );
    }
  }
  if (!mode && complex.length > 0) mode = 'PARQUET_COMPLEX_TYPES_IMPORT_MODE_BOTH';
  return mode;
}

/** The asset (given, else the file's base name) and the run, when given. */
function assetAndRun(options: InferOptions, base: string, out: Findings): ParquetConfig {
  const config: ParquetConfig = {
    assetName: options.assetName ?? base,
    ...(options.runName ? { runName: options.runName } : {}),
  };
  out.evidence.push({
    path: `${P}/assetName`,
    choice: config.assetName ?? '',
    reason: options.assetName ? 'given as an option' : "default: the file's base name",
    confidence: options.assetName ? 'high' : 'low',
  });
  return config;
}

/** A value column's type, with its evidence, and what the mapping loses. */
function channelFor(f: ParquetFieldProfile, typePath: string, columnPath: string, out: Findings) {
  out.evidence.push({
    path: typePath,
    choice: parquetChannelTypeOf(f).dataType,
    reason: `Parquet ${f.physicalType}${f.logicalType ? ` ${f.logicalType}` : ''}${f.units ? `; units ${f.units} from Arrow field metadata` : ''}`,
    confidence: 'high',
  });
  if (columnPath !== '') dataColumnIssues(f, columnPath, out);
}

function dataColumnIssues(f: ParquetFieldProfile, path: string, out: Findings) {
  const { note } = parquetChannelTypeOf(f);
  if (note === 'decimal') {
    out.issue(
      'parquet_decimal_as_double',
      path,
      `${f.name} is ${f.logicalType ?? 'DECIMAL'}: imported as DOUBLE, exact only to 15-16 significant digits`,
    );
  } else if (note === 'temporal') {
    out.issue(
      'parquet_temporal_as_int64',
      path,
      `${f.name} is ${f.logicalType ?? f.physicalType} and not the time column: imported as INT_64 of its stored value`,
    );
  }
}

/** flatDataset: the time and one data column per channel. Returns the layout's path. */
function buildFlat(
  config: ParquetConfig,
  data: ParquetFieldProfile[],
  timeColumn: ParquetTimeColumn | undefined,
  embedded: ParquetFieldProfile[],
  out: Findings,
): string {
  const layoutPath = `${P}/flatDataset`;
  const useEmbedded = embedded.length > 0;
  config.flatDataset = {
    ...(timeColumn ? { timeColumn } : {}),
    dataColumns: data.map((f) => ({ path: f.name, channelConfig: channelOf(f) })),
    ...(useEmbedded ? { useEmbeddedConfig: true } : {}),
  };
  data.forEach((f, i) => {
    const path = `${layoutPath}/dataColumns/${i}`;
    channelFor(f, `${path}/channelConfig/dataType`, path, out);
  });
  if (data.length === 0) {
    out.issue(
      'parquet_no_data_columns',
      `${layoutPath}/dataColumns`,
      'no column besides the time can be a channel',
    );
  }
  if (useEmbedded) {
    const names = embedded.map((f) => f.name).join(', ');
    out.issue(
      'parquet_embedded_config',
      `${layoutPath}/useEmbeddedConfig`,
      `Arrow field metadata of ${names} carries channel configs: useEmbeddedConfig is set`,
    );
    out.evidence.push({
      path: `${layoutPath}/useEmbeddedConfig`,
      choice: 'true',
      reason: `channel configs in the Arrow field metadata of ${names}`,
      confidence: 'medium',
    });
  }
  return layoutPath;
}

interface RowsPlan {
  profile: ParquetProfile;
  data: ParquetFieldProfile[];
  timeColumn: ParquetTimeColumn | undefined;
  layout: LayoutChoice;
  names: ChannelNames | undefined;
  base: string;
}

/** singleChannelPerRow: long form (multiChannel) or one channel, the rest as columns. */
function buildSingleChannelPerRow(config: ParquetConfig, plan: RowsPlan, out: Findings): string {
  const layoutPath = `${P}/singleChannelPerRow`;
  const { data, timeColumn, layout } = plan;
  const used = new Set<ParquetFieldProfile>();
  const scpr: NonNullable<ParquetConfig['singleChannelPerRow']> = {
    ...(timeColumn ? { timeColumn } : {}),
  };
  const { nameCol, valueCol, single } = layout;
  if (layout.layout === 'multi-channel' && nameCol && valueCol) {
    used.add(nameCol).add(valueCol);
    scpr.multiChannel = { namePath: nameCol.name, dataPath: valueCol.name };
    out.evidence.push({
      path: `${layoutPath}/multiChannel`,
      choice: `namePath ${nameCol.name}, dataPath ${valueCol.name}`,
      reason: multiChannelReason(plan.profile, nameCol, valueCol, plan.names),
      confidence: layout.confidence,
    });
    channelFor(valueCol, `${layoutPath}/multiChannel/dataPath`, '', out);
  } else if (single) {
    used.add(single);
    const generic = VALUE_COLUMN.test(single.name);
    const name = generic ? plan.base : single.name;
    scpr.singleChannel = { dataPath: single.name, channel: channelOf(single, name) };
    out.evidence.push({
      path: `${layoutPath}/singleChannel/channel/name`,
      choice: name,
      reason: generic
        ? `the value column's name (${single.name}) names no channel: the file's base name`
        : 'the value column name',
      confidence: 'low',
    });
    channelFor(
      single,
      `${layoutPath}/singleChannel/channel/dataType`,
      `${layoutPath}/singleChannel`,
      out,
    );
  }
  const others = data.filter((f) => !used.has(f));
  if (others.length > 0) {
    scpr.columns = others.map((f): ParquetColumn => ({ path: f.name, columnConfig: channelOf(f) }));
    others.forEach((f, i) => {
      const path = `${layoutPath}/columns/${i}`;
      channelFor(f, `${path}/columnConfig/dataType`, path, out);
    });
  }
  // Keys in the model's order (the order `fmt` writes): timeColumn, columns, then the channel.
  const { singleChannel, multiChannel, ...head } = scpr;
  config.singleChannelPerRow = {
    ...head,
    ...(singleChannel ? { singleChannel } : {}),
    ...(multiChannel ? { multiChannel } : {}),
  };
  return layoutPath;
}

function multiChannelReason(
  profile: ParquetProfile,
  nameCol: ParquetFieldProfile,
  valueCol: ParquetFieldProfile,
  names: ChannelNames | undefined,
): string {
  if (!names) return `${nameCol.name} holds the channel names, ${valueCol.name} the values`;
  const n = names.names.length;
  const groups = profile.rowGroups > 1 ? `, of ${profile.rowGroups}` : '';
  return `${n} channel name${n === 1 ? '' : 's'} in ${nameCol.name} (${names.from} of the first row group${groups}): ${listSome(names.names, 20)}`;
}

function layoutEvidence(layout: LayoutChoice, layoutPath: string): Evidence {
  return {
    path: layoutPath,
    choice:
      layout.layout === 'flat'
        ? 'flatDataset'
        : layout.layout === 'multi-channel'
          ? 'singleChannelPerRow multiChannel'
          : 'singleChannelPerRow singleChannel',
    reason: layout.reason,
    confidence: layout.confidence,
    ...(layout.alternatives.length > 0 ? { alternatives: layout.alternatives } : {}),
  };
}

/** The time column's path, format, range (row-group statistics) and relative start. */
function timeEvidence(
  time: TimeChoice,
  timeColumn: ParquetTimeColumn,
  layoutPath: string,
  options: InferOptions,
  out: Findings,
) {
  out.evidence.push({
    path: `${layoutPath}/timeColumn/path`,
    choice: time.field.name,
    reason: time.reason,
    confidence: time.confidence,
    ...(time.alternatives.length > 0 ? { alternatives: time.alternatives } : {}),
  });
  out.evidence.push({
    path: `${layoutPath}/timeColumn/format`,
    choice: time.format,
    reason: time.reason,
    confidence: time.confidence,
  });
  const range = timeRange(time.field, time.format);
  if (range) {
    out.evidence.push({
      path: `${layoutPath}/timeColumn`,
      choice: `${range.min} to ${range.max}`,
      reason: `the data's time range, from the row-group statistics${time.field.statsComplete ? '' : ' (some row groups have none)'}`,
      confidence: time.field.statsComplete ? 'high' : 'medium',
    });
  }
  if (timeColumn.relativeStartTime) {
    out.evidence.push({
      path: `${layoutPath}/timeColumn/relativeStartTime`,
      choice: timeColumn.relativeStartTime,
      reason: options.relativeStartTime ? 'given as an option' : 'a date in the file name',
      confidence: options.relativeStartTime ? 'high' : 'medium',
    });
  }
}

function footerOf(config: ParquetConfig, profile: ParquetProfile, out: Findings) {
  config.footerOffset = profile.footerOffset;
  config.footerLength = profile.footerLength;
  out.evidence.push({
    path: `${P}/footerOffset`,
    choice: `${profile.footerOffset} (length ${profile.footerLength})`,
    reason: `file size ${profile.file.size} - footer length ${profile.footerLength} - 8`,
    confidence: 'high',
  });
}

function complexTypesOf(
  config: ParquetConfig,
  mode: ParquetComplexTypesImportMode | undefined,
  complex: ParquetFieldProfile[],
  options: InferOptions,
  out: Findings,
) {
  if (mode) {
    config.complexTypesImportMode = mode;
    out.evidence.push({
      path: `${P}/complexTypesImportMode`,
      choice: mode,
      reason:
        options.complexTypes !== undefined
          ? 'given as an option (`complexTypes`)'
          : 'default for nested columns: both the Arrow bytes and the JSON text',
      confidence: options.complexTypes !== undefined ? 'high' : 'medium',
      alternatives: ['IGNORE', 'BOTH', 'STRING', 'BYTES']
        .map((m) => `PARQUET_COMPLEX_TYPES_IMPORT_MODE_${m}`)
        .filter((m) => m !== mode),
    });
  }
  if (complex.length > 0) {
    out.issue(
      'parquet_complex_columns',
      `${P}/complexTypesImportMode`,
      `nested columns imported as complex types, not data columns: ${complex.map((f) => `${f.name} (${f.nested})`).join(', ')}`,
      'Choose how with the `complexTypes` option (IGNORE, STRING, BYTES or BOTH).',
    );
  }
}

const TIME_CODES = new Set<string>([
  'time_null',
  'parquet_time_not_utc',
  'parquet_time_int96',
  'parquet_time_out_of_range',
  'parquet_time_unit_guessed',
  'parquet_relative_start_unknown',
]);

type Report = (code: Issue['code'], path: string, message: string, hint?: string) => void;

/**
 * The names the platform's CLI takes a time column by (`import parquet`, any case; its
 * Python client looks for a TIMESTAMP column first, then an integer one named ts, timestamp
 * or time).
 */
const PLATFORM_TIME_NAMES = ['time', 'timestamp', 'timestamps', 'ts'];

/**
 * The time column: the first column the platform's CLI takes by its name (time, timestamp,
 * timestamps, ts, any case) when it is a TIMESTAMP, INT96 or a number (text so named is
 * taken below only when its first page reads as date-times), so that a draft times its channels as
 * the platform's own tools do; else the candidates in order of strength: TIMESTAMP, INT96,
 * time-named numbers, date-time text.
 */
async function pickTime(
  flat: ParquetFieldProfile[],
  readHead: HeadReader,
  issue: Report,
): Promise<TimeChoice | undefined> {
  const named = flat.find(
    (f) =>
      PLATFORM_TIME_NAMES.includes(f.name.toLowerCase()) &&
      (f.temporal?.kind === 'TIMESTAMP' ||
        f.temporal?.kind === 'INT96' ||
        (isNumeric(f) && f.physicalType !== 'BOOLEAN')),
  );
  // What the strongest candidate by type says is said only when it is the one chosen.
  const held: Array<() => void> = [];
  const byType = await pickTimeByType(flat, readHead, (...i) => held.push(() => issue(...i)));
  if (!named || named === byType?.field) {
    for (const say of held) say();
    return byType;
  }
  const t = await timeOfField(named, readHead, issue, false);
  return {
    ...t,
    reason: `${named.name} is named as the platform's CLI names a time column (${PLATFORM_TIME_NAMES.join(', ')}); ${t.reason}`,
    alternatives: flat
      .filter((f) => f === byType?.field)
      .map((f) => `${f.name} (${f.logicalType ?? f.physicalType}): the strongest by type`),
  };
}

/** Candidates in order of strength: TIMESTAMP, INT96, time-named numbers, date-time text. */
async function pickTimeByType(
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
  const texts = flat.filter((f) => isParquetText(f) && timeNameScore(f.name) > 0).sort(byName);
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
      issue('parquet_page_unread', '/parquetConfig', `${text.name} not sampled: ${head.reason}`);
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
  if (vs.every((v) => RFC3339_TEXT.test(v) && !Number.isNaN(Date.parse(v)))) {
    return { format: 'TIME_FORMAT_ABSOLUTE_RFC3339', reason: 'parse as RFC 3339 (with a zone)' };
  }
  if (
    vs.every((v) => DATETIME_TEXT.test(v) && !Number.isNaN(Date.parse(`${v.replace(' ', 'T')}Z`)))
  ) {
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

/** The time format of a column chosen as the time, by its kind: TIMESTAMP, INT96, text, number. */
async function timeOfField(
  f: ParquetFieldProfile,
  readHead: HeadReader,
  issue: Report,
  given: boolean,
): Promise<TimeChoice> {
  const t = f.temporal;
  if (t?.kind === 'TIMESTAMP' && t.unit) return timestampTime(f, t.unit, t.utc, issue);
  if (t?.kind === 'INT96') {
    issue(
      'parquet_time_int96',
      P,
      `${f.name} is a legacy INT96 timestamp (deprecated in Parquet); the platform reads it, through Arrow, as unix nanoseconds`,
      'Rewrite the file with INT64 timestamps where you can (Spark: `spark.sql.parquet.outputTimestampType=TIMESTAMP_MICROS`).',
    );
    return {
      field: f,
      format: 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS',
      reason: `${f.name} is an INT96 timestamp (nanoseconds of the day and a Julian day), which Arrow, and so the platform, reads as unix nanoseconds`,
      confidence: 'medium',
      alternatives: [],
    };
  }
  if (isParquetText(f)) return textTime(f, readHead, issue);
  const name = given ? 'chosen' : 'named like time';
  const stats = statValues(f);
  if (stats) return numberTimeByStats(f, stats, name, issue);
  return numberTimeByName(f, name, issue);
}

function timestampTime(
  f: ParquetFieldProfile,
  unit: NonNullable<NonNullable<ParquetFieldProfile['temporal']>['unit']>,
  utc: boolean | undefined,
  issue: Report,
): TimeChoice {
  if (utc === false) {
    issue(
      'parquet_time_not_utc',
      P,
      `${f.name} is TIMESTAMP(${unit}) not adjusted to UTC (no zone); the platform reads it as UTC`,
    );
  }
  return {
    field: f,
    format: UNIT_FORMAT[unit] ?? 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS',
    reason: `${f.name} has the TIMESTAMP logical type in ${unit} (${utc ? 'UTC-adjusted' : 'not UTC-adjusted: local time without zone'})`,
    confidence: 'high',
    alternatives: [],
  };
}

/** A text time column: RFC 3339 (or another date-time text) when its first page says so. */
async function textTime(
  f: ParquetFieldProfile,
  readHead: HeadReader,
  issue: Report,
): Promise<TimeChoice> {
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
    P,
    `${f.name}: its first values ${'values' in head ? 'are not RFC 3339 date-times' : `could not be read (${head.reason})`}; RFC 3339 is a guess`,
    'Give the format with the `timeFormat` option.',
  );
  return {
    field: f,
    format: 'TIME_FORMAT_ABSOLUTE_RFC3339',
    reason: 'text column, format guessed',
    confidence: 'low',
    alternatives: [],
  };
}

/** A numeric time column with statistics: a unix unit by magnitude, else the name's unit. */
function numberTimeByStats(
  f: ParquetFieldProfile,
  stats: NonNullable<ReturnType<typeof statValues>>,
  name: string,
  issue: Report,
): TimeChoice {
  const fromName = unitFromName(f.name);
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
      P,
      `${f.name}: statistics min ${stats[0]}, max ${stats[1]} fit no unix unit within 1990-2100; read as relative seconds`,
    );
  } else {
    issue(
      'parquet_time_unit_guessed',
      P,
      `${f.name}: values from ${stats[0]} to ${stats[1]} look relative, with no unit in the name; seconds is a guess`,
      'Give the unit with the `timeFormat` option (e.g. RELATIVE_MILLISECONDS).',
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

/** A numeric time column without statistics: the name and the physical type are all there is. */
function numberTimeByName(f: ParquetFieldProfile, name: string, issue: Report): TimeChoice {
  const fromName = unitFromName(f.name);
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
    P,
    `${f.name} has no statistics to judge its unit by; ${format} is a guess from its ${fromName ? 'name' : 'type'}`,
    'Give the format with the `timeFormat` option.',
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
