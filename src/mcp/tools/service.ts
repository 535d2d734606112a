/**
 * The tools that talk to the platform, listed only when the server was started with
 * --allow-submit: submit (check, create, upload, optionally wait) and status. The address
 * and key come from the server's environment (IMPORTKIT_BASE_URL, IMPORTKIT_API_KEY), as
 * for the command line; the key never appears in an answer (the server redacts it).
 */
import { z } from 'zod';
import type { Client } from '../../client/index.js';
import type { DataImport, ImportDocument } from '../../model/index.js';
import { fail, ToolFailure } from '../failure.js';
import { countsText } from '../shapes.js';
import { type ToolContext, tool } from '../tool.js';
import { CONFIG_ARGS, configText, validated } from './_config.js';

const WAIT_ARGS = {
  wait: z.boolean().optional().describe('follow the import until it ends (progress is reported)'),
  timeoutSeconds: z
    .number()
    .positive()
    .optional()
    .describe('give up waiting after this long (the import goes on)'),
  pollIntervalSeconds: z
    .number()
    .positive()
    .optional()
    .describe('first interval between status reads (default 1; doubles to 30)'),
};

const ImportOut = z.object({
  dataImportId: z.string(),
  status: z.string().describe('DATA_IMPORT_STATUS_PENDING, _IN_PROGRESS, _SUCCEEDED or _FAILED'),
  dataImport: z
    .record(z.string(), z.unknown())
    .describe('the DataImport as the service answers it'),
});

interface WaitArgs {
  wait?: boolean | undefined;
  timeoutSeconds?: number | undefined;
  pollIntervalSeconds?: number | undefined;
}

/** The import now, or (with `wait`) as it ended: a FAILED end is the tool's error. */
async function followed(client: Client, id: string, args: WaitArgs, context: ToolContext) {
  if (!args.wait) return answer(await client.getDataImport(id, { signal: context.signal }));
  let polls = 0;
  const done = await client.waitForImport(id, {
    signal: context.signal,
    ...(args.timeoutSeconds !== undefined ? { timeoutMs: args.timeoutSeconds * 1000 } : {}),
    ...(args.pollIntervalSeconds !== undefined
      ? { intervalMs: args.pollIntervalSeconds * 1000 }
      : {}),
    onStatus: (d) => {
      polls += 1;
      context.progress(polls, undefined, `${id}: ${d.status ?? 'UNKNOWN'}`);
    },
  });
  return answer(done);
}

function answer(d: DataImport) {
  const status = d.status ?? 'UNKNOWN';
  return {
    value: {
      dataImportId: d.dataImportId ?? '',
      status,
      dataImport: d as unknown as Record<string, unknown>,
    },
    text: `data import ${d.dataImportId}: ${status.replace(/^DATA_IMPORT_STATUS_/, '')}${d.errorMessage ? ` (${d.errorMessage})` : ''}`,
  };
}

export const submitTool = tool({
  name: 'submit',
  title: 'Submit an import',
  description:
    'Validates the config, checks the data file against it (sampled, as check does: nothing is sent on an error), creates a data import on the platform and uploads the file (or names `url`); with `wait`, follows it to SUCCEEDED or FAILED. A batch config takes a folder or archive.',
  input: z.strictObject({
    ...CONFIG_ARGS,
    data: z
      .string()
      .optional()
      .describe('the data file, folder or archive to upload (inside the roots)'),
    url: z
      .string()
      .optional()
      .describe('import from an http, https or s3 address instead of a file'),
    ...WAIT_ARGS,
  }),
  output: ImportOut,
  readOnly: false,
  async run(args, context) {
    const { sandbox } = context;
    const { text, name } = await configText(args, sandbox);
    const { result, document } = validated(text, name);
    if (!result.ok || !document)
      throw fail(
        'tool_argument_invalid',
        `${name} is not a valid config (${countsText(result.issues)}); nothing was sent`,
        'run lint, fix the config, then submit again',
      );
    if (result.documents.length !== 1)
      throw fail(
        'tool_argument_invalid',
        `${name} holds ${result.documents.length} documents; submit takes one`,
      );
    if (args.data !== undefined && args.url !== undefined)
      throw fail('tool_argument_invalid', 'give data or url, not both');
    const url = args.url ?? (args.data === undefined ? document.url : undefined);
    if (args.data === undefined && url === undefined)
      throw fail(
        'tool_argument_invalid',
        'no data file (or url) given',
        'give the data file to upload in `data`',
      );
    const client = context.client();
    const id =
      url !== undefined
        ? (await client.createImportFromUrl(url, document, { signal: context.signal })).dataImportId
        : await sendFile(client, document, { text, name, data: args.data as string }, context);
    return followed(client, id, args, context);
  },
});

/** Checks the file against the config (refused on errors, nothing sent), then creates and uploads. */
async function sendFile(
  client: Client,
  document: ImportDocument,
  args: { text: string; name: string; data: string },
  context: ToolContext,
): Promise<string> {
  const data = await context.sandbox.readable(args.data, 'data file');
  const checked = await context.apart('check', {
    document,
    text: args.text,
    configName: args.name,
    data,
    full: false,
  });
  const first = checked.issues.find((i) => i.severity === 'error');
  if (first)
    throw new ToolFailure({
      ...first,
      message: `${data.shown} does not fit ${args.name}: ${countsText(checked.issues)}; nothing was sent. First: ${first.message}`,
      hint: 'run check for every issue, fix the config, then submit again',
    });
  const d = await client.importFile(data.path, document, {
    signal: context.signal,
    upload: { onProgress: (sent, size) => context.progress(sent, size, 'uploading') },
  });
  return d.dataImportId ?? '';
}

export const statusTool = tool({
  name: 'status',
  title: 'Status of an import',
  description: 'Shows a data import; with `wait`, follows it until it ends (SUCCEEDED or FAILED).',
  input: z.strictObject({ dataImportId: z.string().min(1), ...WAIT_ARGS }),
  output: ImportOut,
  readOnly: true,
  async run(args, context) {
    return followed(context.client(), args.dataImportId, args, context);
  },
});
