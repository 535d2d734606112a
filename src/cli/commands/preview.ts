import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ImportDocument } from '../../model/index.js';
import { hasErrors } from '../../model/plain.js';
import { validateConfigText } from '../../validate/index.js';
import { parseCommandArgs } from '../args.js';
import { EXIT_INVALID, EXIT_OK, UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { checkConfigArgument, checkDataArgument } from '../mistakes.js';
import { printable } from '../printable.js';
import { readConfigText } from './_files.js';
import { refuseOverwritingInputs } from './_outputs.js';
import { writePreview } from './_preview-write.js';

const HELP = `Usage: importkit preview <config> <data-file> [options]

Writes one self-contained HTML page that shows the data file as the config will read it:
the file, the config kind and the verdict of \`importkit check\`; the time axis (first and
last time, duration, sample rate) with what is wrong with it in red; one plot per channel
(zoom is linked across plots); the config with each issue beside its line. The page
fetches nothing: open it from disk. By default the head of the file and a few slices are
read; --full reads every row (bounded memory, a progress bar on a terminal).
CSV, Parquet, HDF5, TDMS and ULog rows are plotted; what the page cannot show (CH10
rows, for one) is a note on the page and a "note:" line after "wrote <page>".

Options:
  -o, --output <file>     the page to write (default: preview.html)
      --full              read every row instead of the head and a few slices
  -h, --help              show this help

Exit status: 0 the page is written and the file fits the config, 1 the page is written
but the config has errors (or the file cannot be read: no page), 2 usage error.
`;

/** `importkit preview <config> <data-file> [-o preview.html] [--full]` */
export async function preview(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    output: { type: 'string', short: 'o', default: 'preview.html' },
    full: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  if (positionals.length !== 2) {
    throw new UsageError('give a config file and the data file it imports');
  }
  const [configFile, dataFile] = positionals as [string, string];
  // Swapped arguments, a URL or a data file as the config: said before anything is read.
  const usage = 'importkit preview <config> <data-file>';
  await checkConfigArgument(configFile, usage, dataFile);
  checkDataArgument(dataFile, 'preview', usage);
  await refuseOverwritingInputs(
    io,
    'preview',
    [{ flag: '-o', path: String(values.output) }],
    [
      { what: 'the config', path: configFile },
      { what: 'the data file', path: dataFile },
    ],
  );
  const text = await readConfigText(configFile, io);
  const dataPath = resolve(io.cwd, dataFile);
  if (!(await stat(dataPath).catch(() => undefined))) {
    throw new UsageError(`${dataFile}: no such file`);
  }
  const result = validateConfigText(text, { filename: configFile });
  const document = result.documents.find((d) => d.value !== undefined)?.value as
    | ImportDocument
    | undefined;
  if (!document) {
    io.stderr.write(`importkit preview: ${printable(configFile)} has no valid config to preview\n`);
    return EXIT_INVALID;
  }
  const issues = await writePreview(io, {
    command: 'preview',
    document,
    configText: text,
    configName: configFile,
    dataFile,
    output: String(values.output),
    full: values.full === true,
    issues: result.issues,
  });
  if (issues === undefined) return EXIT_INVALID;
  return hasErrors(issues) ? EXIT_INVALID : EXIT_OK;
}
