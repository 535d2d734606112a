import { readFile, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { inferConfig } from '../../infer/index.js';
import { hasErrors } from '../../model/plain.js';
import { isKnownZone, type NormalizeReport, normalizeCsv } from '../../normalize/index.js';
import { validateConfigText } from '../../validate/index.js';
import { parseCommandArgs } from '../args.js';
import { EXIT_INVALID, EXIT_OK, UsageError } from '../errors.js';
import { type Io, showsProgress } from '../io.js';
import { printable } from '../printable.js';
import { createProgress, type Progress } from '../progress.js';
import { csvDialectFromArgs } from './_csv-flags.js';
import { jobsOption } from './_jobs.js';
import { refuseOverwritingInputs } from './_outputs.js';

const HELP = `Usage: importkit normalize <in.csv> -o <out.csv> [options]

Writes a copy of a CSV file that the platform reads: decimal commas become dots,
thousands separators are dropped, a date and a time of day in two columns become one
RFC 3339 column, AM/PM times, times with zone names and dates written day-first or
month-first become RFC 3339, the delimiter becomes ',', a BOM and trailing empty columns
are dropped, and header lines repeated inside the data are removed. Prints what it
changed, then checks the draft for the new file. Streams the file (memory stays bounded);
never writes over its input.

The order of day and month comes from the values: a number above 12 decides (30.03.2024,
10/18/2010), and dates written with dots are day-first. When nothing decides (only days up
to 12), the column is left as written and --date-order is asked for.

Options:
  -o, --output <file>       the file to write (required; not the input)
      --timezone <zone>     IANA zone of local times (e.g. Europe/Berlin); default UTC.
                            Given, times without an offset are rewritten with the zone's
                            offset at that moment; the hour the zone repeats when summer
                            time ends is read in row order, and its rows are named
      --date-order <dmy|mdy> the order of day and month when the values do not decide it
      --config <draft>      take firstDataRow from a draft config (YAML or JSON)
      --delimiter <d>       the input's delimiter: , ; tab | (default: detected)
      --header-row <n>      the input's 1-based header row, 0 for none (default: detected)
  -j, --jobs <n>            threads that rewrite the rows of a file of 32 MiB or more
                            (default: the cores); the output is the same whatever n is
  -h, --help                show this help

Exit status: 0 written and its draft is clean, 1 written but its draft still has errors
(or a column was left as written, or the input cannot be read), 2 usage error.
`;

/** `importkit normalize <in.csv> -o <out.csv>` */
export async function normalize(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    output: { type: 'string', short: 'o' },
    timezone: { type: 'string' },
    'date-order': { type: 'string' },
    config: { type: 'string' },
    delimiter: { type: 'string' },
    'header-row': { type: 'string' },
    jobs: { type: 'string', short: 'j' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  if (positionals.length !== 1)
    throw new UsageError(
      positionals.length === 0 ? 'no input file given' : 'one input file at a time',
    );
  const input = resolve(io.cwd, positionals[0] as string);
  const output = await outputPath(positionals[0] as string, values, io);
  const zone = typeof values.timezone === 'string' ? values.timezone : undefined;
  if (zone !== undefined && !isKnownZone(zone))
    throw new UsageError(`--timezone '${zone}' is not a time zone (e.g. Europe/Berlin, UTC)`);
  const dateOrder = values['date-order'];
  if (dateOrder !== undefined && dateOrder !== 'dmy' && dateOrder !== 'mdy')
    throw new UsageError(`--date-order takes dmy or mdy, not '${dateOrder}'`);
  const jobs = jobsOption(values.jobs);
  const firstDataRow =
    typeof values.config === 'string' ? await firstDataRowOf(values.config, io) : undefined;
  let progress: Progress | undefined;
  const report = await normalizeCsv(input, output, {
    ...csvDialectFromArgs(values),
    ...(zone !== undefined ? { timezone: zone } : {}),
    ...(dateOrder !== undefined ? { dateOrder } : {}),
    ...(firstDataRow !== undefined ? { firstDataRow } : {}),
    ...(jobs !== undefined ? { jobs } : {}),
    ...(showsProgress(io)
      ? {
          onProgress: (done: number, total: number) => {
            progress ??= createProgress(io, `normalizing ${basename(input)}`, total);
            progress.update(done);
          },
        }
      : {}),
  }).finally(() => (progress as Progress | undefined)?.done());
  const shown = printable(values.output as string);
  io.stdout.write(describe(report, shown));
  for (const i of report.issues) {
    io.stderr.write(`${i.severity} ${i.code}: ${printable(i.message)}\n`);
    if (i.hint) io.stderr.write(`  hint: ${printable(i.hint)}\n`);
  }
  const draft = await inferConfig(output);
  const errors = draft.issues.filter((i) => i.severity === 'error');
  const warnings = draft.issues.filter((i) => i.severity === 'warning');
  io.stdout.write(
    errors.length + warnings.length === 0
      ? `draft for ${shown}: clean (importkit infer ${shown})\n`
      : `draft for ${shown}: ${errors.length} error(s), ${warnings.length} warning(s): ${draft.issues
          .filter((i) => i.severity !== 'info')
          .map((i) => i.code)
          .join(', ')} (importkit infer ${shown})\n`,
  );
  return hasErrors(draft.issues) || hasErrors(report.issues) ? EXIT_INVALID : EXIT_OK;
}

/** The output path: required, and never the input or the draft config (`refuseOverwritingInputs`). */
async function outputPath(
  given: string,
  values: { output?: string | boolean; config?: string | boolean },
  io: Io,
): Promise<string> {
  const out = values.output;
  if (typeof out !== 'string' || out.trim() === '')
    throw new UsageError('give the file to write with -o <out.csv>');
  const inputStat = await stat(resolve(io.cwd, given)).catch(() => undefined);
  if (!inputStat?.isFile()) throw new UsageError(`${given}: no such file`);
  const inputs = [{ what: 'the input', path: given }];
  if (typeof values.config === 'string') inputs.push({ what: 'the config', path: values.config });
  await refuseOverwritingInputs(io, 'normalize', [{ flag: '-o', path: out }], inputs);
  return resolve(io.cwd, out);
}

async function firstDataRowOf(file: string, io: Io): Promise<number | undefined> {
  const text = await readFile(resolve(io.cwd, file), 'utf8').catch(() => {
    throw new UsageError(`${file}: no such file`);
  });
  const result = validateConfigText(text, { filename: file });
  const doc = result.documents.find((d) => d.value !== undefined)?.value as
    | { csvConfig?: { firstDataRow?: number } }
    | undefined;
  if (!doc?.csvConfig) throw new UsageError(`${file}: not a CSV config (no csvConfig)`);
  return doc.csvConfig.firstDataRow;
}

/** What was changed, one line each, with counts. */
function describe(r: NormalizeReport, output: string): string {
  const c = r.counts;
  const lines = [`wrote ${output} (${r.bytesOut} bytes from ${r.bytesIn})`];
  const add = (n: number | boolean, text: string) => {
    if (n) lines.push(`  ${text}`);
  };
  add(r.delimiter !== ',', `delimiter ${r.delimiter === '\t' ? 'tab' : `'${r.delimiter}'`} → ','`);
  add(r.bomDropped, 'byte order mark dropped');
  add(r.trailingColumnsDropped, `${r.trailingColumnsDropped} trailing empty column(s) dropped`);
  add(c.decimalCommas, `${c.decimalCommas} decimal comma(s) → dots`);
  add(c.thousandsSeparators, `${c.thousandsSeparators} number(s) without thousands separators`);
  add(
    c.timesJoined,
    `${c.timesJoined} date + time pair(s) of columns ${r.joined?.join(' and ')} joined into RFC 3339 (local times read in ${r.timezone})`,
  );
  add(
    c.timesRewritten,
    `${c.timesRewritten} time(s) rewritten as RFC 3339 (local times read in ${r.timezone})`,
  );
  add(c.repeatedHeaders, `${c.repeatedHeaders} repeated header line(s) removed`);
  add(c.cellsKept, `${c.cellsKept} cell(s) could not be rewritten and were kept as written`);
  if (lines.length === 1)
    lines.push(
      r.issues.some((i) => i.severity !== 'info')
        ? '  nothing was changed: the copy is byte for byte the same'
        : '  nothing needed changing: the copy is byte for byte the same',
    );
  return `${lines.join('\n')}\n`;
}
