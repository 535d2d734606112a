import type { Issue } from '../model/plain.js';

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

/**
 * A file given on the command line that cannot be read as asked (a folder, a FIFO, an empty
 * file ...): printed as `error <code>: <message>` with its hint; exit code 2 for a file
 * that does not exist, else 1. Raised before any stage reads the file.
 */
export class FileIssueError extends Error {
  readonly code: string;
  readonly issue: Issue;
  constructor(issue: Issue) {
    super(issue.message);
    this.name = 'FileIssueError';
    this.code = issue.code;
    this.issue = issue;
  }
}

/** Interrupted by Ctrl-C (128 + SIGINT), as shells report it. */
export const EXIT_INTERRUPTED = 130;
