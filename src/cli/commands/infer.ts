import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { basename, extname, resolve } from 'node:path';
import {
  type Draft,
  type InferOptions,
  inferConfig,
  type Layout,
  type TdmsNames,
} from '../../infer/index.js';
import { containerKind } from '../../inspect/index.js';
import {
  hasErrors,
  isRfc3339,
  parseTimeFormatName,
  TIME_FORMAT_SHORT_NAMES,
} from '../../model/plain.js';
import { parseCommandArgs } from '../args.js';
import { EXIT_INVALID, EXIT_OK, UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { checkDataArgument } from '../mistakes.js';
import { createProgress } from '../progress.js';
import { csvDialectFromArgs } from './_csv-flags.js';
import { draftText, explainTable, writeDraft, writeIssues } from './_draft-output.js';
import { refuseFlagsOfOtherFormats } from './_format-flags.js';
import { jobsOption } from './_jobs.js';
import { refuseOverwritingInputs } from './_outputs.js';

const HELP = `Usage: importkit infer <file | folder | archive> [options]

Inspects a local data file (CSV, CSV.gz, Parquet, HDF5, TDMS, CH10, ULog) and prints a draft
config, YAML by default. Issues go to stderr; the draft goes to stdout (or to -o).
A folder or an archive (.zip, .tar, .tar.gz, .tgz; read in place, never extracted) gives a
draft batchConfig listing its data files by their path inside it.

Options:
      --asset <name>            asset name (default: the file's base name)
      --run <name>              run name
      --time-column <n|name>    the time column: 1-based number or name (CSV, Parquet)
      --time-format <format>    e.g. ABSOLUTE_RFC3339, ABSOLUTE_UNIX_MILLISECONDS, RELATIVE_SECONDS
      --relative-start <time>   RFC 3339 start time for relative time formats (ULog: the log's start)
      --delimiter <d>           CSV delimiter: , ; tab |
      --header-row <n>          CSV 1-based header row (0: no header)
      --layout <layout>         Parquet: flat, single-channel or multi-channel
      --complex-types <mode>    Parquet complexTypesImportMode: IGNORE, BOTH, STRING, BYTES
      --time-dataset <path>     HDF5: the time dataset
      --tdms-names <names>      TDMS channel names: qualified (default: <group>.<channel>,
                                as the platform's own tools name them) or plain (the
                                channel name; the group added only where names clash)
      --full                    read the whole file instead of its head and a few slices
      --explain                 print the evidence for each choice as a table on stderr
      --format <yaml|json>      output format (default: the -o file's, .json or .yaml, else yaml;
                                json prints the bare document)
      --no-defaults             batch: keep every file's config whole (no default*Config)
      --jobs <n>                batch: files inspected at once (default: the number of
                                cores); a folder of 256 files or more is shared by as
                                many threads (without --jobs, started once they pay)
  -o, --output <file>           write the draft to a file instead of stdout
      --preview <file>          also write an HTML page of the data as the draft reads it
  -h, --help                    show this help

Time formats: ${TIME_FORMAT_SHORT_NAMES.join(', ')} (TIME_FORMAT_ prefix optional).

Exit status: 0 a draft without errors, 1 a draft that still has errors (it is printed
anyway) or a file that cannot be read, 2 usage error.
`;

const LAYOUTS: readonly Layout[] = ['flat', 'single-channel', 'multi-channel'];
const TDMS_NAMES: readonly TdmsNames[] = ['qualified', 'plain'];
const COMPLEX_MODES = ['IGNORE', 'BOTH', 'STRING', 'BYTES'];

/** The command-line flags of `infer` → InferOptions (usage errors for values that cannot be right). */
export function inferOptionsFromArgs(
  values: Record<string, string | boolean | undefined>,
): InferOptions {
  const options: InferOptions = {};
  const str = (k: string): string | undefined => {
    const v = values[k];
    return typeof v === 'string' ? v : undefined;
  };
  const asset = str('asset');
  if (asset !== undefined) {
    if (asset.trim() === '') throw new UsageError('--asset needs a name');
    options.assetName = asset;
  }
  const run = str('run');
  if (run !== undefined) {
    if (run.trim() === '') throw new UsageError('--run needs a name');
    options.runName = run;
  }
  const timeColumn = str('time-column');
  if (timeColumn !== undefined) {
    if (timeColumn.trim() === '') throw new UsageError('--time-column needs a number or a name');
    options.timeColumn = /^\d+$/.test(timeColumn) ? Number(timeColumn) : timeColumn;
    if (options.timeColumn === 0) throw new UsageError('--time-column numbers start at 1');
  }
  const timeFormat = str('time-format');
  if (timeFormat !== undefined) {
    const f = parseTimeFormatName(timeFormat);
    if (!f)
      throw new UsageError(
        `--time-format '${timeFormat}' is not a time format (one of ${TIME_FORMAT_SHORT_NAMES.join(', ')})`,
      );
    options.timeFormat = f;
  }
  const start = str('relative-start');
  if (start !== undefined) {
    if (!isRfc3339(start))
      throw new UsageError(
        `--relative-start '${start}' is not an RFC 3339 time (e.g. 2024-01-01T00:00:00Z)`,
      );
    options.relativeStartTime = start;
  }
  Object.assign(options, csvDialectFromArgs(values));
  const layout = str('layout');
  if (layout !== undefined) {
    if (!(LAYOUTS as readonly string[]).includes(layout))
      throw new UsageError(`--layout takes ${LAYOUTS.join(', ')}, not '${layout}'`);
    options.layout = layout as Layout;
  }
  const complex = str('complex-types');
  if (complex !== undefined) {
    const short = complex.toUpperCase().replace(/^PARQUET_COMPLEX_TYPES_IMPORT_MODE_/, '');
    if (!COMPLEX_MODES.includes(short))
      throw new UsageError(`--complex-types takes ${COMPLEX_MODES.join(', ')}, not '${complex}'`);
    options.complexTypes = `PARQUET_COMPLEX_TYPES_IMPORT_MODE_${short}`;
  }
  const timeDataset = str('time-dataset');
  if (timeDataset !== undefined) options.timeDataset = timeDataset;
  const names = str('tdms-names');
  if (names !== undefined) {
    if (!(TDMS_NAMES as readonly string[]).includes(names))
      throw new UsageError(`--tdms-names takes ${TDMS_NAMES.join(' or ')}, not '${names}'`);
    options.tdmsNames = names as TdmsNames;
  }
  if (values.full === true) options.full = true;
  return options;
}

/** The flags of `importkit infer`, for `parseArgs`. */
const INFER_FLAGS = {
  asset: { type: 'string' },
  run: { type: 'string' },
  'time-column': { type: 'string' },
  'time-format': { type: 'string' },
  'relative-start': { type: 'string' },
  delimiter: { type: 'string' },
  'header-row': { type: 'string' },
  layout: { type: 'string' },
  'complex-types': { type: 'string' },
  'time-dataset': { type: 'string' },
  'tdms-names': { type: 'string' },
  full: { type: 'boolean', default: false },
  explain: { type: 'boolean', default: false },
  format: { type: 'string' },
  output: { type: 'string', short: 'o' },
  preview: { type: 'string' },
  'no-defaults': { type: 'boolean', default: false },
  jobs: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** `importkit infer <file>`: a draft config for a data file, with its issues and evidence. */
export async function infer(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, INFER_FLAGS);
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  const format = draftFormat(values.format, values.output);
  if (positionals.length === 0) throw new UsageError('no file given');
  if (positionals.length > 1)
    throw new UsageError(`one file at a time (got ${positionals.length})`);
  const options = inferOptionsFromArgs(values);
  const file = positionals[0] as string;
  checkDataArgument(file, 'infer', 'importkit infer <data-file> [options]');
  const path = resolve(io.cwd, file);
  await refuseOverwritingInputs(
    io,
    'infer',
    [
      ...(typeof values.output === 'string' ? [{ flag: '-o', path: values.output }] : []),
      ...(typeof values.preview === 'string' ? [{ flag: '--preview', path: values.preview }] : []),
    ],
    [{ what: 'the data file', path: file }],
  );
  if (values.preview === undefined && (await containerKind(path)) !== undefined) {
    const { inferBatchCommand } = await import('./_infer-batch.js');
    return inferBatchCommand(io, file, options, {
      defaults: values['no-defaults'] !== true,
      jobs: jobsOption(values.jobs) ?? availableParallelism(),
      threadsAsTheyPay: jobsOption(values.jobs) === undefined,
      explain: values.explain === true,
      format,
      output: typeof values.output === 'string' ? values.output : undefined,
    });
  }

  await refuseFlagsOfOtherFormats(path, file, options);
  const draft = await inferWithProgress(io, file, path, options);

  const text = draftText(draft, file, format);
  if (values.explain) io.stderr.write(explainTable(draft.evidence));
  writeIssues(draft.issues, file, io.stderr);
  if (!(await writeDraft(io, text, typeof values.output === 'string' ? values.output : undefined)))
    return EXIT_INVALID;
  if (typeof values.preview === 'string') {
    const { writePreview } = await import('./_preview-write.js');
    const shown = await writePreview(io, {
      command: 'infer',
      document: draft.document,
      configText: text,
      configName: typeof values.output === 'string' ? values.output : `draft.${format}`,
      dataFile: file,
      output: values.preview,
      full: options.full === true,
      issues: draft.issues,
      evidence: draft.evidence,
    });
    if (shown === undefined) return EXIT_INVALID;
  }
  return hasErrors(draft.issues) ? EXIT_INVALID : EXIT_OK;
}

/**
 * The draft's text format: --format, else the one `-o`'s file name says (.json, .yaml,
 * .yml), else YAML. YAML asked for a .json file is refused: no command reads that file
 * back. JSON in a .yaml file is YAML, and is written.
 */
function draftFormat(flag: string | undefined, output: string | undefined): 'yaml' | 'json' {
  if (flag !== undefined && flag !== 'yaml' && flag !== 'json')
    throw new UsageError(`--format takes yaml or json, not '${flag}'`);
  const ext = output === undefined ? '' : extname(output).toLowerCase();
  const named = ext === '.json' ? 'json' : ext === '.yaml' || ext === '.yml' ? 'yaml' : undefined;
  if (flag === 'yaml' && named === 'json') {
    throw new UsageError(
      `--format yaml writes YAML, and -o '${output}' names a JSON file: drop --format, or name the file .yaml`,
    );
  }
  return flag ?? named ?? 'yaml';
}

/** The draft of one data file, with a progress bar on a terminal when every row is read. */
async function inferWithProgress(
  io: Io,
  file: string,
  path: string,
  options: InferOptions,
): Promise<Draft> {
  let progress: ReturnType<typeof createProgress> | undefined;
  if (options.full) {
    const size = await stat(path).then(
      (s) => s.size,
      () => 0,
    );
    progress = createProgress(io, `reading ${basename(file)}`, size);
    if (progress.active)
      options.onProgress = (done, total) => {
        progress?.setTotal(total);
        progress?.update(done);
      };
  }
  try {
    return await inferConfig(path, options);
  } finally {
    progress?.done();
  }
}
