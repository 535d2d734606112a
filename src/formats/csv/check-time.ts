/**
 * The time column's tally as issues: empty cells, values that do not parse in the declared
 * format (and the format they look like), backward steps, and times outside the plausible
 * dates (a wrong unix unit, or absolute times declared relative).
 */
import type { TimeFormat } from '../../model/index.js';
import { type Issue, issue, pushAll, unixUnitThatFits } from '../../model/plain.js';
import {
  MAX_PLAUSIBLE_MS,
  MIN_PLAUSIBLE_MS,
  PLAUSIBLE_WORDS,
  plausibleUnix,
  quoteValue,
  shortName,
  unitThatFits,
} from '../../values/index.js';
import { classifyCell } from './cells.js';
import type { At } from './check-columns.js';
import type { Place, TimeTally } from './check-tally.js';
import { listOffenders, placeText, sourceOf } from './check-values.js';

const UNIX_PER_MS: Partial<Record<TimeFormat, number>> = {
  TIME_FORMAT_ABSOLUTE_UNIX_SECONDS: 1e-3,
  TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS: 1,
  TIME_FORMAT_ABSOLUTE_UNIX_MICROSECONDS: 1e3,
  TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS: 1e6,
};

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
  if (t.nonEmpty > t.bad && Number.isFinite(t.min)) pushAll(out, timeRangeIssues(t, at, file));
  return out;
}

/** Times outside the plausible dates: a wrong unix unit, out of range, or absolute read as relative. */
function timeRangeIssues(
  t: TimeTally & { column: number; format: TimeFormat },
  at: At,
  file: string,
): Issue[] {
  const out: Issue[] = [];
  const fmt = shortName(t.format);
  const perMs = UNIX_PER_MS[t.format];
  if (perMs !== undefined) {
    const lo = t.min / perMs;
    const hi = t.max / perMs;
    if (!plausibleUnix([t.min, t.max], t.format)) {
      const fits = unitThatFits([t.min, t.max]);
      const landed = describeDate(lo < MIN_PLAUSIBLE_MS ? lo : hi);
      if (fits && fits !== t.format) {
        out.push(
          issue(
            'time_wrong_unit',
            at('timeColumn', 'format'),
            `read as ${fmt}, the times land in ${landed}; as ${shortName(fits)} they fall between ${describeDate(t.min / (UNIX_PER_MS[fits] ?? 1))} and ${describeDate(t.max / (UNIX_PER_MS[fits] ?? 1))}`,
            { hint: `Use format: ${fits}.`, source: { file, column: t.column } },
          ),
        );
      } else {
        out.push(
          issue(
            'time_out_of_range',
            at('timeColumn', 'format'),
            `read as ${fmt}, the times land in ${landed}, and no other unix unit gives plausible dates`,
            { source: { file, column: t.column } },
          ),
        );
      }
    }
  } else if (t.format.startsWith('TIME_FORMAT_ABSOLUTE_')) {
    if (t.min < MIN_PLAUSIBLE_MS || t.max >= MAX_PLAUSIBLE_MS) {
      out.push(
        issue(
          'time_out_of_range',
          at('timeColumn', 'format'),
          `the times fall between ${describeDate(t.min)} and ${describeDate(t.max)}: outside ${PLAUSIBLE_WORDS}`,
          { source: { file, column: t.column } },
        ),
      );
    }
  } else if (t.min > 1e8) {
    const fits = unixUnitThatFits([t.min, t.max]);
    if (fits) {
      out.push(
        issue(
          'time_looks_absolute',
          at('timeColumn', 'format'),
          `the times (${t.min} to ${t.max}) look like ${shortName(fits)}, not ${fmt}`,
          {
            hint: `Use format: ${fits} and leave out relativeStartTime.`,
            source: { file, column: t.column },
          },
        ),
      );
    }
  }
  return out;
}

function suggestFormat(values: string[]): TimeFormat | undefined {
  const kinds = values.map((v) => classifyCell(v));
  if (kinds.every((k) => k === 'rfc3339')) return 'TIME_FORMAT_ABSOLUTE_RFC3339';
  if (kinds.every((k) => k === 'datetime')) return 'TIME_FORMAT_ABSOLUTE_DATETIME';
  if (kinds.every((k) => k === 'int' || k === 'double')) return unixUnitThatFits(values);
  return undefined;
}

function describeDate(ms: number): string {
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15)
    return ms > 0 ? 'a year past 275000' : 'a year before -271000';
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  return y < 0 || y > 9999 ? `the year ${y}` : d.toISOString().slice(0, 10);
}
