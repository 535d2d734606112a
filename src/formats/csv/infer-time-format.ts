/**
 * The time format and start time of a CSV draft's time column: as given (checked against
 * the values) or detected, with what to tell about them (date order, no zone, a guessed
 * unit, backward steps); a start time as given or from a date in the file name.
 */
import { basename } from 'node:path';
import type { Confidence, InferOptions } from '../../infer/shared.js';
import {
  isRelativeFormat,
  isRfc3339,
  isUnixFormat,
  parseTimeFormatName,
  startTimeFromFileName,
  type TimeGuess,
  timeNameScore,
  unixUnitFromMagnitude,
} from '../../infer/shared.js';
import type { TimeFormat } from '../../model/index.js';
import { GUESS_YEARS_WORDS, type Issue, issue, pointer, pushAll } from '../../model/plain.js';
import { readsText, shortName, timeKindIssue, timeScaleIssue } from '../../values/index.js';
import { CSV } from './infer-evidence.js';
import { isNumericType, timeGuessOfValues } from './infer-time.js';
import type { CsvFieldProfile } from './profile.js';

/** The time format: the one the options give (checked against the values), else detected. */
export function chooseTimeFormat(
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

/**
 * A given format that check refuses on these values (judged as check judges them), that
 * puts them outside 1990-2100, or that they contradict.
 */
function givenFormatIssues(
  f: CsvFieldProfile,
  format: TimeFormat,
  detected: TimeGuess | undefined,
  file: string,
): Issue[] {
  const path = pointer(CSV, 'timeColumn', 'format');
  const judged = asCheckJudges(f, format, detected, file, path);
  if (judged) return [judged];
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
        `${file}: column ${f.column} (${f.name}) read as ${format} gives dates outside ${GUESS_YEARS_WORDS} (values ${f.stats?.min} to ${f.stats?.max})`,
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

/**
 * What check says of a given format on the values read (csv/check-time.ts, by the shared
 * rules of values/time.ts): text a unit format cannot read, numbers a text format cannot,
 * text no format reads (textNotRead), or a unix unit that puts the least and greatest
 * value outside the plausible years.
 */
function asCheckJudges(
  f: CsvFieldProfile,
  format: TimeFormat,
  detected: TimeGuess | undefined,
  file: string,
  ptr: string,
): Issue | undefined {
  const at = {
    subject: `the time column ${f.column}`,
    of: `column ${f.column}`,
    field: 'format',
    ptr,
    source: { file, column: f.column },
  };
  const numeric = isNumericType(f.physicalType);
  const text = detected !== undefined && readsText(detected.format);
  if (readsText(format) ? numeric : text) {
    const stores = numeric ? 'holds numbers' : 'holds date-time text';
    return timeKindIssue(format, numeric ? 'number' : 'text', { ...at, stores, hinted: true });
  }
  const unread = textNotRead(f, format, detected, numeric);
  if (unread)
    return issue(
      'time_not_parseable',
      ptr,
      `${at.subject} holds ${unread.what} (e.g. '${f.samples[0] ?? ''}'), which ${shortName(format)} does not read`,
      { hint: unread.hint, source: at.source },
    );
  const { min, max } = f.stats ?? {};
  if (!numeric || min === undefined || max === undefined) return undefined;
  return timeScaleIssue([String(min), String(max)], format, { ...at, read: `${min} to ${max}` });
}

/**
 * Text in the time column that check reads in none of its values under `format`: what it
 * is and what to do; undefined when check reads it, or it is not such text.
 */
function textNotRead(
  f: CsvFieldProfile,
  format: TimeFormat,
  detected: TimeGuess | undefined,
  numeric: boolean,
): { what: string; hint: string } | undefined {
  const order = f.logicalType;
  // The text formats read year-first dates only.
  if (
    readsText(format) &&
    (order === 'date_dmy' || order === 'date_mdy' || order === 'date_ambiguous')
  )
    return {
      what: 'dates that are not year-first',
      hint: 'Convert the column to ISO 8601 (`importkit normalize` rewrites it), then infer again.',
    };
  // RFC 3339 needs a zone and a date-time has none: check reads neither as the other.
  if (readsText(format) && detected && readsText(detected.format) && detected.format !== format)
    return {
      what:
        detected.format === 'TIME_FORMAT_ABSOLUTE_RFC3339'
          ? 'times with a zone'
          : 'date-times without a zone',
      hint: `Use format: ${detected.format}.`,
    };
  // Neither a number nor a time in any format: no format reads it.
  if (!numeric && detected === undefined && f.valueCount > 0)
    return {
      what: 'text that is no time',
      hint: 'Choose the time column with the `timeColumn` option, and check the `delimiter`.',
    };
  return undefined;
}

/** True when a given format and a detected one differ only in a way the values cannot tell. */
function compatible(given: TimeFormat, detected: TimeFormat): boolean {
  // A relative unit given for values whose unit was only guessed.
  return isRelativeFormat(given) && isRelativeFormat(detected);
}

export function chooseStartTime(
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
