import { parseCommandArgs, VERSION } from '../args.js';
import { CommandError, EXIT_OK, UsageError } from '../errors.js';
import type { Io } from '../io.js';

const HELP = `Usage: importkit mcp [--root DIR]... [--out DIR] [--allow-submit] [options]

Serves importkit's steps as Model Context Protocol tools on stdin/stdout, for an AI agent's
client to start (e.g. "command": "npx", "args": ["importkit", "mcp"]): inspect, infer, lint,
check, explain_issue, schema, normalize and preview, and with --allow-submit submit and
status. The JSON Schemas, the issue codes and the config pages are resources.
Read-only by default: tools read only under the roots and write only into the output folder.

Options:
      --root <dir>        a folder the tools may read (repeatable; default: the working
                          directory); paths are tested after symbolic links are resolved
      --out <dir>         the folder the tools write into (preview pages, drafts, normalized
                          copies; default: a new temporary folder, made on the first write)
      --allow-submit      also list submit and status, which send data to the platform
                          (IMPORTKIT_BASE_URL and IMPORTKIT_API_KEY from the environment)
      --timeout <s>       time limit of one tool call in seconds (default 600)
      --memory <MiB>      memory limit of one tool call's thread (default 1024)
      --print-skill       print the agents' guide (docs/agents.md) and exit
  -h, --help              show this help

See docs/agents.md for the client configuration and the loop that works.
`;

/** A whole number of at least 1 from a flag, or its default. */
function positive(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`${flag} takes a whole number from 1, not '${value}'`);
  return n;
}

/** `importkit mcp`: the MCP server on stdio, until the client closes stdin. */
export async function mcp(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    root: { type: 'string', multiple: true },
    out: { type: 'string' },
    'allow-submit': { type: 'boolean', default: false },
    timeout: { type: 'string' },
    memory: { type: 'string' },
    'print-skill': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  const timeoutMs = positive(values.timeout, '--timeout', 600) * 1000;
  const memoryMb = positive(values.memory, '--memory', 1024);
  const { serveMcp, skillText } = await import('../../mcp/index.js');
  if (values['print-skill']) {
    const text = skillText();
    if (text === undefined) throw new CommandError('docs/agents.md is not in this installation');
    io.stdout.write(text);
    return EXIT_OK;
  }
  // stdout carries the protocol: anything printed by the way goes to stderr instead.
  for (const name of ['log', 'info', 'debug'] as const)
    console[name] = (...parts: unknown[]) => io.stderr.write(`${parts.map(String).join(' ')}\n`);
  // A failure outside a tool call is written down; the server goes on.
  process.on('uncaughtException', (err) => io.stderr.write(`importkit mcp: ${String(err)}\n`));
  process.on('unhandledRejection', (err) => io.stderr.write(`importkit mcp: ${String(err)}\n`));
  try {
    await serveMcp(
      {
        roots: values.root ?? [],
        out: values.out,
        allowSubmit: values['allow-submit'] === true,
        timeoutMs,
        memoryMb,
        env: io.env,
        cwd: io.cwd,
        version: VERSION,
      },
      { stdin: process.stdin, stdout: process.stdout, log: (line) => io.stderr.write(`${line}\n`) },
    );
  } catch (err) {
    const issue = (err as { issue?: { message: string; hint?: string } }).issue;
    if (issue) throw new UsageError(issue.message, issue.hint);
    throw err;
  }
  return EXIT_OK;
}
