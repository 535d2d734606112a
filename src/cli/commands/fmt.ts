import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { formatConfigText } from '../../fmt/index.js';
import type { Issue } from '../../model/issue.js';
import { decodeConfigBytes } from '../../validate/index.js';
import { EXIT_INVALID, EXIT_OK, UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { parseCommandArgs } from '../run.js';

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
      inputs.push({ name, text: await readStdin(io) });
      continue;
    }
    try {
      inputs.push({ name, text: decodeConfigBytes(await readFile(resolve(io.cwd, name))) });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new UsageError(
        code === 'ENOENT' ? `${name}: no such file` : `${name}: cannot read (${code ?? err})`,
      );
    }
  }

  let failed = false;
  for (const { name, text } of inputs) {
    // Text that is not UTF-8 is never rewritten: read as UTF-8 it would be something else.
    const result =
      typeof text === 'string'
        ? formatConfigText(text, name === '-' ? {} : { filename: name })
        : { text: '', changed: false, changes: [], error: { ...text } };
    if (result.error) {
      const at =
        result.error.line !== undefined
          ? `${name}:${result.error.line}:${result.error.column}`
          : name;
      const code = result.error.code ? `${result.error.code}: ` : '';
      io.stderr.write(`${at} error ${code}${result.error.message}\n`);
      failed = true;
      continue;
    }
    if (name === '-') {
      if (values.check) failed ||= result.changed;
      else io.stdout.write(result.text);
      continue;
    }
    if (values.verbose) for (const c of result.changes) io.stderr.write(`${name}: ${c}\n`);
    if (!result.changed) continue;
    if (values.check) {
      io.stdout.write(`${name}: not in canonical form\n`);
      failed = true;
    } else {
      await writeFile(resolve(io.cwd, name), result.text);
      io.stdout.write(`${name}: formatted\n`);
    }
  }
  return failed ? EXIT_INVALID : EXIT_OK;
}

async function readStdin(io: Io): Promise<string | Issue> {
  if (!io.stdin) throw new UsageError('no standard input to read');
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(Buffer.from(chunk));
  return decodeConfigBytes(Buffer.concat(chunks));
}
