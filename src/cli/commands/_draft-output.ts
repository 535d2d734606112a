/** How `infer` writes a draft (one file's or a batch's): YAML, issues, the evidence table. */
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import type * as Yaml from 'yaml';
import type { Draft, Evidence } from '../../infer/index.js';
import { type Issue, issue } from '../../model/plain.js';
import { configTitle, MAX_CONFIG_BYTES, MAX_CONFIG_TEXT } from '../../validate/index.js';
import type { Io, Output } from '../io.js';
import { issueWithFlags, withFlags } from '../option-flags.js';
import { escapedAfterC0, hasUnsafeCharacters, printable, printableJson } from '../printable.js';
import { plainDraftYaml } from './_draft-yaml.js';
import { writeOutput } from './_outputs.js';

/** Writes the draft to `output` (or stdout); false when the file cannot be written. */
export async function writeDraft(
  io: Io,
  text: string,
  output: string | undefined,
): Promise<boolean> {
  if (output === undefined) {
    io.stdout.write(text);
    return true;
  }
  return writeOutput(io, 'infer', output, text);
}

/**
 * The draft's text, JSON or YAML. A draft larger than a config importkit reads is an error
 * of the draft (printed with it): lint, fmt and check would refuse what infer wrote.
 */
export function draftText(draft: Draft, file: string, format: string): string {
  const text = format === 'json' ? toJson(draft) : toYaml(draft, file);
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_CONFIG_BYTES) {
    draft.issues.push(
      issue(
        'input_too_large',
        '',
        `the draft is ${bytes} bytes, more than the ${MAX_CONFIG_TEXT} lint, fmt and check read`,
        {
          hint: 'Import the file in parts (a draft per group or per set of channels), or write YAML (smaller than JSON).',
          source: { file },
        },
      ),
    );
  }
  return text;
}

/**
 * The draft as YAML with a comment saying what it was inferred from. Names from the file
 * (members, columns) are kept exact: a string holding a control or bidi character is
 * double-quoted and those characters written as escapes, so nothing raw reaches a terminal.
 * A plain draft is written without loading the yaml package (_draft-yaml.ts), to the same text.
 */
function toYaml(draft: Draft, file: string): string {
  const comment = draftComment(draft, file);
  const plain = plainDraftYaml(draft.document, comment);
  if (plain !== undefined) return escapedAfterC0(plain);
  // Loaded here, on the first draft that needs it: the package takes about 45 ms to load.
  const { Document, isScalar, visit } = createRequire(import.meta.url)('yaml') as typeof Yaml;
  const doc = new Document(draft.document);
  visit(doc, {
    Scalar(_, node) {
      if (typeof node.value === 'string' && hasUnsafeCharacters(node.value))
        node.type = 'QUOTE_DOUBLE';
    },
    Pair(_, pair) {
      if (
        isScalar(pair.key) &&
        typeof pair.key.value === 'string' &&
        hasUnsafeCharacters(pair.key.value)
      )
        pair.key.type = 'QUOTE_DOUBLE';
    },
  });
  doc.commentBefore = comment.join('\n');
  return escapedAfterC0(doc.toString({ lineWidth: 0 }));
}

/** The lines of the comment above a YAML draft: what it was inferred from, and what next. */
function draftComment(draft: Draft, file: string): string[] {
  // The kind's title (CsvConfig, ...) as its committed schema names it: neither zod nor the
  // kinds' own schema files are loaded.
  const title = configTitle(draft.kind);
  const errors = draft.issues.filter((i) => i.severity === 'error').length;
  return [
    ` Draft ${title} inferred by importkit from ${printable(basename(file))}.`,
    errors > 0
      ? ` It still has ${errors} error(s): see the issues printed with it.`
      : ' Check it before importing; `importkit infer --explain` shows why each value was chosen.',
  ];
}

/** The draft as JSON (the bare document), printed safely. */
function toJson(draft: Draft): string {
  return `${printableJson(draft.document)}\n`;
}

/** Issues as lines on stderr: `error code: message`, then where and how to fix. */
export function writeIssues(issues: readonly Issue[], file: string, out: Output): void {
  for (const i of issues.map((issue) => issueWithFlags(issue, 'infer'))) {
    out.write(`${i.severity} ${i.code}: ${printable(i.message)}\n`);
    if (i.path) out.write(`  at ${printable(i.path)}${i.line ? ` (line ${i.line})` : ''}\n`);
    if (i.hint) out.write(`  hint: ${printable(i.hint)}\n`);
  }
  if (issues.length > 0) {
    const count = (s: string) => issues.filter((i) => i.severity === s).length;
    out.write(
      `${printable(basename(file))}: ${count('error')} error(s), ${count('warning')} warning(s), ${count('info')} info\n`,
    );
  }
}

/** The evidence as a plain-text table (path, choice, confidence, reason). */
export function explainTable(evidence: readonly Evidence[]): string {
  const rows = evidence.map((e) =>
    [e.path, e.choice, e.confidence, withFlags(e.reason, 'infer')].map(printable),
  );
  const headers = ['path', 'choice', 'confidence', 'reason'];
  const width = (i: number) =>
    Math.min(
      48,
      rows.reduce((w, r) => Math.max(w, (r[i] ?? '').length), headers[i]?.length ?? 0),
    );
  const w = [width(0), width(1), width(2)];
  const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s.padEnd(n));
  const line = (r: string[]) =>
    `${clip(r[0] ?? '', w[0] ?? 0)}  ${clip(r[1] ?? '', w[1] ?? 0)}  ${clip(r[2] ?? '', w[2] ?? 0)}  ${r[3] ?? ''}`;
  const lines = [line(headers), ...rows.map(line)];
  for (const e of evidence) {
    if (!e.alternatives) continue;
    lines.push(`  alternatives for ${printable(e.path)}:`);
    for (const a of e.alternatives) lines.push(`    - ${printable(withFlags(a, 'infer'))}`);
  }
  return `${lines.join('\n')}\n`;
}
