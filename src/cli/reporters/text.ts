import type { Issue } from '../../model/plain.js';
import type { Output } from '../io.js';
import { printable } from '../printable.js';
import type { FileReport, Reporter, ReporterOptions, Summary } from './types.js';

/**
 * Plain text, one line per issue (`file:line:column severity code message`, the hint
 * indented below), then a summary line. `quiet`: errors only, and nothing when all files
 * are valid; `verbose`: also valid files and info issues.
 */
export function textReporter(out: Output, options: ReporterOptions): Reporter {
  const paint = colors(options.color === true);
  return {
    write(report: FileReport) {
      const shown = report.issues.filter((i) => visible(i, options));
      if (shown.length === 0 && report.valid) {
        if (options.verbose) out.write(`${printable(report.file)}: ${paint.green('ok')}\n`);
        return;
      }
      for (const i of shown) {
        // A message can quote the file's own text (a key, a value): its control characters
        // are escaped so that a config cannot rewrite the terminal.
        const place = [i.file ?? report.file, i.line, i.column].filter((x) => x !== undefined);
        out.write(
          `${printable(place.join(':'))} ${paint[i.severity](i.severity)} ${i.code} ${printable(i.message)}${i.path ? ` (at ${printable(i.path)})` : ''}\n`,
        );
        if (i.hint) out.write(`  hint: ${printable(i.hint)}\n`);
      }
    },
    end(s: Summary) {
      if (options.quiet && s.invalid === 0) return;
      const files = `${s.files} file${s.files === 1 ? '' : 's'}`;
      if (s.invalid === 0) {
        const warn = s.warnings > 0 && !options.quiet ? ` (${plural(s.warnings, 'warning')})` : '';
        out.write(`${paint.green('✔')} ${printable(s.validText ?? `${files} valid`)}${warn}\n`);
        return;
      }
      const parts = [plural(s.errors, 'error')];
      if (!options.quiet) parts.push(plural(s.warnings, 'warning'));
      out.write(
        `${paint.error('✖')} ${parts.join(', ')}: ${s.invalid} of ${files} invalid, ${s.valid} valid\n`,
      );
    },
  };
}

function visible(i: Issue, options: ReporterOptions): boolean {
  if (options.quiet) return i.severity === 'error';
  if (i.severity === 'info') return options.verbose === true;
  return true;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function colors(on: boolean) {
  const wrap = (code: number) => (s: string) => (on ? `\u001b[${code}m${s}\u001b[0m` : s);
  return { error: wrap(31), warning: wrap(33), info: wrap(36), green: wrap(32) };
}
