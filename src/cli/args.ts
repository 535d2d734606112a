/**
 * What every command shares and the runner needs too: the version, the commands' names and
 * summaries, and `parseCommandArgs`. Kept apart from `run.ts` so that commands import it
 * without importing the runner that loads them (no import cycle).
 */
import { parseArgs } from 'node:util';
import type { Io } from './io.js';
import { unknownFlagError } from './mistakes.js';

/** A command: its arguments after the command name → an exit code. */
export type Command = (args: string[], io: Io) => Promise<number>;

export const VERSION = '0.1.0';

/** Each command's one-line summary, in the order of the help. */
export const COMMAND_SUMMARIES = {
  lint: 'validate config files (YAML or JSON)',
  schema: 'print the JSON Schema of a config document or kind',
  inspect: 'print what a data file holds (the inspection profile)',
  infer: 'infer a draft config from a data file',
  check: 'check a config against the data file it will import',
  normalize: 'write a copy of a CSV file the platform reads (decimal commas, split times ...)',
  preview: 'write an HTML page showing the data as a config reads it',
  fmt: 'rewrite configs in canonical form',
  submit: 'create an import and upload its file',
  status: 'show (or wait for) a data import',
  serve: 'run a local emulator of the platform',
  mcp: 'serve the steps as MCP tools for an AI agent (stdio)',
  completion: 'print a shell completion script (bash, zsh, fish)',
} as const;

export type CommandName = keyof typeof COMMAND_SUMMARIES;

/** Each command's name and one-line summary, in the order of the help. */
export function commandSummaries(): Array<[string, string]> {
  return Object.entries(COMMAND_SUMMARIES);
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
