import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { validateConfigText } from '../../validate/index.js';
import { parseCommandArgs } from '../args.js';
import { EXIT_INVALID, EXIT_OK, UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { checkConfigArgument } from '../mistakes.js';
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
import { expandFiles, readConfig, readConfigStdin } from './_files.js';
import { jobsOption } from './_jobs.js';
import { lintInParallel, MIN_FILES_FOR_WORKERS } from './_lint-jobs.js';

const HELP = `Usage: importkit lint [options] <files, folders or globs...>

Validates config files (YAML or JSON; a YAML file may hold several documents).
Use - to read a config from standard input. Quote globs ('configs/**/*.yaml') to let
importkit expand them; a folder stands for the .yaml, .yml and .json files under it.

Options:
  -r, --reporter <name>   output format: ${REPORTER_NAMES.join(', ')} (default: text)
      --fail-on <level>   error (default) or warning: the level that makes a file invalid
  -q, --quiet             only errors; nothing at all when every file is valid
      --verbose           also list valid files and info issues
      --data <file>       also check each config against this data file (see importkit check)
  -j, --jobs <n>          threads for many files (default: up to the number of cores,
                          started once the files left would take this one three
                          times as long as a thread's start)
  -h, --help              show this help

Exit status: 0 all files valid, 1 a file is invalid, 2 usage error (unknown option,
no files, a file or glob that matches nothing).
`;

/** `importkit lint`: validates config files and reports their issues. */
export async function lint(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    ...REPORTER_FLAGS,
    data: { type: 'string' },
    jobs: { type: 'string', short: 'j' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  const failOn = failOnOf(values['fail-on']);
  const asked = jobsOption(values.jobs);
  const jobs = asked ?? availableParallelism();
  if (positionals.length === 0) throw new UsageError('no files given');
  for (const p of positionals) {
    await checkConfigArgument(
      p,
      'importkit lint <config>... (to check a config against its data: importkit check <config> <data-file>)',
    );
  }
  const files = await expandFiles(positionals, io.cwd);
  if (files.includes('-') && !io.stdin) throw new UsageError('no standard input to read');

  const reporter = await openReporter(values, io, 'lint');
  const reports: FileReport[] = [];
  const keep = (report: FileReport) => {
    reporter.write(report);
    // Keep only what the summary needs: the texts of a thousand files need not stay in memory.
    reports.push({ file: report.file, valid: report.valid, issues: report.issues });
  };
  if (
    jobs > 1 &&
    values.data === undefined &&
    files.length >= MIN_FILES_FOR_WORKERS &&
    !files.includes('-')
  ) {
    const lintOne = (file: string) => lintFile(file, io, failOn);
    const input = { cwd: io.cwd, failOn };
    await lintInParallel(files, jobs, input, lintOne, keep, asked !== undefined);
    reporter.end(summarize(reports));
    return reports.every((r) => r.valid) ? EXIT_OK : EXIT_INVALID;
  }
  for (const file of files) {
    const report = await lintFile(file, io, failOn);
    if (values.data !== undefined) {
      const { withDataChecks } = await import('./_check-data.js');
      await withDataChecks(report, String(values.data), io, failOn);
    }
    keep(report);
  }
  reporter.end(summarize(reports));
  return reports.every((r) => r.valid) ? EXIT_OK : EXIT_INVALID;
}

/** Lints one file (`-`: standard input) as `lint` reports it. */
export async function lintFile(file: string, io: Io, failOn: FailOn): Promise<FileReport> {
  const name = file === '-' ? '<stdin>' : file;
  const read = file === '-' ? await readConfigStdin(io) : readConfig(resolve(io.cwd, file));
  if (typeof read !== 'string') {
    return { file: name, valid: false, issues: [{ ...read, file: name }] };
  }
  const result = validateConfigText(read, { filename: name });
  return { file: name, valid: isValid(result.issues, failOn), issues: result.issues, text: read };
}
