/**
 * Which column of a Parquet draft is the time: the one given, else the one the platform's
 * CLI takes by name, else the strongest candidate by type (TIMESTAMP, INT96, time-named
 * numbers, date-time text); a time format given as an option replaces the inferred one.
 */

import type { InferOptions } from '../../infer/shared.js';
import { timeNameScore, unixUnitFromMagnitude } from '../../infer/shared.js';
import { TIME_FORMAT_VALUES } from '../../model/index.js';
import { enumName } from '../../model/plain.js';
import { notFoundHint } from '../../validate/index.js';
import { isParquetText } from './channel-types.js';
import { type Findings, type HeadReader, P, type Report } from './infer-findings.js';
import { statValues, type TimeChoice, textFormat, timeOfField } from './infer-time-format.js';
import type { ParquetFieldProfile, ParquetProfile } from './profile.js';

export function isNumeric(f: ParquetFieldProfile): boolean {
  return (
    !f.temporal &&
    (['INT32', 'INT64', 'FLOAT', 'DOUBLE', 'BOOLEAN'].includes(f.physicalType) ||
      f.logicalType === 'FLOAT16' ||
      f.decimal !== undefined)
  );
}

/** The time column: the one given (by name or 1-based position), else the strongest candidate. */
export async function chooseTimeColumn(
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
          first: head.values,
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
