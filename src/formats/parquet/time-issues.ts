/**
 * A Parquet time column's format against what the column stores: a timestamp's unit, text
 * or numbers, and the unix unit against the statistics' range, or text times against the
 * window of plausible dates (the shared rules of values/time.ts). The rules `check` applies
 * to a config, and `infer` to a draft whose time column or format was given as an option.
 */
import type { TimeFormat } from '../../model/index.js';
import { type Issue, issue, isUnixFormat } from '../../model/plain.js';
import {
  absoluteRangeIssue,
  readsText,
  shortName,
  storedUnitIssue,
  textTimeMs,
  textTimeRangeIssue,
  timeKindIssue,
  unixUnitIssue,
} from '../../values/index.js';
import { parquetChannelTypeOf } from './channel-types.js';
import type { ParquetFieldProfile } from './profile.js';

const UNIX_OF_UNIT: Record<string, TimeFormat> = {
  MILLIS: 'TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS',
  MICROS: 'TIME_FORMAT_ABSOLUTE_UNIX_MICROSECONDS',
  NANOS: 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS',
};

/**
 * The time column's format against what it stores: a timestamp's unit, text or numbers,
 * and the unix unit against the statistics' range, or text times against the window of
 * plausible dates (the shared rules of values/time.ts): from the statistics, or from
 * `range`, the earliest and latest of every text time read (ms since 1970). Without
 * `range`, text times are also judged by `first`, the values of the column's first page
 * (when read): one that is no time in the format is what a full read refuses.
 */
export function parquetTimeIssues(
  f: ParquetFieldProfile,
  format: TimeFormat,
  ptr: string,
  file: string,
  range?: { min: number; max: number },
  first?: readonly string[],
): Issue[] {
  const at = {
    subject: `the time column '${f.path}'`,
    of: `'${f.path}'`,
    field: 'format',
    ptr,
    source: { file, column: f.path },
  };
  const stamp = timestampOf(f);
  if (stamp) {
    const stored = { format: UNIX_OF_UNIT[stamp.unit] as TimeFormat, what: stamp.what };
    return listOf(storedUnitIssue(format, stored, at));
  }
  const numeric = ['INT32', 'INT64', 'FLOAT', 'DOUBLE'].includes(f.physicalType);
  const text = parquetChannelTypeOf(f).dataType === 'CHANNEL_DATA_TYPE_STRING';
  const stores = `stores ${f.physicalType}${f.logicalType ? ` (${f.logicalType})` : ''}`;
  const kind = text ? 'text' : numeric ? 'number' : 'other';
  const unread = timeKindIssue(format, kind, { ...at, stores, hinted: true });
  if (unread) return [unread];
  const min = f.stats?.min;
  const max = f.stats?.max;
  if (text && readsText(format)) {
    if (range)
      return listOf(absoluteRangeIssue(range.min, range.max, { ...at, read: 'every time' }));
    const unread = first?.find((v) => v.trim() !== '' && Number.isNaN(textTimeMs(v, format)));
    if (unread !== undefined)
      return [
        issue(
          'time_not_parseable',
          ptr,
          `${at.subject} holds '${unread}' in its first values, which ${shortName(format)} does not read`,
          { hint: 'Choose the time column and its format from what it holds.', source: at.source },
        ),
      ];
    if (min === undefined || max === undefined) return [];
    const read = { ...at, read: `statistics ${min} to ${max}` };
    return listOf(textTimeRangeIssue([min, max], format, read));
  }
  if (!isUnixFormat(format) || min === undefined || max === undefined || !numeric) return [];
  const lo = toBig(min);
  const hi = toBig(max);
  if (lo === undefined || hi === undefined) return [];
  return listOf(unixUnitIssue([lo, hi], format, { ...at, read: `statistics ${lo} to ${hi}` }));
}

function listOf(found: Issue | undefined): Issue[] {
  return found ? [found] : [];
}

/**
 * A time column whose type says its unit: a TIMESTAMP, or a legacy INT96 timestamp, which
 * Arrow (and so the platform) reads as nanoseconds since the epoch: 8 bytes of nanoseconds
 * of the day, then a Julian day, decoded so by both readers `--full` uses.
 */
function timestampOf(f: ParquetFieldProfile): { unit: string; what: string } | undefined {
  const t = f.temporal;
  if (t?.kind === 'TIMESTAMP' && t.unit) return { unit: t.unit, what: `a TIMESTAMP in ${t.unit}` };
  if (t?.kind === 'INT96') return { unit: 'NANOS', what: 'an INT96 timestamp (nanoseconds)' };
  return undefined;
}

function toBig(v: string | number): bigint | undefined {
  try {
    return typeof v === 'number' ? BigInt(Math.trunc(v)) : BigInt(v);
  } catch {
    return undefined;
  }
}
