import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { checkReads } from '../../check/index.js';
import { containerKind } from '../../inspect/index.js';
import type { ImportDocument } from '../../model/index.js';
import type { Issue } from '../../model/plain.js';
import { pushAll } from '../../model/plain.js';
import { validateConfigText } from '../../validate/index.js';
import { parseCommandArgs } from '../args.js';
import { EXIT_INVALID, EXIT_OK, UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { checkConfigArgument, checkDataArgument } from '../mistakes.js';
import { withFlags } from '../option-flags.js';
import { createProgress } from '../progress.js';
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
import { checkAgainstData } from './_check-data.js';
import { csvDialectFromArgs } from './_csv-flags.js';
import { readConfigText, requireFile } from './_files.js';
import { refuseFlagsOfOtherFormats } from './_format-flags.js';
import { jobsOption } from './_jobs.js';

const HELP = `Usage: importkit check <config> <data-file | folder | archive> [<config> <data> ...] [options]

Checks that a data file fits its config before it is uploaded: the columns, datasets and
paths the config names exist, the time column parses in the declared format and unit and
goes forward, values fit the declared channel types, firstDataRow is the first row of
values, and which columns of the file the config leaves out (info, with --verbose).
A batch config is checked against its folder or archive (zip, tar, tar.gz): every listed
file is there, its type matches its format, each fits its own or default config (an
archive's members are read in place, never extracted), and data files not listed are
reported (info, with --verbose).
By default a CSV file is sampled (its head and its tail); --full reads every row.
Several config/data pairs are checked in parallel and reported in the order given.

Options:
      --full              read the whole file (bounded memory, a progress bar on a terminal)
  -j, --jobs <n>          threads: for one CSV, Parquet, TDMS, ULog or HDF5 file with
                          --full, the threads (this one and n - 1 workers; HDF5: n
                          HDF5 threads) that share its data; for several pairs or a
                          batch, the pairs or members checked at once (default: the
                          number of cores, a folder's worker threads started once they
                          pay for their start; for one Parquet, TDMS, ULog or HDF5
                          file, 1)
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

/** `importkit check <config> <data-file> [<config> <data-file> ...] [--full] [--jobs n]` */
export async function check(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    full: { type: 'boolean', default: false },
    jobs: { type: 'string', short: 'j' },
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
  const jobs = jobsOption(values.jobs);
  if (positionals.length < 2 || positionals.length % 2 !== 0) {
    throw new UsageError('give a config file and the data file it imports (or several such pairs)');
  }
  const pairs: Array<[string, string]> = [];
  for (let k = 0; k < positionals.length; k += 2)
    pairs.push([positionals[k] as string, positionals[k + 1] as string]);
  // Usage errors first, before anything is checked.
  let batch = false;
  for (const [configFile, dataFile] of pairs) {
    await checkArguments(configFile, dataFile);
    await readConfigText(configFile, io);
    // A batch config checks a folder or an archive (zip, tar, tar.gz) of files.
    const dataPath = resolve(io.cwd, dataFile);
    const container = await containerKind(dataPath);
    batch ||= container !== undefined;
    if (container !== 'folder') await requireFile(dataPath, dataFile);
    if (container === undefined) await refuseFlagsOfOtherFormats(dataPath, dataFile, dialect);
  }
  const reporter = await openReporter(values, io, 'check');
  const options = { full: values.full, ...dialect };
  let checked: CheckedPair[];
  if (pairs.length === 1) {
    const [configFile, dataFile] = pairs[0] as [string, string];
    checked = [
      // Without --jobs a file's format takes its own default (CSV: the cores; the others:
      // one thread), and a batch checks as many members at once as there are cores (a
      // folder of many members: with workers once they pay for their start).
      await checkPair(configFile, dataFile, io, failOn, {
        ...options,
        ...(jobs !== undefined || batch ? { jobs: jobs ?? availableParallelism() } : {}),
        ...(jobs === undefined && batch ? { threadsAsTheyPay: true } : {}),
      }),
    ];
  } else {
    checked = await checkPairs(pairs, io, failOn, options, jobs ?? availableParallelism());
  }
  const reports = checked.map((c) => c.report);
  for (const report of reports) reporter.write(report);
  const [first] = pairs as [[string, string]];
  const [firstChecked] = checked as [CheckedPair];
  reporter.end(
    pairs.length === 1
      ? {
          ...summarize(reports),
          validText: `${first[1]} fits ${first[0]} (${withFlags(checkReads(firstChecked.document ?? {}, values.full, firstChecked.report.issues), 'check')})`,
        }
      : summarize(reports),
  );
  return reports.every((r) => r.valid) ? EXIT_OK : EXIT_INVALID;
}

/** A pair's report, and the config document it checked (its verdict says what that reads). */
interface CheckedPair {
  report: FileReport;
  document: ImportDocument | undefined;
}

interface PairOptions {
  full: boolean;
  delimiter?: string;
  headerRow?: number;
  jobs?: number;
}

/** One config checked against its data file, as a report. */
async function checkPair(
  configFile: string,
  dataFile: string,
  io: Io,
  failOn: FailOn,
  options: PairOptions,
  showProgress = true,
): Promise<CheckedPair> {
  const text = await readConfigText(configFile, io);
  const dataPath = resolve(io.cwd, dataFile);
  const result = validateConfigText(text, { filename: configFile });
  const issues: Issue[] = [...result.issues];
  const document = result.documents.find((d) => d.value !== undefined)?.value as
    | ImportDocument
    | undefined;
  if (document) {
    pushAll(
      issues,
      await checkAgainstData(document, text, configFile, dataFile, dataPath, io, {
        ...options,
        progress: showProgress,
      }),
    );
  }
  return { report: { file: configFile, valid: isValid(issues, failOn), issues, text }, document };
}

/**
 * Several pairs, `jobs` of them at a time (a CSV `--full` scan of each shares the jobs
 * left), with one progress bar counting the pairs done. Reports come in the order given.
 */
async function checkPairs(
  pairs: Array<[string, string]>,
  io: Io,
  failOn: FailOn,
  options: PairOptions,
  jobs: number,
): Promise<CheckedPair[]> {
  const atOnce = Math.min(jobs, pairs.length);
  const each = { ...options, jobs: Math.max(1, Math.floor(jobs / atOnce)) };
  const progress = options.full
    ? createProgress(io, `checking ${pairs.length} files`, pairs.length, { unit: 'items' })
    : undefined;
  const reports: CheckedPair[] = new Array(pairs.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < pairs.length) {
      const k = next++;
      const [configFile, dataFile] = pairs[k] as [string, string];
      reports[k] = await checkPair(configFile, dataFile, io, failOn, each, false);
      done += 1;
      progress?.update(done);
    }
  };
  try {
    await Promise.all(Array.from({ length: atOnce }, worker));
  } finally {
    progress?.done();
  }
  return reports;
}

/** A URL, a data file as the config or a config as the data file: said before reading. */
async function checkArguments(configFile: string, dataFile: string): Promise<void> {
  const usage = 'importkit check <config> <data-file>';
  await checkConfigArgument(configFile, usage, dataFile);
  checkDataArgument(dataFile, 'check', usage);
}
