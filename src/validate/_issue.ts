import { CODES, type Issue, type IssueCode } from '../model/plain.js';

/** Makes an issue with the severity its code is registered with. */
export function issue(code: IssueCode, path: string, message: string, hint?: string): Issue {
  const out: Issue = { code, severity: CODES[code].severity, path, message };
  if (hint !== undefined) out.hint = hint;
  return out;
}

/** A value as it appears in a message: strings quoted, others as JSON. */
export function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint') return value.toString();
  if (value === undefined) return 'nothing';
  const s = JSON.stringify(value);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

/** What kind of value this is, for "expected X, got Y" messages. */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'object':
      return 'an object';
    case 'string':
      return 'text';
    case 'number':
    case 'bigint':
      return 'a number';
    case 'boolean':
      return 'true/false';
    default:
      return typeof value;
  }
}
