import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { checkConfig } from '../../check/index.js';
import { containerKind } from '../../inspect/index.js';
import type { ImportDocument } from '../../model/document.js';
import type { Issue } from '../../model/issue.js';
import { parseConfigSource, validateConfig, validateConfigText } from '../../validate/index.js';
import { EXIT_INVALID, EXIT_OK, UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { showsProgress } from '../io.js';
import { checkConfigArgument, checkDataArgument } from '../mistakes.js';
import { createProgress, type Progress } from '../progress.js';
import {
  type FailOn,
  type FileReport,
  failOnOf,
  isValid,
  openReporter,
  REPORTER_FLAGS,
  REPORTER_NAMES,
  summarize,
} from '../reporters/index.js';
import { parseCommandArgs } from '../run.js';
import { readConfigOrThrow, requireFile } from './_files.js';
import { csvDialectFromArgs } from './infer.js';

const HELP = `Usage: importkit check <config> <data-file | folder | archive> [options]

Checks that a data file fits its config before it is uploaded: the columns, datasets and
paths the config names exist, the time column parses in the declared format and unit and
goes forward, values fit the declared channel types, firstDataRow is the first row of
values, and which columns of the file the config leaves out (info, with --verbose).
A batch config is checked against its folder or archive (zip, tar, tar.gz): every listed
file is there, its type matches its format, each file of a folder fits its own or default
config, and data files not listed are reported (info, with --verbose).
By default a CSV file is sampled (its head and its tail); --full reads every row.

Options:
      --full              read the whole file (bounded memory, a progress bar on a terminal)
      --delimiter <d>     CSV delimiter: , ; tab | (as for infer; default: detected)
      --header-row <n>    CSV 1-based header row, 0 for none (as for infer; default: detected)
  -r, --reporter <name>   output format: ${REPORTER_NAMES.join(', ')} (default: text)
      --fail-on <level>   error (default) or warning: the level that fails the check
  -q, --quiet             only errors; nothing at all when the file fits
      --verbose           also info issues (columns not in the config)
  -h, --help              show this help

Exit status: 0 the file fits the config, 1 it does not (or the config is invalid, or the
file cannot be read), 2 usage error.
`;

/** `importkit check <config> <data-file> [--full]` */
export async function check(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    full: { type: 'boolean', default: false },
    delimiter: { type: 'string' },
    'header-row': { type: 'string' },
    ...REPORTER_FLAGS,
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  const failOn = failOnOf(values['fail-on']);
  const dialect = csvDialectFromArgs(values);
  if (positionals.length !== 2) {
    throw new UsageError('give a config file and the data file it imports');
  }
  const [configFile, dataFile] = positionals as [string, string];
  checkArguments(configFile, dataFile);
  const reporter = await openReporter(values, io, 'check');
  const text = await readConfigText(configFile, io);
  const dataPath = resolve(io.cwd, dataFile);
  // A batch config checks a folder or an archive (zip, tar, tar.gz) of files.
  if ((await containerKind(dataPath)) !== 'folder') await requireFile(dataPath, dataFile);

  const result = validateConfigText(text, { filename: configFile });
  const issues: Issue[] = [...result.issues];
  const document = result.documents.find((d) => d.value !== undefined)?.value as
    | ImportDocument
    | undefined;
  if (document) {
    issues.push(
      ...(await checkAgainstData(document, text, configFile, dataFile, dataPath, io, {
        full: values.full,
        ...dialect,
      })),
    );
  }
  const report: FileReport = {
    file: configFile,
    valid: isValid(issues, failOn),
    issues,
    text,
  };
  reporter.write(report);
  const read = values.full ? 'every row read' : 'its head and tail sampled; --full reads every row';
  reporter.end({ ...summarize([report]), validText: `${dataFile} fits ${configFile} (${read})` });
  return report.valid ? EXIT_OK : EXIT_INVALID;
}

/**
 * Checks a validated document against its data file, with a progress bar on a terminal
 * for full reads, and places each issue on the config line its pointer names. Shared by
 * `check` and `lint --data`.
 */
export async function checkAgainstData(
  document: ImportDocument,
  text: string,
  configFile: string,
  dataName: string,
  dataPath: string,
  io: Io,
  options: { full?: boolean; delimiter?: string; headerRow?: number } = {},
): Promise<Issue[]> {
  const full = options.full === true;
  const size = (await stat(dataPath)).size;
  // CSV reports bytes of the file; Parquet and HDF5 report rows: the bar takes the unit of
  // the first report.
  let progress: Progress | undefined;
  const onProgress = (done: number, total: number) => {
    progress ??= createProgress(io, `checking ${dataName}`, total, {
      unit: total === size ? 'bytes' : 'items',
    });
    progress.setTotal(total);
    progress.update(done);
  };
  let found: Issue[];
  try {
    found = await checkConfig(document, dataPath, {
      ...options,
      full,
      ...(full && showsProgress(io) ? { onProgress } : {}),
    });
  } finally {
    (progress as Progress | undefined)?.done();
  }
  // A field the validator already rejects (firstDataRow -1, a misspelt key) says nothing
  // reliable about the data: its data findings would only repeat the error in other words.
  const rejected = validateConfig(document)
    .issues.filter((i) => i.severity === 'error')
    .map((i) => i.path);
  const relevant = found.filter(
    (i) => !rejected.some((p) => i.path === p || i.path.startsWith(`${p}/`)),
  );
  const source = parseConfigSource(text, { filename: configFile }).documents.find(
    (d) => d.value !== undefined,
  );
  return relevant.map((i) => {
    const out: Issue = { ...i };
    if (out.source) out.source = { ...out.source, file: dataName };
    if (source && out.line === undefined) {
      const p = source.locate(out.path);
      out.line = p.line;
      out.column = p.column;
    }
    return out;
  });
}

/** A URL, a data file as the config or a config as the data file: said before reading. */
function checkArguments(configFile: string, dataFile: string): void {
  const usage = 'importkit check <config> <data-file>';
  checkConfigArgument(configFile, usage, dataFile);
  checkDataArgument(dataFile, 'check', usage);
}

export async function readConfigText(file: string, io: Io): Promise<string> {
  return readConfigOrThrow(resolve(io.cwd, file), file);
}

/**
 * `lint --data <file>`: adds the data checks to a lint report (the config's first valid
 * document against the data file) and recomputes its verdict.
 */
export async function withDataChecks(
  report: FileReport,
  dataFile: string,
  io: Io,
  failOn: FailOn,
): Promise<void> {
  if (report.text === undefined) return;
  const dataPath = resolve(io.cwd, dataFile);
  await requireFile(dataPath, dataFile);
  const result = validateConfigText(report.text, { filename: report.file });
  const document = result.documents.find((d) => d.value !== undefined)?.value as
    | ImportDocument
    | undefined;
  if (!document) return;
  report.issues.push(
    ...(await checkAgainstData(document, report.text, report.file, dataFile, dataPath, io)),
  );
  report.valid = isValid(report.issues, failOn);
}
