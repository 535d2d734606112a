import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import type * as Yaml from 'yaml';
import type { Issue } from '../model/issue.js';
import { provideYaml } from '../validate/index.js';
import { CommandError, EXIT_INVALID, EXIT_USAGE, FileIssueError, UsageError } from './errors.js';
import type { Io } from './io.js';
import { unknownFlagError } from './mistakes.js';
import { issueWithFlags } from './option-flags.js';
import { printable } from './printable.js';

// The YAML reader loads on first need (a valid plain config never needs it), on any Node 20.
provideYaml(() => createRequire(import.meta.url)('yaml') as typeof Yaml);

/** A command: its arguments after the command name → an exit code. */
export type Command = (args: string[], io: Io) => Promise<number>;

interface CommandEntry {
  summary: string;
  load: () => Promise<Command>;
}

/** Commands are loaded when called, so `lint` never loads wasm or the HTTP client. */
const COMMANDS: Record<string, CommandEntry> = {
  lint: {
    summary: 'validate config files (YAML or JSON)',
    load: async () => (await import('./commands/lint.js')).lint,
  },
  schema: {
    summary: 'print the JSON Schema of a config document or kind',
    load: async () => (await import('./commands/schema.js')).schema,
  },
  inspect: {
    summary: 'print what a data file holds (the inspection profile)',
    load: async () => (await import('./commands/inspect.js')).inspect,
  },
  infer: {
    summary: 'infer a draft config from a data file',
    load: async () => (await import('./commands/infer.js')).infer,
  },
  check: {
    summary: 'check a config against the data file it will import',
    load: async () => (await import('./commands/check.js')).check,
  },
  normalize: {
    summary: 'write a copy of a CSV file the platform reads (decimal commas, split times ...)',
    load: async () => (await import('./commands/normalize.js')).normalize,
  },
  preview: {
    summary: 'write an HTML page showing the data as a config reads it',
    load: async () => (await import('./commands/preview.js')).preview,
  },
  fmt: {
    summary: 'rewrite configs in canonical form',
    load: async () => (await import('./commands/fmt.js')).fmt,
  },
  submit: {
    summary: 'create an import and upload its file',
    load: async () => (await import('./commands/submit.js')).submit,
  },
  status: {
    summary: 'show (or wait for) a data import',
    load: async () => (await import('./commands/status.js')).status,
  },
  serve: {
    summary: 'run a local emulator of the platform',
    load: async () => (await import('./commands/serve.js')).serve,
  },
  completion: {
    summary: 'print a shell completion script (bash, zsh, fish)',
    load: async () => (await import('./commands/completion.js')).completion,
  },
};

/** Each command's name and one-line summary, in the order of the help. */
export function commandSummaries(): Array<[string, string]> {
  return Object.entries(COMMANDS).map(([name, c]) => [name, c.summary]);
}

export const VERSION = '0.1.0';

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  const lines = Object.entries(COMMANDS).map(
    ([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`,
  );
  return [
    'Usage: importkit <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Run `importkit <command> --help` for a command’s options.',
    '',
  ].join('\n');
}

/**
 * The command line as a plain function: arguments in, exit code out (0 ok, 1 invalid or
 * failed, 2 usage). Never throws: every error becomes a message on stderr.
 */
export async function run(argv: readonly string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? io.stderr : io.stdout).write(usage());
    return name === undefined ? EXIT_USAGE : 0;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!entry) {
    io.stderr.write(`importkit: unknown command '${name}'\n\n${usage()}`);
    return EXIT_USAGE;
  }
  try {
    const command = await entry.load();
    return await command(rest, io);
  } catch (err) {
    return await reportError(err, name, io);
  }
}

/** The inspect stage, only when its error is in hand (it is loaded then): lint never loads it. */
async function inspectIssue(err: unknown): Promise<Issue | undefined> {
  if (err instanceof FileIssueError) return err.issue;
  if (!(err instanceof Error) || err.name !== 'InspectError') return undefined;
  const { InspectError } = await import('../inspect/index.js');
  return err instanceof InspectError ? err.issue : undefined;
}

async function reportError(err: unknown, name: string, io: Io): Promise<number> {
  if (err instanceof UsageError || isParseArgsError(err)) {
    io.stderr.write(`importkit ${name}: ${(err as Error).message}\n`);
    if (err instanceof UsageError && err.hint) io.stderr.write(`  hint: ${err.hint}\n`);
    io.stderr.write(`Run 'importkit ${name} --help' for usage.\n`);
    return EXIT_USAGE;
  }
  if (err instanceof CommandError) {
    io.stderr.write(`importkit ${name}: ${err.message}\n`);
    if (err.hint) io.stderr.write(`  hint: ${err.hint}\n`);
    return EXIT_INVALID;
  }
  const found = await inspectIssue(err);
  if (found) {
    const inspected = issueWithFlags(found, name);
    const hint = inspected.hint ? `\n  hint: ${inspected.hint}` : '';
    io.stderr.write(`importkit ${name}: error ${inspected.code}: ${inspected.message}${hint}\n`);
    // A file named on the command line that does not exist is a usage error in every command.
    return inspected.code === 'file_not_found' ? EXIT_USAGE : EXIT_INVALID;
  }
  // Messages may carry a server's text: printed with its control characters escaped.
  const message = printable(err instanceof Error ? err.message : String(err));
  io.stderr.write(`importkit ${name}: ${message}\n`);
  if (io.env.IMPORTKIT_DEBUG && err instanceof Error && err.stack)
    io.stderr.write(`${err.stack}\n`);
  return EXIT_INVALID;
}

function isParseArgsError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

/** parseArgs with the project's defaults: strict, positionals allowed. */
export function parseCommandArgs<T extends NonNullable<Parameters<typeof parseArgs>[0]>['options']>(
  args: string[],
  options: T,
): ReturnType<
  typeof parseArgs<{ args: string[]; options: T; strict: true; allowPositionals: true }>
> {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (err) {
    const unknown = /^Unknown option '([^']+)'/.exec((err as Error).message);
    if ((err as { code?: unknown }).code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || !unknown) throw err;
    const known = Object.entries(options ?? {}).flatMap(([long, o]) => {
      const short = (o as { short?: string }).short;
      return short ? [long, short] : [long];
    });
    throw unknownFlagError(unknown[1] as string, known);
  }
}
