import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import type { Issue } from '../model/plain.js';
import { maxOf } from '../model/plain.js';
import { provideYaml } from '../validate/index.js';
import { type CommandName, commandSummaries, VERSION } from './args.js';
import { CommandError, EXIT_INVALID, EXIT_USAGE, FileIssueError, UsageError } from './errors.js';
import type { Io } from './io.js';
import { issueWithFlags } from './option-flags.js';
import { printable } from './printable.js';

// The YAML reader loads on first need (a valid plain config never needs it), on any Node 20.
provideYaml(() => createRequire(import.meta.url)('yaml') as typeof Yaml);

/** A command: its arguments after the command name → an exit code. */
export type Command = (args: string[], io: Io) => Promise<number>;

/**
 * Commands are loaded when called, so `lint` never loads wasm or the HTTP client. Their
 * names and summaries are in `COMMAND_SUMMARIES` (./args.js), which commands may import.
 */
const COMMANDS: Record<CommandName, () => Promise<Command>> = {
  lint: async () => (await import('./commands/lint.js')).lint,
  schema: async () => (await import('./commands/schema.js')).schema,
  inspect: async () => (await import('./commands/inspect.js')).inspect,
  infer: async () => (await import('./commands/infer.js')).infer,
  check: async () => (await import('./commands/check.js')).check,
  normalize: async () => (await import('./commands/normalize.js')).normalize,
  preview: async () => (await import('./commands/preview.js')).preview,
  fmt: async () => (await import('./commands/fmt.js')).fmt,
  submit: async () => (await import('./commands/submit.js')).submit,
  status: async () => (await import('./commands/status.js')).status,
  serve: async () => (await import('./commands/serve.js')).serve,
  completion: async () => (await import('./commands/completion.js')).completion,
};

function usage(): string {
  const summaries = commandSummaries();
  const width = maxOf(summaries.map(([name]) => name.length));
  const lines = summaries.map(([name, summary]) => `  ${name.padEnd(width)}  ${summary}`);
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
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name as CommandName] : undefined;
  if (!load) {
    io.stderr.write(`importkit: unknown command '${name}'\n\n${usage()}`);
    return EXIT_USAGE;
  }
  try {
    const command = await load();
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
