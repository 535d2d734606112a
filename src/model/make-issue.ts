import { CODES, type IssueCode } from './codes/index.js';
import type { Issue, IssueSource } from './issue.js';

/** What an issue may carry beyond its code, path and message. */
export interface IssueExtra {
  hint?: string | undefined;
  source?: IssueSource | undefined;
  /** 1-based position in the YAML/JSON source, when the input was text. */
  line?: number | undefined;
  column?: number | undefined;
  file?: string | undefined;
}

/**
 * The one way every stage makes an issue: the severity comes from the code registry
 * (`src/model/codes/`), never from the caller, so a code is reported as documented.
 * `extra` is the hint when it is a string.
 */
export function issue(
  code: IssueCode,
  path: string,
  message: string,
  extra: IssueExtra | string = {},
): Issue {
  const out: Issue = { code, severity: CODES[code].severity, path, message };
  const more = typeof extra === 'string' ? { hint: extra } : extra;
  if (more.hint !== undefined) out.hint = more.hint;
  if (more.line !== undefined) out.line = more.line;
  if (more.column !== undefined) out.column = more.column;
  if (more.file !== undefined) out.file = more.file;
  if (more.source !== undefined) out.source = more.source;
  return out;
}
