/** The tools that answer from importkit's own registries: an issue code's meaning, a JSON Schema. */
import { z } from 'zod';
import {
  CODE_AREAS,
  CODES,
  CONFIG_KIND_NAMES,
  isIssueCode,
  SCHEMA_FILES,
} from '../../model/plain.js';
import { committedSchema } from '../../validate/committed-schemas.js';
import { didYouMean, suggestClosest } from '../../validate/index.js';
import { fail } from '../failure.js';
import { tool } from '../tool.js';

export const explainIssueTool = tool({
  name: 'explain_issue',
  title: 'Explain an issue code',
  description:
    'What an issue code means and how to fix it, from importkit’s code registry (the same text as docs/issue-codes.md).',
  input: z.strictObject({ code: z.string().describe('an issue code, e.g. time_unparseable') }),
  output: z.object({
    code: z.string(),
    area: z.string().describe('the stage or format that reports it'),
    severity: z.enum(['error', 'warning', 'info']),
    summary: z.string(),
    fix: z.string(),
  }),
  readOnly: true,
  async run(args) {
    const code = args.code.trim();
    if (!isIssueCode(code)) {
      const near = suggestClosest(code, Object.keys(CODES));
      throw fail(
        'tool_argument_invalid',
        `'${code}' is not an importkit issue code`,
        near ? didYouMean(near) : 'the resource importkit://issue-codes lists every code',
      );
    }
    const doc = CODES[code];
    const area =
      Object.entries(CODE_AREAS).find(([, codes]) => Object.hasOwn(codes, code))?.[0] ?? 'unknown';
    return {
      value: { code, area, severity: doc.severity, summary: doc.summary, fix: doc.fix },
      text: `${code} (${doc.severity}, ${area}): ${doc.summary} Fix: ${doc.fix}`,
    };
  },
});

const SCHEMA_NAMES = ['document', ...CONFIG_KIND_NAMES] as [string, ...string[]];

export const schemaTool = tool({
  name: 'schema',
  title: 'JSON Schema of a config',
  description:
    'The JSON Schema (draft 2020-12) of a whole config document or of one config kind: every field, its type, enum values and description.',
  input: z.strictObject({
    kind: z.enum(SCHEMA_NAMES).optional().describe('document (default) or a config kind'),
  }),
  output: z.object({
    kind: z.string(),
    file: z.string().describe('the schema file in the package (schemas/)'),
    schema: z.record(z.string(), z.unknown()),
  }),
  readOnly: true,
  async run(args) {
    const kind = (args.kind ?? 'document') as keyof typeof SCHEMA_FILES;
    return {
      value: { kind, file: `schemas/${SCHEMA_FILES[kind]}`, schema: committedSchema(kind) },
      text: `the JSON Schema of ${kind === 'document' ? 'a config document' : `a ${kind} config`} (schemas/${SCHEMA_FILES[kind]})`,
    };
  },
});
