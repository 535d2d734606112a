/**
 * A tool's failure is an issue: the code, message and hint a client shows, never a stack
 * trace. Every error a tool meets becomes one (`failureIssue`), so the server answers a
 * tool error and goes on.
 */
import { type Issue, type IssueCode, isIssueCode, issue } from '../model/plain.js';

/** Thrown by a tool to answer with this issue as its error. */
export class ToolFailure extends Error {
  readonly issue: Issue;
  constructor(found: Issue) {
    super(found.message);
    this.name = 'ToolFailure';
    this.issue = found;
  }
}

/** A ToolFailure of a registered code. */
export function fail(code: IssueCode, message: string, hint?: string): ToolFailure {
  return new ToolFailure(issue(code, '', message, hint === undefined ? {} : { hint }));
}

/**
 * The issue an error stands for: a ToolFailure's or an InspectError's own issue, an error
 * carrying a registered code (ClientError, UsageError) as that code, anything else as
 * `tool_failed` with its message.
 */
export function failureIssue(err: unknown): Issue {
  const carried = (err as { issue?: unknown } | null)?.issue;
  if (carried && typeof carried === 'object' && isIssueCode(String((carried as Issue).code)))
    return carried as Issue;
  const message = err instanceof Error ? err.message : String(err);
  const code = (err as { code?: unknown } | null)?.code;
  const hint = (err as { hint?: unknown } | null)?.hint;
  if (typeof code === 'string' && isIssueCode(code))
    return issue(code, '', message, typeof hint === 'string' ? { hint } : {});
  return issue('tool_failed', '', message);
}
