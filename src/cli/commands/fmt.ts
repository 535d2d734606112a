import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { writeFileSafely } from '../../files/index.js';
import { formatConfigText } from '../../fmt/index.js';
import type { Issue } from '../../model/plain.js';
import { parseCommandArgs } from '../args.js';
import { EXIT_INVALID, EXIT_OK, UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { printable } from '../printable.js';
import { readConfig, readConfigStdin, textOrThrow } from './_files.js';

const HELP = `Usage: importkit fmt <files...> [--check]

Rewrites config files (YAML or JSON) in canonical form: camelCase names, full enum
names, 64-bit integers as strings, keys in the reference's order. YAML comments are kept.
Use - to read standard input and write the result to standard output.

Options:
  --check     write nothing; exit 1 and name the files that would change
  --verbose   list each rewrite
  -h, --help  show this help

Exit codes: 0 all files canonical (or rewritten), 1 a file would change (--check) or
cannot be parsed, 2 usage error (unknown flag, no such file).
`;

const EMPTY_HINT = 'Write a config, for example `csvConfig: ...`.';

/** `importkit fmt <files...> [--check]` */
export async function fmt(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    check: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  if (positionals.length === 0) throw new UsageError('name at least one config file');

  const inputs: Array<{ name: string; text: string | Issue }> = [];
  for (const name of positionals) {
    if (name === '-') {
      if (!io.stdin) throw new UsageError('no standard input to read');
      inputs.push({ name, text: textOrEncodingIssue(await readConfigStdin(io), '<stdin>') });
      continue;
    }
    inputs.push({ name, text: textOrEncodingIssue(readConfig(resolve(io.cwd, name)), name) });
  }

  let failed = false;
  for (const { name, text } of inputs) {
    // Text that is not UTF-8 is never rewritten: read as UTF-8 it would be something else.
    if (typeof text !== 'string') {
      io.stderr.write(
        `${printable(`${name}:${text.line ?? 1}:${text.column ?? 1} error ${text.code}: ${text.message}`)}\n`,
      );
      failed = true;
      continue;
    }
    if (text.trim() === '') {
      // Nothing to format is not a canonical config: say so, as lint does.
      io.stderr.write(
        `${printable(name)}:1:1 error document_empty The file holds no config.\n  hint: ${EMPTY_HINT}\n`,
      );
      failed = true;
      continue;
    }
    const result = formatConfigText(text, name === '-' ? {} : { filename: name });
    if (result.error) {
      const at =
        result.error.line !== undefined
          ? `${name}:${result.error.line}:${result.error.column}`
          : name;
      const code = result.error.code ? `${result.error.code}: ` : '';
      io.stderr.write(`${printable(`${at} error ${code}${result.error.message}`)}\n`);
      failed = true;
      continue;
    }
    if (name === '-') {
      if (values.check) failed ||= result.changed;
      else io.stdout.write(result.text);
      continue;
    }
    const shown = printable(name);
    if (values.verbose)
      for (const c of result.changes) io.stderr.write(`${shown}: ${printable(c)}\n`);
    if (!result.changed) continue;
    if (values.check) {
      const endings = text.replace(/\r\n?/g, '\n') === result.text.replace(/\r\n?/g, '\n');
      io.stdout.write(
        endings
          ? `${shown}: not in canonical form: only its line endings differ (CRLF; fmt writes LF)\n`
          : `${shown}: not in canonical form\n`,
      );
      failed = true;
    } else {
      // Rewritten where the config is (a symlink to it stays a symlink), the one safe way.
      await writeFileSafely(await realpath(resolve(io.cwd, name)), result.text);
      io.stdout.write(`${shown}: formatted\n`);
    }
  }
  return failed ? EXIT_INVALID : EXIT_OK;
}

/** The text, or the not-UTF-8 issue kept for the report; any other read error is thrown. */
function textOrEncodingIssue(read: string | Issue, shown: string): string | Issue {
  return typeof read !== 'string' && read.code === 'text_not_utf8'
    ? read
    : textOrThrow(read, shown);
}
