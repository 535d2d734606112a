/**
 * The time column's tally as issues: empty cells, values that do not parse in the declared
 * format (and the format they look like), backward steps, repeats (`--full`), and times
 * outside the plausible dates (a wrong unix unit, or absolute times declared relative).
 */
import type { TimeFormat } from '../../model/index.js';
import { type Issue, issue, isUnixFormat, pushAll, unixUnitThatFits } from '../../model/plain.js';
import {
  absoluteRangeIssue,
  quoteValue,
  shortName,
  type TimesRead,
  timeScaleIssue,
} from '../../values/index.js';
import { classifyCell } from './cells.js';
import type { At } from './check-columns.js';
import type { Place, TimeTally } from './check-tally.js';
import { listOffenders, placeText, sourceOf } from './check-values.js';

/** The time column's findings: empty cells, unparsable values, backward steps, range. */
export function timeIssues(
  t: TimeTally & { column: number; format: TimeFormat },
  at: At,
  file: string,
  full: boolean,
): Issue[] {
  const out: Issue[] = [];
  const fmt = shortName(t.format);
  if (t.empty > 0 && t.nonEmpty > 0) {
    const first = t.emptyAt[0] as Place;
    out.push(
      issue(
        'csv_time_empty',
        at('timeColumn', 'columnNumber'),
        `${t.empty} ${full ? '' : 'sampled '}time cell${t.empty === 1 ? ' is' : 's are'} empty (first: ${t.emptyAt.map(placeText).join(', ')}): the import fails on those rows`,
        {
          hint: 'Fill in or remove those rows, or choose another time column.',
          source: sourceOf(file, first, t.column),
        },
      ),
    );
  }
  if (t.bad > 0) {
    const first = t.offenders[0] as Place;
    const suggestion = suggestFormat(t.offenders.map((o) => o.value));
    const why =
      t.withZone > 0 && t.format === 'TIME_FORMAT_ABSOLUTE_DATETIME'
        ? ' (they carry a zone)'
        : t.withoutZone > 0 && t.format === 'TIME_FORMAT_ABSOLUTE_RFC3339'
          ? ' (they have no zone)'
          : '';
    out.push(
      issue(
        'time_not_parseable',
        at('timeColumn', 'format'),
        `${t.bad} of ${t.nonEmpty} ${full ? '' : 'sampled '}time values do not parse as ${fmt}${why}: ${listOffenders(t.offenders, t.bad)}`,
        {
          hint:
            suggestion && suggestion !== t.format
              ? `The values look like ${shortName(suggestion)}.`
              : undefined,
          source: sourceOf(file, first, t.column),
        },
      ),
    );
  }
  if (t.decreases > 0 && t.firstDecrease) {
    out.push(
      issue(
        'time_decreasing',
        at('timeColumn', 'columnNumber'),
        `time goes backwards ${t.decreases} time${t.decreases === 1 ? '' : 's'}; first at ${placeText(t.firstDecrease)}: ${quoteValue(t.firstDecrease.value)}`,
        { source: sourceOf(file, t.firstDecrease, t.column) },
      ),
    );
  }
  if (full && t.repeats > 0 && t.firstRepeat) {
    out.push(
      issue(
        'time_repeated',
        at('timeColumn', 'columnNumber'),
        `${t.repeats === 1 ? 'a row repeats' : `${t.repeats} rows repeat`} the time of the row before; first at ${placeText(t.firstRepeat)}: ${quoteValue(t.firstRepeat.value)}`,
        { source: sourceOf(file, t.firstRepeat, t.column) },
      ),
    );
  }
  if (t.nonEmpty > t.bad && Number.isFinite(t.min)) pushAll(out, timeRangeIssues(t, at, file));
  return out;
}

/**
 * Times outside the plausible dates: a wrong unix unit, out of range, or absolute read as
 * relative; the shared time rules judge the column's least and greatest value.
 */
function timeRangeIssues(
  t: TimeTally & { column: number; format: TimeFormat },
  at: At,
  file: string,
): Issue[] {
  const judged: TimesRead = {
    subject: `the time column ${t.column}`,
    of: `column ${t.column}`,
    field: 'format',
    ptr: at('timeColumn', 'format'),
    source: { file, column: t.column },
    read: `${t.min} to ${t.max}`,
  };
  const found =
    t.format.startsWith('TIME_FORMAT_ABSOLUTE_') && !isUnixFormat(t.format)
      ? absoluteRangeIssue(t.min, t.max, judged)
      : timeScaleIssue([String(t.min), String(t.max)], t.format, judged);
  return found ? [found] : [];
}

function suggestFormat(values: string[]): TimeFormat | undefined {
  const kinds = values.map((v) => classifyCell(v));
  if (kinds.every((k) => k === 'rfc3339')) return 'TIME_FORMAT_ABSOLUTE_RFC3339';
  if (kinds.every((k) => k === 'datetime')) return 'TIME_FORMAT_ABSOLUTE_DATETIME';
  if (kinds.every((k) => k === 'int' || k === 'double')) return unixUnitThatFits(values);
  return undefined;
}
