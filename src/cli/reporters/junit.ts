import type { Issue } from '../../model/plain.js';
import type { Output } from '../io.js';
import { printable } from '../printable.js';
import { describeSource, placeOf, shownIssues } from './_place.js';
import type { FileReport, Reporter, ReporterOptions, Summary } from './types.js';

/**
 * JUnit XML, as CI systems (GitLab, Jenkins, Azure) read it: one `<testcase>` per file,
 * failed by its errors (each listed in the failure's text); warnings go to `<system-out>`.
 * Written at the end, since the counts come first in the XML.
 */
export function junitReporter(out: Output, options: ReporterOptions): Reporter {
  const cases: string[] = [];
  let failures = 0;
  const suite = `importkit ${options.command ?? 'lint'}`;
  return {
    write(report: FileReport) {
      const shown = shownIssues(report.issues, options);
      const errors = shown.filter((i) => i.severity === 'error');
      const others = shown.filter((i) => i.severity !== 'error');
      const lines: string[] = [
        `    <testcase classname="${attr(suite)}" name="${attr(printable(report.file))}" file="${attr(printable(report.file))}">`,
      ];
      if (!report.valid) {
        failures += 1;
        const first = errors[0] ?? report.issues.find((i) => i.severity === 'error');
        const message = printable(
          first ? `${first.code}: ${first.message}` : `${report.file} does not pass`,
        );
        lines.push(
          `      <failure message="${attr(message)}" type="${attr(first?.code ?? 'invalid')}">${text(
            (errors.length > 0 ? errors : report.issues).map((i) => describe(report, i)).join('\n'),
          )}</failure>`,
        );
      }
      if (others.length > 0) {
        lines.push(
          `      <system-out>${text(others.map((i) => describe(report, i)).join('\n'))}</system-out>`,
        );
      }
      lines.push('    </testcase>');
      cases.push(lines.join('\n'));
    },
    end(summary: Summary) {
      const counts = `tests="${summary.files}" failures="${failures}" errors="0"`;
      out.write(
        [
          '<?xml version="1.0" encoding="UTF-8"?>',
          `<testsuites name="${attr(suite)}" ${counts}>`,
          `  <testsuite name="${attr(suite)}" ${counts} skipped="0">`,
          ...cases,
          '  </testsuite>',
          '</testsuites>',
          '',
        ].join('\n'),
      );
    },
  };
}

/** One issue as a line (and its hint), every name and message `printable`. */
function describe(report: FileReport, issue: Issue): string {
  const place = placeOf(report, issue);
  const at =
    place.line !== undefined
      ? `${place.file}:${place.line}${place.column !== undefined ? `:${place.column}` : ''}`
      : place.file;
  const where = describeSource(issue);
  const hint = issue.hint ? `\n  hint: ${printable(issue.hint)}` : '';
  const said = `${at} ${issue.severity} ${issue.code} ${issue.message}${where && place.file !== issue.source?.file ? ` (${where})` : ''}`;
  return `${printable(said)}${hint}`;
}

/** Characters XML 1.0 does not allow at all (control characters other than tab, LF, CR). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters removed
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Escapes text content. */
export function text(s: string): string {
  return s
    .replace(INVALID_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** Escapes an attribute value (double-quoted); newlines kept as character references. */
export function attr(s: string): string {
  return text(s)
    .replace(/"/g, '&quot;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');
}
