import { basename } from 'node:path';
import type { Confidence, Draft, Evidence, InferOptions } from '../../infer/shared.js';
import {
  isRelativeFormat,
  isRfc3339,
  isUnixFormat,
  parseTimeFormatName,
  relativeFormatFromUnit,
  relativeUnitFromSpacing,
  startTimeFromFileName,
  type TimeGuess,
  timeNameScore,
  unitFromName,
  unixUnitFromMagnitude,
} from '../../infer/shared.js';
import { type ByteSource, openForInspection } from '../../inspect/shared.js';
import type { ChannelConfig, ChannelDataType, CsvConfig, TimeFormat } from '../../model/index.js';
import { type Issue, issue, parseDelimiter, pointer, pushAll } from '../../model/plain.js';
import { didYouMean, suggestClosest } from '../../validate/index.js';
import { type NumberStyle, numberStyleOf } from './cells.js';
import { inspectCsvSource } from './inspect.js';
import type { CsvFieldProfile, CsvProfile } from './profile.js';

/**
 * Inspects a CSV file and infers a draft CsvConfig with the evidence for each choice.
 * Options override any choice. The draft is not validated here (`inferConfig` does that).
 */
export async function inferCsv(path: string, options: InferOptions = {}): Promise<Draft> {
  const source = await openForInspection(path);
  try {
    return await inferCsvSource(source, options);
  } finally {
    await source.close();
  }
}

/** `inferCsv` over an open byte source (a member of a folder or an archive). */
export async function inferCsvSource(
  source: ByteSource,
  options: InferOptions = {},
): Promise<Draft> {
  const issues: Issue[] = [];
  let delimiter: string | undefined;
  if (options.delimiter !== undefined) {
    delimiter = parseDelimiter(options.delimiter);
    if (delimiter === undefined)
      issues.push(
        optionIssue(
          `delimiter '${options.delimiter}' is not one of , ; tab | : it was detected instead`,
        ),
      );
  }
  const profile = await inspectCsvSource(source, {
    ...(options.full ? { full: true } : {}),
    ...(delimiter !== undefined ? { delimiter } : {}),
    ...(options.headerRow !== undefined ? { headerRow: options.headerRow } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  const draft = inferCsvFromProfile(profile, options);
  return { ...draft, issues: [...issues, ...draft.issues] };
}

function optionIssue(message: string): Issue {
  return issue('infer_option_invalid', '', message);
}

/** A time-column candidate with its score and the format its values say. */
export interface TimeCandidate {
  column: number;
  name: string;
  score: number;
  guess?: TimeGuess;
  reasons: string[];
}

const CSV = 'csvConfig';

/** The file's base name without `.csv`, `.tsv`, `.txt` or `.gz`. */
export function assetNameOf(path: string): string {
  return basename(path)
    .replace(/\.gz$/i, '')
    .replace(/\.(csv|tsv|txt)$/i, '');
}

/** Records one choice with its evidence. */
type RecordEvidence = (
  path: string,
  choice: string,
  reason: string,
  confidence: Confidence,
  alternatives?: string[],
) => void;

function evidenceRecorder(evidence: Evidence[]): RecordEvidence {
  return (path, choice, reason, confidence, alternatives) => {
    const e: Evidence = { path, choice, reason, confidence };
    if (alternatives && alternatives.length > 0) e.alternatives = alternatives;
    evidence.push(e);
  };
}

/** A profile → a draft CsvConfig. Pure: no files are read. */
export function inferCsvFromProfile(profile: CsvProfile, options: InferOptions = {}): Draft {
  const file = profile.file.path;
  const evidence: Evidence[] = [];
  const issues: Issue[] = [...profile.issues];
  const config: CsvConfig = {};
  const ev = evidenceRecorder(evidence);

  chooseAssetAndRun(config, options, file, ev);
  chooseRows(config, profile, options, ev, issues);
  if (profile.layout.embeddedConfigRows.length > 0) {
    // The file says its own columns.
    useEmbeddedConfig(config, profile.layout.embeddedConfigRows, file, ev, issues);
    return { document: { csvConfig: config }, kind: 'csv', evidence, issues };
  }
  const time = chooseTimeColumnConfig(config, profile.fields, options, file, ev, issues);
  const dataColumns: Record<string, ChannelConfig> = {};
  for (const f of profile.fields) {
    if (time && f.column === time.field.column) continue;
    dataColumns[String(f.column)] = channelFor(f, profile, file, ev, issues);
  }
  config.dataColumns = dataColumns;
  return { document: { csvConfig: config }, kind: 'csv', evidence, issues };
}

/** The asset (given, or the file's base name) and the run (only when given). */
function chooseAssetAndRun(
  config: CsvConfig,
  options: InferOptions,
  file: string,
  ev: RecordEvidence,
): void {
  if (options.assetName !== undefined) {
    config.assetName = options.assetName;
    ev(pointer(CSV, 'assetName'), options.assetName, 'as given', 'high');
  } else {
    config.assetName = assetNameOf(file);
    ev(
      pointer(CSV, 'assetName'),
      config.assetName,
      "default: the file's base name (set the `assetName` option to name the asset)",
      'medium',
    );
  }
  if (options.runName !== undefined) {
    config.runName = options.runName;
    ev(pointer(CSV, 'runName'), options.runName, 'as given', 'high');
  }
}

/** The first data row from the layout, with warnings for an uncertain header and a non-comma delimiter. */
function chooseRows(
  config: CsvConfig,
  profile: CsvProfile,
  options: InferOptions,
  ev: RecordEvidence,
  issues: Issue[],
): void {
  const file = profile.file.path;
  const layout = profile.layout;
  config.firstDataRow = layout.firstDataRow;
  const rowReasons: string[] = [];
  if (layout.preambleRows > 0) rowReasons.push(`${layout.preambleRows} preamble row(s)`);
  if (layout.embeddedConfigRows.length > 0)
    rowReasons.push(`embedded config in row(s) ${layout.embeddedConfigRows.join(', ')}`);
  rowReasons.push(layout.headerReason);
  if (layout.unitsRow > 0) rowReasons.push(`row ${layout.unitsRow} holds units`);
  ev(
    pointer(CSV, 'firstDataRow'),
    String(layout.firstDataRow),
    rowReasons.join('; '),
    options.headerRow !== undefined ? 'high' : layout.headerConfidence,
  );
  if (layout.headerConfidence === 'low' && options.headerRow === undefined)
    issues.push(
      issue(
        'csv_header_uncertain',
        pointer(CSV, 'firstDataRow'),
        `${file}: ${layout.headerReason}`,
        { hint: 'Set the `headerRow` option (0 for none) if this is wrong.' },
      ),
    );
  if (profile.dialect.delimiter !== ',')
    issues.push(
      issue(
        'csv_delimiter_not_comma',
        '',
        `${file}: the delimiter is ${showDelimiter(profile.dialect.delimiter)}; a CsvConfig cannot say so`,
        { hint: 'Check that the platform reads this delimiter, or convert the file to commas.' },
      ),
    );
}

/** The file carries the platform's embedded config: the draft uses it instead of columns. */
function useEmbeddedConfig(
  config: CsvConfig,
  rows: readonly number[],
  file: string,
  ev: RecordEvidence,
  issues: Issue[],
): void {
  config.useEmbeddedConfig = true;
  ev(
    pointer(CSV, 'useEmbeddedConfig'),
    'true',
    `row(s) ${rows.join(', ')} hold JSON objects in their cells (the platform's embedded config)`,
    'high',
  );
  issues.push(
    issue(
      'csv_embedded_config',
      pointer(CSV, 'useEmbeddedConfig'),
      `${file}: row(s) ${rows.join(', ')} hold the platform's embedded config; the draft uses it`,
    ),
  );
}

/** The time column, its format and start time, set on the config; the choice is returned. */
function chooseTimeColumnConfig(
  config: CsvConfig,
  fields: readonly CsvFieldProfile[],
  options: InferOptions,
  file: string,
  ev: RecordEvidence,
  issues: Issue[],
): TimeChoice | undefined {
  const time = chooseTimeColumn(fields, options, file, issues);
  if (!time) return undefined;
  pushAll(issues, timeCellIssues(time.field, file));
  const timeColumn: NonNullable<CsvConfig['timeColumn']> = { columnNumber: time.field.column };
  ev(
    pointer(CSV, 'timeColumn', 'columnNumber'),
    `${time.field.column} (${time.field.name})`,
    time.reason,
    time.confidence,
    time.alternatives,
  );
  const format = chooseTimeFormat(time.field, options, file, issues);
  if (format) {
    timeColumn.format = format.format;
    ev(pointer(CSV, 'timeColumn', 'format'), format.format, format.reason, format.confidence);
    const start = chooseStartTime(format.format, options, file, issues);
    if (start) {
      timeColumn.relativeStartTime = start.value;
      ev(
        pointer(CSV, 'timeColumn', 'relativeStartTime'),
        start.value,
        start.reason,
        start.confidence,
      );
    }
  }
  config.timeColumn = timeColumn;
  return time;
}

/** One data column's channel: name, units and data type, each with its evidence and issues. */
function channelFor(
  f: CsvFieldProfile,
  profile: CsvProfile,
  file: string,
  ev: RecordEvidence,
  issues: Issue[],
): ChannelConfig {
  const key = String(f.column);
  const channel: ChannelConfig = { name: f.name };
  if (f.units !== undefined) channel.units = f.units;
  const style = numberStyle(f, profile.dialect.delimiter);
  const type = style ? 'DOUBLE' : f.physicalType === 'EMPTY' ? 'STRING' : f.physicalType;
  channel.dataType = `CHANNEL_DATA_TYPE_${type}` as ChannelDataType;
  if (style)
    issues.push(numberStyleIssue(f, style, file, pointer(CSV, 'dataColumns', key, 'dataType')));
  if (f.stray) issues.push(strayIssue(f, file, pointer(CSV, 'dataColumns', key, 'dataType')));
  ev(
    pointer(CSV, 'dataColumns', key, 'name'),
    f.name,
    f.header !== undefined && f.header !== ''
      ? `header of column ${f.column}${f.unitsFrom === 'header' ? ' without its units' : ''}`
      : `no header: named by column number`,
    f.header !== undefined && f.header !== '' ? 'high' : 'low',
  );
  if (f.units !== undefined)
    ev(
      pointer(CSV, 'dataColumns', key, 'units'),
      f.units,
      f.unitsFrom === 'units-row'
        ? `row ${profile.layout.unitsRow} (units row)`
        : `written in the header '${f.header ?? ''}'`,
      'high',
    );
  ev(
    pointer(CSV, 'dataColumns', key, 'dataType'),
    channel.dataType,
    style
      ? `numbers written with ${style === 'decimal_comma' ? 'a decimal comma' : 'thousands separators'}: ${typeReason(f)}`
      : typeReason(f),
    style ? 'medium' : typeConfidence(f),
  );
  if (f.physicalType === 'EMPTY')
    issues.push(
      issue(
        'csv_column_empty',
        pointer(CSV, 'dataColumns', key, 'dataType'),
        `${file}: column ${f.column} (${f.name}) has no values in the rows read; typed STRING`,
        { hint: 'Set dataType yourself, or set the `full` option to scan every row.' },
      ),
    );
  return channel;
}

function showDelimiter(d: string): string {
  return d === '\t' ? 'tab' : `'${d}'`;
}

function typeReason(f: CsvFieldProfile): string {
  const kinds = Object.entries(f.kinds)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  const empty = f.nullCount > 0 ? `; ${f.nullCount} empty cell(s) not counted` : '';
  const range =
    f.stats && f.physicalType !== 'STRING' ? ` from ${f.stats.min} to ${f.stats.max}` : '';
  const widened = f.headType ? `; widened from ${f.headType} by '${f.widenedBy?.value ?? ''}'` : '';
  if (f.physicalType === 'EMPTY') return 'no values seen';
  return `${f.valueCount} value(s): ${kinds}${range}${empty}${widened}`;
}

function typeConfidence(f: CsvFieldProfile): Confidence {
  if (f.physicalType === 'EMPTY') return 'low';
  if (f.headType) return 'medium';
  return f.valueCount >= 3 ? 'high' : 'medium';
}

function isNumericType(t: string): boolean {
  return t === 'DOUBLE' || t === 'INT_32' || t === 'INT_64' || t === 'UINT_64';
}

/** What a column's values say about time, without looking at the name beyond its unit. */
export function timeGuessOfValues(f: CsvFieldProfile, nameScore: number): TimeGuess | undefined {
  switch (f.logicalType) {
    case 'rfc3339':
      return {
        format: 'TIME_FORMAT_ABSOLUTE_RFC3339',
        reason: 'every value is an ISO 8601 date and time with a zone',
        confidence: 'high',
      };
    case 'datetime':
      return {
        format: 'TIME_FORMAT_ABSOLUTE_DATETIME',
        reason: 'every value is an ISO-like date and time without a zone (read as UTC)',
        confidence: 'high',
      };
    case 'date_dmy':
    case 'date_mdy':
    case 'date_ambiguous':
      return {
        format: 'TIME_FORMAT_ABSOLUTE_DATETIME',
        reason: `the values are dates written ${f.logicalType === 'date_dmy' ? 'day-first' : f.logicalType === 'date_mdy' ? 'month-first' : 'day-first or month-first (cannot tell)'}, not ISO`,
        confidence: 'low',
      };
    case 'mixed':
      return undefined;
  }
  if (!isNumericType(f.physicalType) || !f.stats) return undefined;
  const min = String(f.stats.min);
  const max = String(f.stats.max);
  const unix = unixUnitFromMagnitude([min, max]);
  const named = unitFromName(f.header ?? f.name);
  const unitFromUnits = f.units !== undefined ? relativeFormatFromUnit(f.units) : undefined;
  if (unix) return unix;
  if (Number(min) < 0 || nameScore === 0) return undefined;
  const first = Number(f.first ?? min);
  const span = Number(max) - Number(min);
  const nearZero = first <= Math.max(1, span * 0.05);
  if (named) {
    return {
      format: named.format,
      reason: `numbers from ${min} to ${max}${nearZero ? ', starting near zero' : ''}; the unit '${named.unit}' is in the name`,
      confidence: nearZero ? 'high' : 'medium',
    };
  }
  if (unitFromUnits) {
    return {
      format: unitFromUnits,
      reason: `numbers from ${min} to ${max}; the units are '${f.units}'`,
      confidence: nearZero ? 'high' : 'medium',
    };
  }
  if (!nearZero) return undefined;
  return relativeUnitFromSpacing(f.numericHead ?? []);
}

/** Scores every column as the time column: its name, whether its values parse, whether they increase. */
export function scoreTimeColumns(fields: readonly CsvFieldProfile[]): TimeCandidate[] {
  const out: TimeCandidate[] = [];
  for (const f of fields) {
    const nameScore = timeNameScore(f.header ?? '');
    const guess = timeGuessOfValues(f, nameScore);
    const reasons: string[] = [];
    let score = 0;
    if (nameScore > 0) {
      score += 2 * nameScore;
      reasons.push(`the name '${f.header}' ${nameScore >= 1 ? 'means time' : 'suggests time'}`);
    }
    if (guess) {
      const valueScore =
        guess.confidence === 'high' ? 1 : guess.confidence === 'medium' ? 0.8 : 0.5;
      score += 2 * valueScore;
      reasons.push(guess.reason);
      if (f.increasing) {
        score += 0.5;
        reasons.push('the values increase');
      } else {
        score -= 0.5;
        reasons.push(`the values go backwards (${f.firstDecrease ?? 'somewhere'})`);
      }
    } else if (f.logicalType === 'mixed') {
      score += 0.5;
      reasons.push('some values are dates or times, others not');
    }
    // A time column needs values that parse as time; numbers with no time name must increase.
    const usable =
      guess !== undefined && (nameScore > 0 || !isNumericType(f.physicalType) || f.increasing);
    if (usable || (f.logicalType === 'mixed' && nameScore > 0))
      out.push({ column: f.column, name: f.name, score, ...(guess ? { guess } : {}), reasons });
  }
  return out.sort((a, b) => b.score - a.score || a.column - b.column);
}

interface TimeChoice {
  field: CsvFieldProfile;
  reason: string;
  confidence: Confidence;
  alternatives?: string[];
}

/** The time column: the one the options name, else the best-scored candidate. */
function chooseTimeColumn(
  fields: readonly CsvFieldProfile[],
  options: InferOptions,
  file: string,
  issues: Issue[],
): TimeChoice | undefined {
  if (options.timeColumn !== undefined) {
    return givenTimeColumn(fields, options.timeColumn, file, issues);
  }
  // A date and a time of day in two columns: neither alone is the time (a date column
  // would otherwise win as a day-resolution time).
  const split = splitTimeIssue(fields, file);
  if (split) {
    issues.push(split);
    return undefined;
  }
  const candidates = scoreTimeColumns(fields);
  const best = candidates[0];
  if (!best?.guess) {
    pushAll(issues, noTimeColumnIssues(fields, best, file));
    return undefined;
  }
  return bestTimeColumn(fields, candidates, best, file, issues);
}

type Candidate = ReturnType<typeof scoreTimeColumns>[number];

/** The column the `timeColumn` option names, by 1-based number or by header name. */
function givenTimeColumn(
  fields: readonly CsvFieldProfile[],
  given: string | number,
  file: string,
  issues: Issue[],
): TimeChoice | undefined {
  const asNumber =
    typeof given === 'number' ? given : /^\d+$/.test(given) ? Number(given) : undefined;
  const field =
    asNumber !== undefined
      ? fields.find((f) => f.column === asNumber)
      : (fields.find((f) => f.name === given || f.header === given) ??
        fields.find((f) => f.name.toLowerCase() === String(given).toLowerCase()));
  if (field) return { field, reason: 'as given', confidence: 'high' };
  const near =
    asNumber === undefined
      ? suggestClosest(
          String(given),
          fields.map((f) => f.name),
        )
      : undefined;
  issues.push(
    issue(
      'infer_time_column_unknown',
      pointer(CSV, 'timeColumn', 'columnNumber'),
      `${file}: the time column '${given}' is not in the file (columns: ${fields
        .slice(0, 12)
        .map((f) => `${f.column} ${f.name}`)
        .join(', ')}${fields.length > 12 ? ' ...' : ''})`,
      {
        // The message lists the columns; a name near one is a likely misspelling.
        hint: near ? didYouMean(near) : 'Give a 1-based column number or a header name.',
      },
    ),
  );
  return undefined;
}

/** Why no column is the time: a telling shape, else none found (and mixed values, if so). */
function noTimeColumnIssues(
  fields: readonly CsvFieldProfile[],
  best: Candidate | undefined,
  file: string,
): Issue[] {
  const shaped = timeShapeIssue(fields, file);
  if (shaped) return [shaped];
  const mixed = best && fields.find((f) => f.column === best.column);
  const out = [
    issue(
      'infer_time_column_not_found',
      pointer(CSV, 'timeColumn'),
      mixed
        ? `${file}: column ${mixed.column} (${mixed.name}) is named like time but its values are not all times`
        : `${file}: no column looks like time (by name or by values that parse as times)`,
      { hint: 'Set the `timeColumn` and `timeFormat` options.' },
    ),
  ];
  if (mixed)
    out.push(
      issue(
        'infer_time_formats_mixed',
        pointer(CSV, 'timeColumn'),
        `${file}: column ${mixed.column} (${mixed.name}) mixes ${Object.keys(mixed.kinds).join(', ')} values`,
      ),
    );
  return out;
}

/** The best-scored candidate, its confidence lowered when the runner-up is as good. */
function bestTimeColumn(
  fields: readonly CsvFieldProfile[],
  candidates: readonly Candidate[],
  best: Candidate,
  file: string,
  issues: Issue[],
): TimeChoice {
  const field = fields.find((f) => f.column === best.column) as CsvFieldProfile;
  const alternatives = candidates
    .slice(1, 4)
    .map(
      (c) => `column ${c.column} (${c.name}): score ${c.score.toFixed(1)}, ${c.reasons.join(', ')}`,
    );
  const second = candidates[1];
  let confidence: Confidence = best.score >= 4 ? 'high' : best.score >= 2.5 ? 'medium' : 'low';
  if (second?.guess && second.score >= best.score - 0.25) {
    confidence = 'low';
    issues.push(
      issue(
        'infer_time_column_ambiguous',
        pointer(CSV, 'timeColumn', 'columnNumber'),
        `${file}: columns ${best.column} (${best.name}) and ${second.column} (${second.name}) could both be the time column; chose ${best.column}`,
        { hint: 'Set the `timeColumn` option to choose.' },
      ),
    );
  }
  return {
    field,
    reason: `score ${best.score.toFixed(1)}: ${best.reasons.join(', ')}`,
    confidence,
    alternatives,
  };
}

/** The time format: the one the options give (checked against the values), else detected. */
function chooseTimeFormat(
  f: CsvFieldProfile,
  options: InferOptions,
  file: string,
  issues: Issue[],
): TimeGuess | undefined {
  const path = pointer(CSV, 'timeColumn', 'format');
  const nameScore = Math.max(timeNameScore(f.header ?? ''), 0.5);
  const detected = timeGuessOfValues(f, nameScore);
  if (options.timeFormat !== undefined) {
    const format = parseTimeFormatName(options.timeFormat);
    if (format) {
      pushAll(issues, givenFormatIssues(f, format, detected, file));
      return { format, reason: 'as given', confidence: 'high' };
    }
    issues.push(
      issue(
        'infer_option_invalid',
        path,
        `the time format '${options.timeFormat}' is not a time format (e.g. ABSOLUTE_UNIX_SECONDS, RELATIVE_MILLISECONDS)`,
      ),
    );
  }
  if (!detected) {
    issues.push(
      issue(
        'infer_time_format_unknown',
        path,
        `${file}: the values of column ${f.column} (${f.name}) do not parse in a time format the platform reads (e.g. '${f.samples[0] ?? ''}')`,
        { hint: 'Set the `timeFormat` option, or convert the column to ISO 8601 or unix time.' },
      ),
    );
    return undefined;
  }
  pushAll(issues, detectedFormatIssues(f, detected, file));
  return detected;
}

/** A given format that puts the values outside 1990-2100, or that the values contradict. */
function givenFormatIssues(
  f: CsvFieldProfile,
  format: TimeFormat,
  detected: TimeGuess | undefined,
  file: string,
): Issue[] {
  const path = pointer(CSV, 'timeColumn', 'format');
  const outOfRange =
    isUnixFormat(format) &&
    f.stats !== undefined &&
    isNumericType(f.physicalType) &&
    unixUnitFromMagnitude([String(f.stats.min), String(f.stats.max)])?.format !== format;
  if (outOfRange)
    return [
      issue(
        'infer_time_out_of_range',
        path,
        `${file}: column ${f.column} (${f.name}) read as ${format} gives dates outside 1990-2100 (values ${f.stats?.min} to ${f.stats?.max})`,
        { hint: 'Check the unit: seconds, milliseconds, micro- or nanoseconds.' },
      ),
    ];
  if (detected && detected.format !== format && !compatible(format, detected.format))
    return [
      issue(
        'infer_time_format_mismatch',
        path,
        `${file}: column ${f.column} (${f.name}) looks like ${detected.format} (${detected.reason}), not ${format} as given`,
      ),
    ];
  return [];
}

/** What to tell about a detected format: date order, no zone, a guessed unit, backward steps. */
function detectedFormatIssues(f: CsvFieldProfile, detected: TimeGuess, file: string): Issue[] {
  const path = pointer(CSV, 'timeColumn', 'format');
  const out: Issue[] = [];
  if (f.logicalType === 'date_ambiguous')
    out.push(
      issue(
        'infer_time_date_order_ambiguous',
        path,
        `${file}: dates like '${f.samples[0] ?? ''}' in column ${f.column} can be read day-first or month-first`,
        { hint: 'Write dates as ISO 8601 (YYYY-MM-DD).' },
      ),
    );
  if (
    f.logicalType === 'date_dmy' ||
    f.logicalType === 'date_mdy' ||
    f.logicalType === 'date_ambiguous'
  )
    out.push(
      issue(
        'infer_time_not_iso',
        path,
        `${file}: column ${f.column} (${f.name}) holds dates like '${f.samples[0] ?? ''}'; the platform reads ISO-like dates (year first)`,
        { hint: 'Convert the column to ISO 8601 (YYYY-MM-DD hh:mm:ss) before importing.' },
      ),
    );
  if (detected.format === 'TIME_FORMAT_ABSOLUTE_DATETIME')
    out.push(
      issue(
        'infer_time_zone_assumed_utc',
        path,
        `${file}: the times in column ${f.column} (${f.name}) have no zone; the platform reads them as UTC`,
        { hint: 'If they are local times, convert them to UTC or write them with an offset.' },
      ),
    );
  if (detected.confidence === 'low' && isRelativeFormat(detected.format))
    out.push(
      issue(
        'infer_time_unit_guessed',
        path,
        `${file}: the unit of column ${f.column} (${f.name}) is not in its name or units: ${detected.reason}`,
        { hint: 'Set the `timeFormat` option or name the column with its unit (time_s, t_ms).' },
      ),
    );
  if (!f.increasing)
    out.push(
      issue(
        'infer_time_not_increasing',
        pointer(CSV, 'timeColumn', 'columnNumber'),
        `${file}: the time column ${f.column} (${f.name}) goes backwards (${f.firstDecrease ?? 'somewhere'})`,
        { hint: 'Sort the file by time, or choose another time column.' },
      ),
    );
  return out;
}

/** True when a given format and a detected one differ only in a way the values cannot tell. */
function compatible(given: TimeFormat, detected: TimeFormat): boolean {
  // A relative unit given for values whose unit was only guessed.
  return isRelativeFormat(given) && isRelativeFormat(detected);
}

function chooseStartTime(
  format: TimeFormat,
  options: InferOptions,
  file: string,
  issues: Issue[],
): { value: string; reason: string; confidence: Confidence } | undefined {
  const path = pointer(CSV, 'timeColumn', 'relativeStartTime');
  if (!isRelativeFormat(format)) {
    if (options.relativeStartTime !== undefined)
      issues.push(
        issue(
          'infer_start_time_ignored',
          path,
          `a start time was given, but ${format} is absolute: left out`,
        ),
      );
    return undefined;
  }
  if (options.relativeStartTime !== undefined) {
    if (isRfc3339(options.relativeStartTime))
      return { value: options.relativeStartTime, reason: 'as given', confidence: 'high' };
    issues.push(
      issue(
        'infer_option_invalid',
        path,
        `the start time '${options.relativeStartTime}' is not an RFC 3339 timestamp (e.g. 2024-01-01T00:00:00Z)`,
      ),
    );
    return undefined;
  }
  const fromName = startTimeFromFileName(file);
  if (fromName) {
    issues.push(
      issue(
        'infer_start_time_from_file_name',
        path,
        `${file}: the start time ${fromName} was taken from the file name`,
        { hint: 'Set the `relativeStartTime` option to give another.' },
      ),
    );
    return {
      value: fromName,
      reason: `a date in the file name '${basename(file)}'`,
      confidence: 'medium',
    };
  }
  issues.push(
    issue(
      'infer_start_time_missing',
      path,
      `${file}: ${format} needs a start time; none was given and the file name holds no date`,
      { hint: 'Set the `relativeStartTime` option (RFC 3339, e.g. 2024-01-01T00:00:00Z).' },
    ),
  );
  return undefined;
}

/** The number style of a column written as text the platform cannot read (`20,1`, `1,234.5`). */
function numberStyle(f: CsvFieldProfile, delimiter: string): NumberStyle | undefined {
  if (f.physicalType !== 'STRING' || !f.textShapes) return undefined;
  const numbers = (f.kinds.int ?? 0) + (f.kinds.double ?? 0);
  return numberStyleOf(f.textShapes, f.valueCount, numbers, delimiter);
}

function numberStyleIssue(
  f: CsvFieldProfile,
  style: NumberStyle,
  file: string,
  path: string,
): Issue {
  const shapes = f.textShapes ?? {};
  const first = [
    shapes.decimal_comma,
    shapes.decimal_comma_grouped,
    shapes.thousands,
    shapes.comma_ambiguous,
  ]
    .filter((x) => x !== undefined)
    .sort((a, b) => rowOf(a.where) - rowOf(b.where))[0];
  const example = first ? `'${first.value}' at ${first.where}` : '';
  return style === 'decimal_comma'
    ? issue(
        'csv_decimal_comma',
        path,
        `${file}: column ${f.column} (${f.name}) writes numbers with a decimal comma (${example}); the platform reads a decimal point`,
        {
          hint: `Convert the file: importkit normalize ${basename(file)} -o ${normalizedName(file)}`,
          source: { file, column: f.column, ...rowSource(first?.where) },
        },
      )
    : issue(
        'csv_thousands_separator',
        path,
        `${file}: column ${f.column} (${f.name}) writes numbers with thousands separators (${example}); the platform reads plain digits`,
        {
          hint: `Convert the file: importkit normalize ${basename(file)} -o ${normalizedName(file)}`,
          source: { file, column: f.column, ...rowSource(first?.where) },
        },
      );
}

function strayIssue(f: CsvFieldProfile, file: string, path: string): Issue {
  const s = f.stray as NonNullable<CsvFieldProfile['stray']>;
  return issue(
    'csv_value_stray',
    path,
    `${file}: column ${f.column} (${f.name}) holds ${s.count} value(s) that are not ${f.physicalType} among ${f.valueCount} (first: '${s.value}' at ${s.where}); the import fails on those rows`,
    {
      hint: 'Fix or empty those cells, or set dataType to CHANNEL_DATA_TYPE_STRING if the text is meant.',
      source: { file, column: f.column, ...rowSource(s.where) },
    },
  );
}

/** Empty or unparsable cells in the chosen time column: the import fails on those rows. */
function timeCellIssues(f: CsvFieldProfile, file: string): Issue[] {
  const out: Issue[] = [];
  const path = pointer(CSV, 'timeColumn', 'columnNumber');
  if (f.nullCount > 0 && f.valueCount > 0)
    out.push(
      issue(
        'csv_time_empty',
        path,
        `${file}: ${f.nullCount} cell(s) of the time column ${f.column} (${f.name}) are empty (first: ${(f.emptyAt ?? []).join(', ') || 'in a later part of the file'}); the import fails on those rows`,
        {
          hint: 'Fill in or remove those rows, or choose another time column.',
          source: { file, column: f.column, ...rowSource(f.emptyAt?.[0]) },
        },
      ),
    );
  if (f.stray)
    out.push(
      issue(
        'csv_time_unparsable',
        pointer(CSV, 'timeColumn', 'format'),
        `${file}: ${f.stray.count} cell(s) of the time column ${f.column} (${f.name}) are not times (first: '${f.stray.value}' at ${f.stray.where}); the import fails on those rows`,
        {
          hint: 'Fix or remove those rows.',
          source: { file, column: f.column, ...rowSource(f.stray.where) },
        },
      ),
    );
  return out;
}

/** A column whose cells are mostly of one text shape (`date_only`, `time_ampm` ...). */
function shapedColumn(
  fields: readonly CsvFieldProfile[],
  shape: NonNullable<keyof NonNullable<CsvFieldProfile['textShapes']>>,
): CsvFieldProfile | undefined {
  return fields.find((f) => {
    const seen = f.textShapes?.[shape];
    return seen !== undefined && seen.count * 2 > f.valueCount;
  });
}

function normalizeHint(file: string): string {
  return `Convert the file: importkit normalize ${basename(file)} -o ${normalizedName(file)}`;
}

/** A date column and a time-of-day column: the platform reads one column holding both. */
function splitTimeIssue(fields: readonly CsvFieldProfile[], file: string): Issue | undefined {
  const date =
    shapedColumn(fields, 'date_only') ??
    fields.find(
      (f) => f.logicalType?.startsWith('date_') && f.samples.every((v) => !v.includes(':')),
    );
  const clock = shapedColumn(fields, 'time_of_day');
  if (!date || !clock) return undefined;
  return issue(
    'csv_time_split_columns',
    pointer(CSV, 'timeColumn'),
    `${file}: the date is in column ${date.column} (${date.name}, '${date.first ?? ''}') and the time of day in column ${clock.column} (${clock.name}, '${clock.first ?? ''}'); the platform reads one time column`,
    {
      hint: `${normalizeHint(file)} (joins them into one RFC 3339 column; pass --timezone for local times)`,
      source: { file, column: date.column },
    },
  );
}

/** Times written in shapes the platform cannot read: AM/PM, zone names. */
function timeShapeIssue(fields: readonly CsvFieldProfile[], file: string): Issue | undefined {
  const path = pointer(CSV, 'timeColumn');
  const hint = normalizeHint(file);
  const ampm = shapedColumn(fields, 'time_ampm');
  if (ampm)
    return issue(
      'csv_time_ampm',
      path,
      `${file}: column ${ampm.column} (${ampm.name}) writes times with AM/PM ('${ampm.textShapes?.time_ampm?.value}' at ${ampm.textShapes?.time_ampm?.where}); the platform reads 24-hour times`,
      {
        hint,
        source: { file, column: ampm.column, ...rowSource(ampm.textShapes?.time_ampm?.where) },
      },
    );
  const zoned = shapedColumn(fields, 'time_zone_name');
  if (zoned)
    return issue(
      'csv_time_zone_name',
      path,
      `${file}: column ${zoned.column} (${zoned.name}) writes times with a zone name ('${zoned.textShapes?.time_zone_name?.value}' at ${zoned.textShapes?.time_zone_name?.where}); the platform reads offsets (+01:00, Z) only`,
      {
        hint,
        source: {
          file,
          column: zoned.column,
          ...rowSource(zoned.textShapes?.time_zone_name?.where),
        },
      },
    );
  return undefined;
}

function rowOf(where: string): number {
  const m = /^row (\d+)$/.exec(where);
  return m ? Number(m[1]) : Number.MAX_SAFE_INTEGER;
}

function rowSource(where: string | undefined): { row?: number } {
  const row = where === undefined ? Number.NaN : rowOf(where);
  return Number.isFinite(row) && row !== Number.MAX_SAFE_INTEGER ? { row } : {};
}

/** `data.csv` → `data.normalized.csv`: where `normalize` is told to write in hints. */
function normalizedName(file: string): string {
  return `${assetNameOf(file)}.normalized.csv`;
}
