import type { Issue } from '../../model/plain.js';
import type { Output } from '../io.js';

/** What one checked file came to: shared by `lint` and `check`. */
export interface FileReport {
  /** The file as the user named it. */
  file: string;
  /** No issue of severity error (or of the `--fail-on` level). */
  valid: boolean;
  issues: Issue[];
  /** The config's text, when it was text: lets a reporter print a code frame. */
  text?: string;
}

export interface Summary {
  files: number;
  valid: number;
  invalid: number;
  errors: number;
  warnings: number;
  /** What the text reporter says when every file is valid, instead of `N files valid`. */
  validText?: string;
}

export interface ReporterOptions {
  /** Only errors (no warnings, no info, no per-file lines for valid files). */
  quiet?: boolean;
  /** Also print valid files and info issues. */
  verbose?: boolean;
  /** Colour on a terminal. */
  color?: boolean;
  /** The command (`lint`, `check`): a reporter may name it (SARIF tool run, JUnit suite). */
  command?: string;
}

/** One interface for every output format: write each file's report, then end with the summary. */
export interface Reporter {
  write(report: FileReport): void;
  end(summary: Summary): void;
}

export type ReporterFactory = (out: Output, options: ReporterOptions) => Reporter;

export function summarize(reports: readonly FileReport[]): Summary {
  let errors = 0;
  let warnings = 0;
  let valid = 0;
  for (const r of reports) {
    if (r.valid) valid += 1;
    for (const i of r.issues) {
      if (i.severity === 'error') errors += 1;
      else if (i.severity === 'warning') warnings += 1;
    }
  }
  return { files: reports.length, valid, invalid: reports.length - valid, errors, warnings };
}
