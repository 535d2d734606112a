/**
 * CSV inference: a file inspected, then the draft CsvConfig assembled step by step (asset
 * and run, rows, the embedded config or the time column and the channels), each choice
 * with its evidence.
 */
import type { Draft, Evidence, InferOptions } from '../../infer/shared.js';
import { type ByteSource, openForInspection } from '../../inspect/shared.js';
import type { ChannelConfig, CsvConfig } from '../../model/index.js';
import {
  type Issue,
  issue,
  parseDelimiter,
  pointer,
  pushAll,
  showDelimiter,
} from '../../model/plain.js';
import { channelFor } from './infer-channel.js';
import { assetNameOf, CSV, evidenceRecorder, type RecordEvidence } from './infer-evidence.js';
import { chooseTimeColumn, type TimeChoice, timeCellIssues } from './infer-time.js';
import { chooseStartTime, chooseTimeFormat } from './infer-time-format.js';
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
