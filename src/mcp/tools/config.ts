/** The tools that read a config: lint (alone), check and preview (against its data file). */
import { basename } from 'node:path';
import { z } from 'zod';
import { hasErrors } from '../../model/plain.js';
import { fail } from '../failure.js';
import {
  Counts,
  CSV_ARGS,
  counts,
  countsText,
  IssueOut,
  issueOut,
  PAGE_ARGS,
  Page,
  page,
} from '../shapes.js';
import { tool } from '../tool.js';
import { CONFIG_ARGS, configText, validated } from './_config.js';

const DATA_ARG = z
  .string()
  .describe('the data file (or batch folder or archive) the config imports, inside the roots');
const FULL_ARG = z
  .boolean()
  .optional()
  .describe('read every row (long: progress is reported) instead of the head and a few slices');

export const lintTool = tool({
  name: 'lint',
  title: 'Lint a config',
  description:
    'Validates a config (YAML or JSON) without its data: shape, enum names, semantic rules. Issues carry a code, a JSON pointer, the line and column, and a hint.',
  input: z.strictObject({ ...CONFIG_ARGS, ...PAGE_ARGS }),
  output: z.object({
    valid: z.boolean().describe('no error'),
    documents: z.number().int(),
    counts: Counts,
    issues: Page(IssueOut),
  }),
  readOnly: true,
  async run(args, { sandbox }) {
    const { text, name } = await configText(args, sandbox);
    const { result } = validated(text, name);
    const valid = !hasErrors(result.issues);
    return {
      value: {
        valid,
        documents: result.documents.length,
        counts: counts(result.issues),
        issues: page(result.issues.map(issueOut), args),
      },
      text: `${name}: ${valid ? 'valid' : 'invalid'}; ${countsText(result.issues)}`,
    };
  },
});

export const checkTool = tool({
  name: 'check',
  title: 'Check a config against its data file',
  description:
    'Checks that a data file fits its config before any upload, as `importkit check --reporter json` does: the columns, datasets and channels named exist, the time parses in the declared format and goes forward, values fit their types. Sampled by default; `full` reads every row.',
  input: z.strictObject({
    ...CONFIG_ARGS,
    data: DATA_ARG,
    full: FULL_ARG,
    ...CSV_ARGS,
    ...PAGE_ARGS,
  }),
  output: z.object({
    fits: z.boolean().describe('no error: the import will not fail on what was checked'),
    reads: z.string().describe('what the check read of the data file'),
    counts: Counts,
    issues: Page(IssueOut),
  }),
  readOnly: true,
  async run(args, { sandbox, apart }) {
    const { text, name } = await configText(args, sandbox);
    const data = await sandbox.readable(args.data, 'data file');
    const { document, issues: validation } = validated(text, name);
    const checked = document
      ? await apart('check', {
          document,
          text,
          configName: name,
          data,
          full: args.full === true,
          delimiter: args.delimiter,
          headerRow: args.headerRow,
        })
      : { issues: [], reads: 'nothing: the config has no valid document' };
    const issues = [...validation, ...checked.issues];
    const fits = !hasErrors(issues);
    return {
      value: {
        fits,
        reads: checked.reads,
        counts: counts(issues),
        issues: page(issues.map(issueOut), args),
      },
      text: fits
        ? `${data.shown} fits ${name} (${checked.reads}); ${countsText(issues)}`
        : `${data.shown} does not fit ${name}: ${countsText(issues)}`,
    };
  },
});

const TimeAxisOut = z.object({
  format: z.string(),
  first: z.string().describe('first time read, RFC 3339 (or - when none parses)'),
  last: z.string(),
  medianStepMs: z.number().optional(),
  findings: z.array(z.object({ text: z.string(), bad: z.boolean(), code: z.string().optional() })),
  ok: z.boolean().describe('the axis is right: no bad finding, times between 1990 and 2100'),
});

export const previewTool = tool({
  name: 'preview',
  title: 'Preview the data as the config reads it',
  description:
    'Writes one self-contained HTML page (into the output folder) showing the data file as the config will read it: the time axis with what is wrong with it, one plot per channel, the config with each issue beside its line. Answers the page path, the time-axis verdict as data, and the check issues.',
  input: z.strictObject({
    ...CONFIG_ARGS,
    data: DATA_ARG,
    full: FULL_ARG,
    output: z
      .string()
      .optional()
      .describe('file name of the page in the output folder (default <data>.preview.html)'),
    ...PAGE_ARGS,
  }),
  output: z.object({
    page: z.string().describe('the page written: open it in a browser'),
    fits: z.boolean(),
    rows: z.number().int().describe('rows read and plotted'),
    complete: z.boolean().describe('every row of the file was read'),
    notes: z.array(z.string()).describe('what the page could not show'),
    time: TimeAxisOut.optional().describe('the time axis as read; absent when no rows were read'),
    counts: Counts,
    issues: Page(IssueOut),
  }),
  readOnly: true,
  async run(args, { sandbox, apart }) {
    const { text, name } = await configText(args, sandbox);
    const data = await sandbox.readable(args.data, 'data file');
    const { document, issues: validation } = validated(text, name);
    if (!document)
      throw fail(
        'tool_argument_invalid',
        `${name} has no valid config to preview: ${countsText(validation)}`,
        'run lint for its issues, fix them, then preview again',
      );
    const output = await sandbox.output(args.output, `${basename(data.path)}.preview.html`, [
      data.path,
      ...(args.configPath !== undefined ? [(await sandbox.configFile(args.configPath)).path] : []),
    ]);
    const shown = await apart('preview', {
      document,
      text,
      configName: name,
      data,
      full: args.full === true,
      output,
      issues: validation,
    });
    const fits = !hasErrors(shown.issues);
    const axis = shown.time
      ? `time ${shown.time.ok ? 'ok' : 'wrong'} (${shown.time.first} to ${shown.time.last})`
      : 'no time axis';
    return {
      value: {
        page: output,
        fits,
        rows: shown.rows,
        complete: shown.complete,
        notes: shown.notes,
        ...(shown.time ? { time: shown.time } : {}),
        counts: counts(shown.issues),
        issues: page(shown.issues.map(issueOut), args),
      },
      text: `wrote ${output}: ${shown.rows} rows, ${axis}; ${countsText(shown.issues)}`,
    };
  },
});
