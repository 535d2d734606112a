/** A mistake in how a command was called: printed as one line, exit code 2. */
export class UsageError extends Error {
  /** `usage_error` (exit code 2), as every importkit error class exposes its code. */
  readonly code = 'usage_error';
  /** What to do instead (printed as `hint:` under the message). */
  readonly hint: string | undefined;
  constructor(message: string, hint?: string) {
    super(message);
    this.name = 'UsageError';
    this.hint = hint;
  }
}

export const EXIT_OK = 0;
export const EXIT_INVALID = 1;
export const EXIT_USAGE = 2;

/** A command that failed for a reason the user can act on: one line, a hint, exit code 1. */
export class CommandError extends Error {
  /** What to do about it (printed as `hint:` under the message). */
  readonly hint: string | undefined;
  constructor(message: string, hint?: string) {
    super(message);
    this.name = 'CommandError';
    this.hint = hint;
  }
}

/** Interrupted by Ctrl-C (128 + SIGINT), as shells report it. */
export const EXIT_INTERRUPTED = 130;
