import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import type { Issue } from '../model/plain.js';
import { maxOf } from '../model/plain.js';
import { didYouMean, provideYaml, suggestClosest } from '../validate/index.js';
import { type Command, type CommandName, commandSummaries, VERSION } from './args.js';
import { CommandError, EXIT_INVALID, EXIT_USAGE, FileIssueError, UsageError } from './errors.js';
import type { Io } from './io.js';
import { unknownFlagError } from './mistakes.js';
import { issueWithFlags } from './option-flags.js';
import { printable } from './printable.js';

// The YAML reader loads on first need (a valid plain config never needs it), on any Node 20.
provideYaml(() => createRequire(import.meta.url)('yaml') as typeof Yaml);

export type { Command } from './args.js';

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
  mcp: async () => (await import('./commands/mcp.js')).mcp,
  // Completion bakes every command's flags into its script: it is handed this table.
  completion: async () => (await import('./commands/completion.js')).completionOf(COMMANDS),
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
  if (!load) return unknownCommand(name, io);
  try {
    const command = await load();
    return await command(rest, io);
  } catch (err) {
    return await reportError(err, name, io);
  }
}

/**
 * A word that is no command: an option (`--verison`) gets the nearest of `--help` and
 * `--version`, a misspelt command (`infr`) the nearest command, both as "Did you mean".
 */
function unknownCommand(name: string, io: Io): number {
  if (name.startsWith('-')) {
    const err = unknownFlagError(name, ['help', 'version', 'h', 'v']);
    io.stderr.write(`${printable(`importkit: ${err.message}`)}\n`);
    if (err.hint) io.stderr.write(`  hint: ${err.hint}\n`);
    io.stderr.write("Run 'importkit --help' for usage.\n");
    return EXIT_USAGE;
  }
  const near = suggestClosest(name, Object.keys(COMMANDS));
  io.stderr.write(`importkit: unknown command '${printable(name)}'\n`);
  if (near) io.stderr.write(`  hint: ${didYouMean(near)}\n`);
  io.stderr.write(`\n${usage()}`);
  return EXIT_USAGE;
}

/** The inspect stage, only when its error is in hand (it is loaded then): lint never loads it. */
async function inspectIssue(err: unknown): Promise<Issue | undefined> {
  if (err instanceof FileIssueError) return err.issue;
  if (!(err instanceof Error) || err.name !== 'InspectError') return undefined;
  const { InspectError } = await import('../inspect/index.js');
  return err instanceof InspectError ? err.issue : undefined;
}

async function reportError(err: unknown, name: string, io: Io): Promise<number> {
  // Messages name what the user gave (files, members, columns) and may carry a server's
  // text: every line is printed with its control characters escaped.
  const say = (line: string) => io.stderr.write(`${printable(line)}\n`);
  if (err instanceof UsageError || isParseArgsError(err)) {
    say(`importkit ${name}: ${(err as Error).message}`);
    if (err instanceof UsageError && err.hint) say(`  hint: ${err.hint}`);
    io.stderr.write(`Run 'importkit ${name} --help' for usage.\n`);
    return EXIT_USAGE;
  }
  if (err instanceof CommandError) {
    say(`importkit ${name}: ${err.message}`);
    if (err.hint) say(`  hint: ${err.hint}`);
    return EXIT_INVALID;
  }
  const found = await inspectIssue(err);
  if (found) {
    const inspected = issueWithFlags(found, name);
    say(`importkit ${name}: error ${inspected.code}: ${inspected.message}`);
    if (inspected.hint) say(`  hint: ${inspected.hint}`);
    // A file named on the command line that does not exist is a usage error in every command.
    return inspected.code === 'file_not_found' ? EXIT_USAGE : EXIT_INVALID;
  }
  say(`importkit ${name}: ${err instanceof Error ? err.message : String(err)}`);
  if (io.env.IMPORTKIT_DEBUG && err instanceof Error && err.stack)
    io.stderr.write(`${err.stack}\n`);
  return EXIT_INVALID;
}

function isParseArgsError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}
