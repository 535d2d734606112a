import type { Issue } from '../model/plain.js';
import { pushAll } from '../model/plain.js';

export interface FormatOptions {
  /** The config text the issues are about: adds a code frame under each issue. */
  text?: string;
  /** The file name shown beside the position (else each issue's `file`). */
  filename?: string;
  /** Lines of context before the issue's line in the code frame (default 1). */
  contextLines?: number;
}

const MARK = { error: '✖', warning: '⚠', info: 'ℹ' } as const;

/**
 * Renders issues for people (pure; no colour):
 *
 *     ✖ Unknown key "timeColum" in /csvConfig.
 *       → at /csvConfig/timeColum (config.yaml:4:3)
 *          3 |   runName: test
 *       >  4 |   timeColum:
 *          |   ^
 *       hint: Did you mean "timeColumn"?
 */
export function formatIssues(issues: readonly Issue[], options: FormatOptions = {}): string {
  const lines = options.text?.split(/\r?\n/);
  return issues
    .map((i) => {
      const out = [`${MARK[i.severity]} ${i.message} [${i.code}]`];
      const file = options.filename ?? i.file;
      const where = [file, i.line, i.column].filter((x) => x !== undefined).join(':');
      out.push(`  → at ${i.path === '' ? '/' : i.path}${where ? ` (${where})` : ''}`);
      if (lines && i.line !== undefined) pushAll(out, frame(lines, i.line, i.column ?? 1, options));
      if (i.hint) out.push(`  hint: ${i.hint}`);
      return out.join('\n');
    })
    .join('\n\n');
}

function frame(lines: string[], line: number, column: number, options: FormatOptions): string[] {
  const before = options.contextLines ?? 1;
  const from = Math.max(1, line - before);
  const width = String(line).length;
  const out: string[] = [];
  for (let n = from; n <= Math.min(line, lines.length); n++) {
    const text = (lines[n - 1] ?? '').replace(/\t/g, ' ');
    out.push(`  ${n === line ? '>' : ' '} ${String(n).padStart(width)} | ${clip(text)}`);
  }
  out.push(`    ${' '.repeat(width)} | ${' '.repeat(Math.max(0, Math.min(column - 1, 100)))}^`);
  return out;
}

function clip(s: string): string {
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}
