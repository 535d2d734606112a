import type { CodeDoc } from './_types.js';

/** Issue codes of the MCP server (`importkit mcp`): the errors its tools answer with. */
export const mcpCodes = {
  path_outside_roots: {
    severity: 'error',
    summary:
      'A path given to a tool leads outside the folders the server may read (its --root folders and its --out folder), once `..` and symbolic links are resolved.',
    fix: 'Give a path inside one of the roots the server lists (`importkit mcp --root DIR` adds one).',
  },
  output_name_invalid: {
    severity: 'error',
    summary:
      'An output name given to a tool is not a plain file name inside the output folder (it is absolute, holds a `/`, `..` or a control character, or names a folder).',
    fix: 'Give a plain file name such as `run-7.preview.html`; the server writes it into its --out folder.',
  },
  tool_argument_invalid: {
    severity: 'error',
    summary:
      'A tool was called with arguments that do not fit its input schema or each other (a missing config, both `config` and `configPath`, an option for another format).',
    fix: 'Read the hint, and the tool’s input schema (tools/list).',
  },
  tool_limit_exceeded: {
    severity: 'error',
    summary:
      'A tool call ran past the server’s time limit (--timeout) or memory limit and was stopped; nothing was written.',
    fix: 'Read less (leave out `full`), narrow the input, or start the server with a longer --timeout.',
  },
  submit_not_configured: {
    severity: 'error',
    summary:
      'The submit and status tools need the service’s address and key: IMPORTKIT_BASE_URL and IMPORTKIT_API_KEY are not both set in the server’s environment.',
    fix: 'Set both in the MCP client’s `env` for the server (for local work, the two lines `importkit serve` prints).',
  },
  tool_failed: {
    severity: 'error',
    summary: 'A tool failed in a way importkit does not expect; the server goes on.',
    fix: 'Retry; if it fails again, report the message with the arguments that caused it.',
  },
} as const satisfies Record<string, CodeDoc>;
