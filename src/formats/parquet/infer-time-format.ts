/**
 * The time format of the column chosen as a Parquet draft's time, by its kind: a TIMESTAMP's
 * unit, INT96 (unix nanoseconds), text by its first page, a number by its statistics'
 * magnitude or the unit in its name.
 */

import type { Confidence } from '../../infer/shared.js';
import {
  unitFromName,
  unixFormatOfUnit,
  unixUnitFromMagnitude,
  unixUnitStands,
} from '../../infer/shared.js';
import type { TimeFormat } from '../../model/index.js';
import { DATETIME_TEXT, GUESS_YEARS_WORDS, RFC3339_TEXT } from '../../model/plain.js';
import { isParquetText } from './channel-types.js';
import { type HeadReader, P, type Report } from './infer-findings.js';
import type { ParquetFieldProfile } from './profile.js';

export interface TimeChoice {
  field: ParquetFieldProfile;
  format: TimeFormat;
  reason: string;
  confidence: Confidence;
  alternatives: string[];
  /** A text column's first values (its first page), when read: check reads the same. */
  first?: string[];
}

export function statValues(f: ParquetFieldProfile): Array<string | number> | undefined {
  const s = f.stats;
  if (!s || s.min === undefined || s.max === undefined) return undefined;
  return [s.min, s.max];
}

export function textFormat(values: string[]): { format: TimeFormat; reason: string } | undefined {
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
export async function timeOfField(
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
        first: head.values,
      };
    }
  }
  // First values that are no time: judged as check judges them (time-issues.ts), with them.
  if (!('values' in head) || head.values.every((v) => v.trim() === ''))
    issue(
      'parquet_time_unit_guessed',
      P,
      `${f.name}: its first values ${'values' in head ? 'are empty' : `could not be read (${head.reason})`}; RFC 3339 is a guess`,
      'Give the format with the `timeFormat` option.',
    );
  return {
    field: f,
    format: 'TIME_FORMAT_ABSOLUTE_RFC3339',
    reason: 'text column, format guessed',
    confidence: 'low',
    alternatives: [],
    ...('values' in head ? { first: head.values } : {}),
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
  if (unix && unixUnitStands(unix, fromName)) {
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
      reason: `${f.name} is ${name}; the unit ${fromName.unit} is in its name, and its statistics (min ${stats[0]}, max ${stats[1]}) in that unit are no unix time`,
      confidence: 'medium',
      alternatives: [],
    };
  }
  if (Number(stats[0]) >= 1e9) {
    issue(
      'parquet_time_out_of_range',
      P,
      `${f.name}: statistics min ${stats[0]}, max ${stats[1]} fit no unix unit within ${GUESS_YEARS_WORDS}; read as relative seconds`,
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
