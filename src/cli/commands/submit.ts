/**
 * `importkit submit <config> <data-file> [--wait] [--timeout SECONDS]` and
 * `importkit submit <config> --url URL`: validates the config, checks the file against it
 * (sampled, as `importkit check` does; `--no-check` skips that), creates the import,
 * uploads the file (or names the URL), and with `--wait` follows it to its end.
 * The service and the key come from IMPORTKIT_BASE_URL and IMPORTKIT_API_KEY, never
 * from the command line.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type Client, checkBatchApart, type UploadTarget } from '../../client/index.js';
import { containerKind, dataFileProblem } from '../../inspect/index.js';
import type { ImportDocument, Issue } from '../../model/index.js';
import { validateConfigText } from '../../validate/index.js';
import { parseCommandArgs } from '../args.js';
import { EXIT_INTERRUPTED, EXIT_INVALID, EXIT_OK, UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { checkConfigArgument, checkDataArgument } from '../mistakes.js';
import { printable } from '../printable.js';
import { createProgress } from '../progress.js';
import { loadReporter, summarize } from '../reporters/index.js';
import {
  clientFromEnv,
  continues,
  endedEarly,
  explainClientError,
  explainingClientErrors,
  follow,
  printResult,
  seconds,
} from './_client.js';
import { readConfigOrThrow } from './_files.js';
import {
  Interrupted,
  type InterruptGuard,
  interruptGuard,
  reportUnfinished,
} from './_unfinished.js';

const HELP = `Usage: importkit submit <config> <data-file> [--wait] [--timeout SECONDS]
       importkit submit <batch-config> <folder | archive> [--wait] [--timeout SECONDS]
       importkit submit <config> --url URL [--wait] [--timeout SECONDS]

Validates the config, checks the file against it (its head and tail sampled, as importkit
check does; nothing is sent on errors), creates a data import, uploads the file (or hands
the service the URL), and prints the import's id. A batch config (batchConfig) takes a folder or a zip,
tar or tar.gz archive, checked against the config first (as importkit check does; nothing
is sent on errors): a folder is sent as a zip of exactly the files it lists, made as it
streams; an archive is sent as it is. The service and key come from the environment:
  IMPORTKIT_BASE_URL   the service's address (e.g. http://127.0.0.1:8080)
  IMPORTKIT_API_KEY    the API key (never given on the command line)

Options:
  --url URL               import from an http, https or s3 address instead of a file
  --wait                  follow the import until it ends (exit 0 SUCCEEDED, 1 FAILED;
                          Ctrl-C stops the wait, not the import: exit 130)
  --timeout SECONDS       give up waiting after this long (exit 1; the import goes on)
  --poll-interval SECONDS first interval between status reads (default 1; doubles to 30)
  --json                  print the DataImport as JSON on stdout
  --no-check              send the file without checking it against the config first
  --allow-http-host NAME  send the key over plain http to NAME, the host of
                          IMPORTKIT_BASE_URL, on a network you trust (a CI service container,
                          docker compose); also IMPORTKIT_ALLOW_HTTP_HOST=NAME[,NAME]; warns
  --import ID             send the file to an import made earlier whose file did not arrive
  --upload-url URL        (with --import) where that import's file goes: a submit cut short
                          after the create prints the whole command
  -h, --help              this help

A submit stopped once its import exists (Ctrl-C, an upload refused or broken) says which
import, in what state, and the command that sends the file again to it (with --json, as
data on stdout). The platform has no call that deletes an import; one left without its
file holds no data.
`;

/**
 * Checks the folder or archive against its batch config (refused on errors: exit 1, nothing
 * sent), creates the import and uploads: a folder as a zip of the listed files made as it
 * streams, an archive as it is. Answers the import's id, or the exit code of a refusal.
 */
async function sendBatch(client: Client, document: ImportDocument, s: Sending): Promise<Sent> {
  const { args, io } = s;
  const dataPath = args.dataPath ?? '';
  const path = resolve(io.cwd, dataPath);
  const kind = await containerKind(path);
  if (!kind && !(await stat(path).catch(() => undefined))) {
    throw new UsageError(`${dataPath}: no such file or folder; nothing was sent`);
  }
  const { checkAgainstData } = await import('./_check-data.js');
  // One file at a time, in a worker thread that ends before the upload starts, as
  // importFile does: the check's memory is given back before the upload's.
  const issues = await checkAgainstData(document, s.text, args.configPath, dataPath, path, io, {
    jobs: 1,
    check: ({ batchConfig }, at, { onProgress: _, ...o } = {}) =>
      checkBatchApart(batchConfig ?? {}, at, o),
  });
  if (!kind || issues.some((i) => i.severity === 'error')) {
    await reportConfigIssues(io, { file: args.configPath, valid: false, issues, text: s.text });
    io.stderr.write(
      `${printable(`importkit submit: ${dataPath} does not fit ${args.configPath}`)}; nothing was sent\n`,
    );
    return EXIT_INVALID;
  }
  const members = Object.keys(document.batchConfig?.fileConfigs ?? {});
  return createAndUpload(client, document, s, async (target, upload) => {
    const total = await uploadWithProgress(io, (onProgress) =>
      kind === 'folder'
        ? client.uploadFolder(target.uploadUrl, path, members, { ...upload, onProgress })
        : // The archive goes as it is: a .tar.gz is not a gzip-encoded upload of a tar.
          client.uploadFile(target.uploadUrl, path, { ...upload, onProgress, gzip: false }),
    );
    io.stderr.write(
      kind === 'folder'
        ? `uploaded a zip of ${members.length} files (${total} bytes before compression)\n`
        : `uploaded ${total} bytes\n`,
    );
  });
}

/** Runs an upload with a progress bar on a terminal; answers the total it reported. */
async function uploadWithProgress(
  io: Io,
  upload: (onProgress: (sent: number, size: number) => void) => Promise<void>,
): Promise<number> {
  const bar = createProgress(io, 'uploading', 0);
  let total = 0;
  try {
    await upload((sent, size) => {
      total = size;
      bar.setTotal(size);
      bar.update(sent);
    });
  } finally {
    bar.done();
  }
  return total;
}

/** What a submit sends with: its arguments, the config's text, its output, its Ctrl-C. */
interface Sending {
  args: SubmitArgs;
  text: string;
  io: Io;
  interrupt: InterruptGuard;
}

/** The import's id once its data is on its way, or the exit code the submit ends with. */
type Sent = string | number;

/**
 * Creates the import (or takes the one `--import` names, with its `--upload-url`), then
 * sends its file through `upload`. Once the import exists, a stop (Ctrl-C, a refused or
 * broken upload) is reported with the import, its state and the command that sends the
 * file again to it: the submit then ends with that report's exit code.
 */
async function createAndUpload(
  client: Client,
  document: ImportDocument,
  s: Sending,
  upload: (target: UploadTarget, options: { signal: AbortSignal }) => Promise<void>,
): Promise<Sent> {
  const { io, interrupt, args } = s;
  const target =
    args.resume ?? (await createImport(() => client.createImportFromUpload(document), s));
  if (typeof target === 'number') return target;
  const id = target.dataImportId;
  io.stderr.write(
    args.resume
      ? `sending the file to data import ${printable(id)}\n`
      : `created data import ${printable(id)}\n`,
  );
  let uploading = false;
  try {
    interrupt.signal.throwIfAborted();
    uploading = true;
    await upload(target, { signal: interrupt.signal });
    return id;
  } catch (err) {
    const cause = err instanceof Interrupted ? err : explainClientError(err, io);
    const resume = resumeWords(args, target);
    return reportUnfinished(client, io, {
      ...target,
      id,
      cause,
      uploading,
      json: args.json,
      resume,
    });
  }
}

/**
 * Runs a create under the Ctrl-C guard: interrupted before the service answered, the
 * submit says an import may exist (exit 130); interrupted after, it goes on to say which.
 */
async function createImport<T>(
  create: (signal: AbortSignal) => Promise<T>,
  s: Sending,
): Promise<T | number> {
  try {
    return await s.interrupt.creating(create);
  } catch (err) {
    if (!(err instanceof Interrupted)) throw err;
    s.io.stderr.write(
      'interrupted before the service answered: it may have made an import, which then stays PENDING without its file and holds no data\n',
    );
    return EXIT_INTERRUPTED;
  }
}

/** The submit command that sends the file again to the import `target`: the same options. */
function resumeWords(args: SubmitArgs, target: UploadTarget): string[] {
  const words = ['submit', args.configPath, args.dataPath ?? ''];
  words.push('--import', target.dataImportId, '--upload-url', target.uploadUrl);
  if (args.wait) words.push('--wait');
  if (args.timeoutMs !== undefined) words.push('--timeout', String(args.timeoutMs / 1000));
  if (args.intervalMs !== undefined) words.push('--poll-interval', String(args.intervalMs / 1000));
  if (args.json) words.push('--json');
  if (!args.check) words.push('--no-check');
  if (args.allowHttpHost !== undefined) words.push('--allow-http-host', args.allowHttpHost);
  return words;
}

export async function submit(args: string[], io: Io): Promise<number> {
  return explainingClientErrors(io, () => submitImport(args, io));
}

/** What the command line asks of submit, checked. */
interface SubmitArgs {
  configPath: string;
  dataPath: string | undefined;
  url: string | undefined;
  wait: boolean;
  json: boolean;
  /** Check the data against the config before anything is sent (not with `--no-check`). */
  check: boolean;
  timeoutMs: number | undefined;
  intervalMs: number | undefined;
  /** An import made earlier whose file did not arrive (`--import`, `--upload-url`): no create. */
  resume: UploadTarget | undefined;
  /** A host the key may go to over plain http (`--allow-http-host`). */
  allowHttpHost: string | undefined;
}

async function submitImport(args: string[], io: Io): Promise<number> {
  const parsed = await parseSubmitArgs(args);
  if (parsed === 'help') {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  const config = await readSubmitConfig(parsed.configPath, io);
  if (typeof config === 'number') return config;
  const { document, text } = config;
  const url = parsed.url ?? (parsed.dataPath ? undefined : document.url);
  if (!parsed.dataPath && !url) throw new UsageError('missing <data-file> (or --url URL)');

  const client = clientFromEnv(io, parsed.allowHttpHost);
  const interrupt = interruptGuard(io);
  try {
    const args = { ...parsed, url };
    const id = await sendImport(client, document, { args, text, io, interrupt });
    if (typeof id === 'number') return id;
    return await afterSending(client, id, { args, text, io, interrupt });
  } finally {
    interrupt.release();
  }
}

/**
 * Once the data is on its way: follows the import (`--wait`) or shows it as it stands. The
 * import exists whatever happens now: a stop says so, and how to follow it.
 */
async function afterSending(client: Client, id: string, s: Sending): Promise<number> {
  const { args, io, interrupt } = s;
  const json = args.json;
  try {
    if (args.wait) {
      const { timeoutMs, intervalMs } = args;
      return await follow(client, id, io, { timeoutMs, intervalMs, json, interrupt });
    }
    const now = await client.getDataImport(id, { signal: interrupt.signal });
    printResult(now, io, json);
    return now.status === 'DATA_IMPORT_STATUS_FAILED' ? EXIT_INVALID : EXIT_OK;
  } catch (err) {
    if (err instanceof Interrupted) return endedEarly(err, id, io, json, undefined, 'the submit');
    const explained = explainClientError(err, io);
    io.stderr.write(`${printable(`importkit submit: ${(explained as Error).message}`)}\n`);
    const hint = (explained as { hint?: unknown }).hint;
    if (typeof hint === 'string') io.stderr.write(`  hint: ${printable(hint)}\n`);
    continues(id, io, json, undefined);
    return EXIT_INVALID;
  }
}

/** The command line's options and arguments, checked (usage errors thrown); 'help' for -h. */
async function parseSubmitArgs(args: string[]): Promise<SubmitArgs | 'help'> {
  const { values, positionals } = parseCommandArgs(args, {
    url: { type: 'string' },
    wait: { type: 'boolean' },
    timeout: { type: 'string' },
    'poll-interval': { type: 'string' },
    json: { type: 'boolean' },
    'no-check': { type: 'boolean' },
    import: { type: 'string' },
    'upload-url': { type: 'string' },
    'allow-http-host': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return 'help';
  const [configPath, dataPath, ...extra] = positionals;
  if (!configPath) throw new UsageError('missing <config>');
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`);
  if (dataPath && values.url) throw new UsageError('give a <data-file> or --url, not both');
  const usage = 'importkit submit <config> <data-file>';
  await checkConfigArgument(configPath, usage, dataPath);
  if (dataPath) checkDataArgument(dataPath, 'submit', usage);
  const timeoutMs = seconds(values.timeout, '--timeout');
  const intervalMs = seconds(values['poll-interval'], '--poll-interval');
  if (timeoutMs !== undefined && !values.wait) throw new UsageError('--timeout needs --wait');
  return {
    configPath,
    dataPath,
    url: values.url,
    wait: values.wait === true,
    json: values.json === true,
    check: values['no-check'] !== true,
    timeoutMs,
    intervalMs,
    resume: resumeTarget(values.import, values['upload-url'], dataPath),
    allowHttpHost: values['allow-http-host'],
  };
}

/** `--import ID --upload-url URL`: both, with a data file; the import they name. */
function resumeTarget(
  id: string | undefined,
  uploadUrl: string | undefined,
  dataPath: string | undefined,
): UploadTarget | undefined {
  if (id === undefined && uploadUrl === undefined) return undefined;
  if (id === undefined || uploadUrl === undefined) {
    throw new UsageError(
      '--import and --upload-url go together: the import made earlier and where its file goes',
      'a submit cut short prints the whole command',
    );
  }
  if (!dataPath) throw new UsageError('--import needs the <data-file> to send');
  if (!/^https?:\/\//i.test(uploadUrl)) {
    throw new UsageError(`--upload-url '${uploadUrl}': an http or https address`);
  }
  return { dataImportId: id, uploadUrl };
}

/** Writes the issues found in a config (or in its data) to stderr as the text reporter does. */
async function reportConfigIssues(
  io: Io,
  report: { file: string; valid: boolean; issues: Issue[]; text: string },
): Promise<void> {
  const reporter = (await loadReporter('text'))(io.stderr, { command: 'submit' });
  reporter.write(report);
  reporter.end(summarize([report]));
}

/**
 * Reads and validates the config: its one document with its text, or exit 1 when it is not
 * valid (nothing sent). Warnings are shown and do not stop the submit.
 */
async function readSubmitConfig(
  configPath: string,
  io: Io,
): Promise<{ document: ImportDocument; text: string } | number> {
  const text = readConfigOrThrow(resolve(io.cwd, configPath), configPath);
  const result = validateConfigText(text, { filename: configPath });
  if (result.ok && result.documents.length !== 1) {
    throw new UsageError(
      `${configPath} holds ${result.documents.length} documents; submit takes one`,
    );
  }
  if (!result.ok || result.value === undefined) {
    await reportConfigIssues(io, { file: configPath, valid: false, issues: result.issues, text });
    io.stderr.write(
      `${printable(`importkit submit: ${configPath} is not a valid config`)}; nothing was sent\n`,
    );
    return EXIT_INVALID;
  }
  if (result.issues.length > 0) {
    // Warnings do not stop the submit, but they are worth seeing before the upload.
    await reportConfigIssues(io, { file: configPath, valid: true, issues: result.issues, text });
  }
  return { document: result.value as ImportDocument, text };
}

/**
 * Creates the import and sends its data: a batch's folder or archive, a URL, or one file.
 * Answers the import's id, or the exit code the submit ends with (a refusal: nothing sent).
 */
async function sendImport(client: Client, document: ImportDocument, s: Sending): Promise<Sent> {
  const { dataPath, url } = s.args;
  if (document.batchConfig && dataPath && !url) return sendBatch(client, document, s);
  if (url) {
    const created = await createImport(
      (signal) => client.createImportFromUrl(url, document, { signal }),
      s,
    );
    if (typeof created === 'number') return created;
    const id = created.dataImportId;
    s.io.stderr.write(`created data import ${printable(id)} from ${printable(url)}\n`);
    // The service fetches the file itself: the import goes on whatever happens here.
    if (s.interrupt.signal.aborted) {
      return endedEarly(new Interrupted(), id, s.io, s.args.json, undefined, 'the submit');
    }
    return id;
  }
  return sendFile(client, document, s);
}

/**
 * Creates the import and uploads one data file; exit 1 when the file cannot be sent or
 * (unless `--no-check`) does not fit the config.
 */
async function sendFile(client: Client, document: ImportDocument, s: Sending): Promise<Sent> {
  const { io, args } = s;
  const dataPath = args.dataPath ?? '';
  const file = resolve(io.cwd, dataPath);
  const problem = await dataFileProblem(file, dataPath);
  if (problem?.code === 'file_not_found') {
    throw new UsageError(`${dataPath}: no such file; nothing was sent`);
  }
  if (problem) {
    const hint = problem.hint ? `\n  hint: ${printable(problem.hint)}` : '';
    io.stderr.write(
      `importkit submit: error ${problem.code}: ${printable(problem.message)}; nothing was sent${hint}\n`,
    );
    return EXIT_INVALID;
  }
  const { configPath, check } = args;
  if (check && !(await fitsConfig(document, { configPath, dataPath, file, text: s.text }, io))) {
    return EXIT_INVALID;
  }
  return createAndUpload(client, document, s, async (target, upload) => {
    const total = await uploadWithProgress(io, (onProgress) =>
      client.uploadFile(target.uploadUrl, file, { ...upload, onProgress }),
    );
    io.stderr.write(`uploaded ${total} bytes\n`);
  });
}

/**
 * The sampled check of one data file against its config, as `importkit check` runs it:
 * true when it finds no error; else the issues are printed, with "nothing was sent".
 */
async function fitsConfig(
  document: ImportDocument,
  args: { configPath: string; dataPath: string; file: string; text: string },
  io: Io,
): Promise<boolean> {
  const { checkAgainstData } = await import('./_check-data.js');
  const { configPath, dataPath, file, text } = args;
  const issues = await checkAgainstData(document, text, configPath, dataPath, file, io);
  if (!issues.some((i) => i.severity === 'error')) return true;
  await reportConfigIssues(io, { file: configPath, valid: false, issues, text });
  io.stderr.write(
    `${printable(`importkit submit: ${dataPath} does not fit ${configPath}`)}; nothing was sent (--no-check sends it unchecked)\n`,
  );
  return false;
}
