import type { Issue } from '../../model/plain.js';
import type { Output } from '../io.js';
import { printable } from '../printable.js';
import { messageWithHint, placeOf, shownIssues } from './_place.js';
import type { FileReport, Reporter, ReporterOptions, Summary } from './types.js';

/**
 * GitHub Actions workflow commands: one `::error file=F,line=L,col=C,title=T::message` line
 * per issue (warnings as `::warning`, info as `::notice` with `--verbose`), so each issue
 * shows up on the pull request's diff. The summary goes out as a plain line.
 */
export function githubReporter(out: Output, options: ReporterOptions): Reporter {
  return {
    write(report: FileReport) {
      for (const issue of shownIssues(report.issues, options))
        out.write(`${annotation(report, issue)}\n`);
    },
    end(summary: Summary) {
      out.write(
        `${summary.files} file${summary.files === 1 ? '' : 's'}: ${summary.valid} valid, ${summary.invalid} invalid (${summary.errors} error${summary.errors === 1 ? '' : 's'}, ${summary.warnings} warning${summary.warnings === 1 ? '' : 's'})\n`,
      );
    },
  };
}

const COMMAND = { error: 'error', warning: 'warning', info: 'notice' } as const;

/** One workflow command for one issue. */
export function annotation(report: FileReport, issue: Issue): string {
  const place = placeOf(report, issue);
  const props: string[] = [`file=${escapeProperty(printable(place.file))}`];
  if (place.line !== undefined) props.push(`line=${place.line}`);
  if (place.column !== undefined) props.push(`col=${place.column}`);
  props.push(`title=${escapeProperty(issue.code)}`);
  const text = messageWithHint(issue);
  return `::${COMMAND[issue.severity]} ${props.join(',')}::${escapeData(text)}`;
}

/** Escapes a command's message: `%`, CR and LF (GitHub's runner decodes these). */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a property value: as data, plus `:` and `,`, which end a value. */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
