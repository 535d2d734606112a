import type { Severity } from './codes/_types.js';
import type { IssueCode } from './codes/index.js';

// Severity is declared beside the code registry (which gives each code one) and is part of
// an issue's shape: the registry never imports this file, so the two are not a cycle.
export type { Severity };

/** A place in a data file that an issue is about (used by inspection and checks). */
export interface IssueSource {
  file: string;
  row?: number;
  line?: number;
  column?: number | string;
  dataset?: string;
  offset?: number;
}

/**
 * One finding about a config document or a data file. Errors are data: every stage
 * (validate, inspect, infer, check, CLI) reports through this one shape.
 */
export interface Issue {
  code: IssueCode;
  severity: Severity;
  /** JSON pointer into the document ('' is the whole document). */
  path: string;
  message: string;
  hint?: string;
  /** 1-based position in the YAML/JSON source, when the input was text. */
  line?: number;
  column?: number;
  /** The file the issue was found in (config file for validation, data file for checks). */
  file?: string;
  source?: IssueSource;
}

export function hasErrors(issues: readonly Issue[]): boolean {
  return issues.some((i) => i.severity === 'error');
}

/** Escapes one JSON pointer token (RFC 6901). */
export function escapePointerToken(token: string | number): string {
  const text = String(token);
  // Most tokens need no escape: two searches cost less than two replacements (which made
  // this 5% of a lint of many configs).
  if (!text.includes('~') && !text.includes('/')) return text;
  return text.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Builds a JSON pointer from tokens: pointer('csvConfig', 'dataColumns', '2') → '/csvConfig/dataColumns/2'. */
export function pointer(...tokens: ReadonlyArray<string | number>): string {
  return pointerOf(tokens);
}

/** `pointer` of a list of tokens (a path walked so far), without spreading it into a call. */
export function pointerOf(tokens: ReadonlyArray<string | number>): string {
  return tokens.map((t) => `/${escapePointerToken(t)}`).join('');
}

/** Splits a JSON pointer into its unescaped tokens. */
export function parsePointer(ptr: string): string[] {
  if (ptr === '') return [];
  return ptr
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}
