import type { Output } from '../io.js';
import { printableJson } from '../printable.js';
import type { FileReport, Reporter, Summary } from './types.js';

/** One issue as the JSON reporter writes it: every key always present (null when unknown). */
export interface JsonIssue {
  code: string;
  severity: 'error' | 'warning' | 'info';
  path: string;
  message: string;
  hint: string | null;
  line: number | null;
  column: number | null;
}

/** The whole JSON output (docs/lint-json.md). */
export interface JsonOutput {
  files: Array<{ file: string; valid: boolean; issues: JsonIssue[] }>;
  summary: Summary;
}

/**
 * One JSON document on stdout at the end: `{ files: [{ file, valid, issues }], summary }`.
 * Every issue is listed whatever `--quiet`/`--verbose` say: programs read this output.
 */
export function jsonReporter(out: Output): Reporter {
  const files: JsonOutput['files'] = [];
  return {
    write(report: FileReport) {
      files.push({
        file: report.file,
        valid: report.valid,
        issues: report.issues.map((i) => ({
          code: i.code,
          severity: i.severity,
          path: i.path,
          message: i.message,
          hint: i.hint ?? null,
          line: i.line ?? null,
          column: i.column ?? null,
        })),
      });
    },
    end(s: Summary) {
      const summary: Summary = {
        files: s.files,
        valid: s.valid,
        invalid: s.invalid,
        errors: s.errors,
        warnings: s.warnings,
      };
      out.write(`${printableJson({ files, summary } satisfies JsonOutput)}\n`);
    },
  };
}
