import type { CodeDoc } from './_types.js';

/** Issue codes of the cli stage. */
export const cliCodes = {
  usage_error: {
    severity: 'error',
    summary:
      'A command was called wrongly: an unknown option, a missing or extra argument, a file that does not exist (exit code 2).',
    fix: 'Read the hint under the message, or `importkit <command> --help`.',
  },
} as const satisfies Record<string, CodeDoc>;
