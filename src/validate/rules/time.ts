import { type Issue, isRelativeTimeFormat, issue, TIME_FORMAT_PLACES } from '../../model/plain.js';
import { configsOf, join, misspelt, obj, type Rule } from './_walk.js';

/**
 * CSV and Parquet time columns need a `format` (HDF5's `timeFormat` is checked by its own
 * rule; TDMS needs one only for time channels that are not TDMS timestamps). Relative time
 * formats need `relativeStartTime`; absolute ones must not carry it; a time
 * format that is given must not be UNSPECIFIED. Checked on the CSV and Parquet time
 * columns and on the TDMS and HDF5 configs.
 */
export const timeRule: Rule = (doc) => {
  const out: Issue[] = [];
  for (const c of configsOf(doc)) {
    for (const { holder, field, embedded } of TIME_FORMAT_PLACES[c.kind]) {
      const at = holder.reduce<Record<string, unknown> | undefined>(
        (o, k) => obj(o?.[k]),
        c.config,
      );
      const path = holder.reduce((p, k) => join(p, k), c.path);
      // A time column needs its format, unless the file's own embedded config gives it.
      const fromFile = embedded !== undefined && c.config[embedded] === true;
      if (holder.length > 0 && !fromFile) formatGiven(at, path, out);
      check(at, path, field, out);
    }
  }
  return out;
};

function check(
  holder: Record<string, unknown> | undefined,
  path: string,
  formatKey: string,
  out: Issue[],
): void {
  if (!holder) return;
  const format = holder[formatKey];
  if (typeof format !== 'string' || !format.startsWith('TIME_FORMAT_')) return;
  const start = holder.relativeStartTime;
  if (format === 'TIME_FORMAT_UNSPECIFIED') {
    out.push(
      issue(
        'unspecified_value',
        join(path, formatKey),
        'TIME_FORMAT_UNSPECIFIED does not say how the times are written.',
        'Choose the format of the time values, for example TIME_FORMAT_ABSOLUTE_RFC3339.',
      ),
    );
  } else if (isRelativeTimeFormat(format) && start === undefined) {
    out.push(
      issue(
        'relative_start_time_missing',
        join(path, formatKey),
        `${format} counts from a start time, but relativeStartTime is not set.`,
        'Add relativeStartTime beside it, for example 2024-05-01T12:00:00Z.',
      ),
    );
  } else if (!isRelativeTimeFormat(format) && start !== undefined) {
    out.push(
      issue(
        'relative_start_time_unexpected',
        join(path, 'relativeStartTime'),
        `relativeStartTime is set, but ${format} is an absolute format that does not use it.`,
        'Remove relativeStartTime, or choose the relative format the times are written in.',
      ),
    );
  }
}

/** A time column that is there says how its times are written (UNSPECIFIED is `check`'s). */
function formatGiven(tc: Record<string, unknown> | undefined, path: string, out: Issue[]): void {
  if (!tc || tc.format !== undefined || misspelt(tc, 'format')) return;
  out.push(
    issue(
      'time_format_missing',
      path,
      'The time column has no format: how its times are written is not said.',
      'Add format, for example TIME_FORMAT_ABSOLUTE_RFC3339 or TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS.',
    ),
  );
}
