import type { Issue } from '../../model/plain.js';
import { printable } from '../printable.js';
import type { FileReport, ReporterOptions } from './types.js';

/** Where an issue points: a position in the config text, else a line of the data file. */
export interface Place {
  file: string;
  line?: number;
  column?: number;
}

/**
 * The place an annotation should point at. A config issue with a position points into the
 * config; a check issue about the data (`source` with a line) points into the data file;
 * anything else points at the config file as a whole.
 */
export function placeOf(report: FileReport, issue: Issue): Place {
  if (issue.line !== undefined) {
    const place: Place = { file: issue.file ?? report.file, line: issue.line };
    if (issue.column !== undefined) place.column = issue.column;
    return place;
  }
  const src = issue.source;
  if (src?.line !== undefined) {
    const place: Place = { file: src.file, line: src.line };
    if (typeof src.column === 'number' && src.line !== undefined) place.column = src.column;
    return place;
  }
  return { file: issue.file ?? report.file };
}

/** The issues a reporter shows: errors always, warnings unless quiet, info only when verbose. */
export function shownIssues(issues: readonly Issue[], options: ReporterOptions): Issue[] {
  return issues.filter((i) =>
    i.severity === 'error' ? true : i.severity === 'warning' ? !options.quiet : !!options.verbose,
  );
}

/** The message with its hint, for formats that have one text field (each `printable`). */
export function messageWithHint(issue: Issue): string {
  const message = printable(issue.message);
  return issue.hint ? `${message}\nhint: ${printable(issue.hint)}` : message;
}

/** A data place in words (`row 12 (line 13), column 3`), for messages. */
export function describeSource(issue: Issue): string | undefined {
  const s = issue.source;
  if (!s) return undefined;
  const parts: string[] = [];
  if (s.dataset !== undefined) parts.push(`dataset ${s.dataset}`);
  if (s.row !== undefined)
    parts.push(s.line !== undefined ? `row ${s.row} (line ${s.line})` : `row ${s.row}`);
  else if (s.line !== undefined) parts.push(`line ${s.line}`);
  if (s.column !== undefined) parts.push(`column ${s.column}`);
  return parts.length > 0 ? parts.join(', ') : undefined;
}
