/**
 * A Parquet profile → a draft ParquetConfig. Reads the footer (through the inspector) and,
 * where a choice needs values the footer does not hold, one small page per purpose: the
 * first page of a text time column (to see whether it is RFC 3339) and the dictionary or
 * first page of a channel-name column (to list the channel names).
 */

import { basename, extname } from 'node:path';
import type { Draft, InferOptions } from '../../infer/shared.js';
import { startTimeFromFileName } from '../../infer/shared.js';
import { type ByteSource, openForInspection } from '../../inspect/shared.js';
import type { ParquetConfig, ParquetTimeColumn, TimeFormat } from '../../model/index.js';
import { pushAll } from '../../model/plain.js';
import { readColumnHead } from './column-head.js';
import {
  assetAndRun,
  buildFlat,
  buildSingleChannelPerRow,
  chooseComplexMode,
  complexTypesOf,
  footerOf,
  hasEmbeddedConfig,
} from './infer-config.js';
import { type Findings, type HeadReader, newFindings, P } from './infer-findings.js';
import { channelNamesOf, chooseLayout, layoutEvidence } from './infer-layout.js';
import { chooseTimeColumn } from './infer-time.js';
import type { TimeChoice } from './infer-time-format.js';
import { inspectParquetSource } from './inspect.js';
import type { ParquetFieldProfile, ParquetProfile } from './profile.js';
import { parquetTimeIssues } from './time-issues.js';

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
  // A time column or format given is judged as check judges it; one inferred fits by choice.
  if (time && timeColumn?.format && (options.timeFormat || options.timeColumn !== undefined)) {
    const ptr = `${layoutPath}/timeColumn/format`;
    const file = profile.file.path;
    const { first } = time;
    pushAll(
      out.issues,
      parquetTimeIssues(time.field, timeColumn.format, ptr, file, undefined, first),
    );
  }
  return {
    document: { parquetConfig: config },
    kind: 'parquet',
    evidence: out.evidence,
    issues: out.issues,
  };
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

const TIME_CODES = new Set<string>([
  'time_null',
  'parquet_time_not_utc',
  'parquet_time_int96',
  'parquet_time_out_of_range',
  'parquet_time_unit_guessed',
  'parquet_relative_start_unknown',
]);

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
