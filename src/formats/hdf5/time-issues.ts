/**
 * What the time format says of a time dataset (or its column or member), judged on its
 * stored type and its first and last values (the profile's head and tail rows): the rules
 * `check` applies to a config, and `infer` to its draft, so that a draft whose one
 * `timeFormat` cannot read one of its time datasets (a file whose time datasets differ, or
 * a format given to infer) says so before check does.
 */
import type { TimeFormat } from '../../model/index.js';
import type { Issue } from '../../model/plain.js';
import {
  readsText,
  readsUnits,
  sampledTimeOrderIssue,
  type TimeKind,
  textTimeRangeIssue,
  timeKindIssue,
  timeScaleIssue,
} from '../../values/index.js';
import type { Hdf5Dataset } from './inspect.js';
import type { Hdf5Type } from './types.js';

/** What a stored type is to a time format: numbers, text, or neither. */
function timeKindOf(type: Hdf5Type): TimeKind {
  if (type.class === 'integer' || type.class === 'float') return 'number';
  return type.class === 'string' ? 'text' : 'other';
}

/**
 * The time element `part` of `d` against `format`: a unit format (unix, relative) needs
 * numbers and a text one (RFC 3339, a date and time) text; then the order (unless
 * `valuesRead`: a read of the values judges it) and the scale or range of its first and
 * last values (the shared rules of values/time.ts).
 */
export function hdf5TimeIssues(
  d: Hdf5Dataset,
  part: { type: Hdf5Type; column: number | string | undefined },
  format: TimeFormat,
  ptr: string,
  file: string,
  valuesRead = false,
): Issue[] {
  const at = {
    subject: `the time of '${d.path}'`,
    of: `'${d.path}'`,
    field: 'timeFormat',
    ptr,
    source: { file, dataset: d.path },
  };
  const stores = `holds ${part.type.class} values`;
  const judged = readsUnits(format) || readsText(format);
  const unread = judged
    ? timeKindIssue(format, timeKindOf(part.type), { ...at, stores })
    : undefined;
  if (unread) return [unread];
  const members = d.type.members?.map((m) => m.name);
  const col =
    typeof part.column === 'string' ? (members?.indexOf(part.column) ?? 0) : (part.column ?? 0);
  const rows = [...(d.head ?? []), ...(d.tail ?? [])];
  const text = readsText(format);
  // A NaN or infinite time is no time: the read of the values reports it where it is.
  const values = rows
    .map((r) => r[col])
    .filter((v): v is string => v !== undefined && (text || Number.isFinite(Number(v))));
  if (values.length === 0) return [];
  const read = { ...at, read: `${values[0]} ...` };
  return [
    // The values read judge the order of every time, with its first place.
    valuesRead ? undefined : sampledTimeOrderIssue(values, at),
    text ? textTimeRangeIssue(values, format, read) : timeScaleIssue(values, format, read),
  ].filter((i): i is Issue => i !== undefined);
}
