/** A mistake in how a command was called: printed as one line, exit code 2. */
export class UsageError extends Error {
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
