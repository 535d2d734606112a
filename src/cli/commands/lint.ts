import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Issue } from '../../model/issue.js';
import { decodeConfigBytes, MAX_CONFIG_BYTES, validateConfigText } from '../../validate/index.js';
import { EXIT_INVALID, EXIT_OK, UsageError } from '../errors.js';
import type { Io } from '../io.js';
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
import { expandFiles } from './_files.js';

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
  -h, --help              show this help

Exit status: 0 all files valid, 1 a file is invalid, 2 usage error (unknown option,
no files, a file or glob that matches nothing).
`;

/** `importkit lint`: validates config files and reports their issues. */
export async function lint(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    ...REPORTER_FLAGS,
    data: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  const failOn = failOnOf(values['fail-on']);
  if (positionals.length === 0) throw new UsageError('no files given');
  const files = await expandFiles(positionals, io.cwd);
  if (files.includes('-') && !io.stdin) throw new UsageError('no standard input to read');

  const reporter = await openReporter(values, io, 'lint');
  const reports: FileReport[] = [];
  for (const file of files) {
    const report = await lintFile(file, io, failOn);
    if (values.data !== undefined) {
      const { withDataChecks } = await import('./check.js');
      await withDataChecks(report, String(values.data), io, failOn);
    }
    reporter.write(report);
    // Keep only what the summary needs: the texts of a thousand files need not stay in memory.
    reports.push({ file: report.file, valid: report.valid, issues: report.issues });
  }
  reporter.end(summarize(reports));
  return reports.every((r) => r.valid) ? EXIT_OK : EXIT_INVALID;
}

async function lintFile(file: string, io: Io, failOn: FailOn): Promise<FileReport> {
  const name = file === '-' ? '<stdin>' : file;
  const read = file === '-' ? await readStdin(io) : readConfig(resolve(io.cwd, file));
  if (typeof read !== 'string') {
    return { file: name, valid: false, issues: [{ ...read, file: name }] };
  }
  const result = validateConfigText(read, { filename: name });
  return { file: name, valid: isValid(result.issues, failOn), issues: result.issues, text: read };
}

/**
 * The file's text, or an issue when it cannot be read or is far too large for a config.
 * Synchronous on purpose: files are linted one after another, and for many small files
 * plain system calls cost a fraction of the promise round trips.
 */
function readConfig(path: string): string | Issue {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const st = fstatSync(fd);
    if (st.isDirectory()) {
      return fileIssue('file_unreadable', 'This is a folder, not a config file.');
    }
    if (st.size > MAX_CONFIG_BYTES) {
      return fileIssue(
        'input_too_large',
        `The file is ${st.size} bytes; a config file is at most ${MAX_CONFIG_BYTES} (4 MiB).`,
      );
    }
    // Read one byte past the limit: a file that grew meanwhile is still caught.
    const buf = Buffer.allocUnsafe(Math.min(st.size + 1, MAX_CONFIG_BYTES + 1));
    let n = 0;
    for (;;) {
      const r = readSync(fd, buf, n, buf.length - n, n);
      if (r === 0) break;
      n += r;
      if (n === buf.length) break;
    }
    if (n > MAX_CONFIG_BYTES) {
      return fileIssue(
        'input_too_large',
        `The file is larger than ${MAX_CONFIG_BYTES} bytes (4 MiB).`,
      );
    }
    return decodeConfigBytes(buf.subarray(0, n));
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'EISDIR')
      return fileIssue('file_unreadable', 'This is a folder, not a config file.');
    return fileIssue(
      code === 'ENOENT' ? 'file_not_found' : 'file_unreadable',
      `The file cannot be read (${code ?? (err instanceof Error ? err.message : String(err))}).`,
    );
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

async function readStdin(io: Io): Promise<string | Issue> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of io.stdin ?? []) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk);
    size += b.length;
    if (size > MAX_CONFIG_BYTES) {
      return fileIssue(
        'input_too_large',
        `Standard input holds more than ${MAX_CONFIG_BYTES} bytes (4 MiB).`,
      );
    }
    chunks.push(b);
  }
  return decodeConfigBytes(Buffer.concat(chunks));
}

function fileIssue(code: Issue['code'], message: string): Issue {
  return { code, severity: 'error', path: '', message, line: 1, column: 1 };
}
