/**
 * ListDataImports' filter and order: the part of CEL the reference names (comparisons on
 * data_import_id, source_url, status and run_id, joined by `&&` or `||`, grouped with
 * parentheses), and an order of one or more fields as the proto's own example writes it
 * (`created_date desc,modified_date`).
 */
import type { ImportRecord } from './store-state.js';

const FIELDS: Record<string, (r: ImportRecord) => string> = {
  data_import_id: (r) => r.dataImport.dataImportId ?? '',
  source_url: (r) => r.dataImport.sourceUrl ?? '',
  status: (r) => String(r.dataImport.status ?? ''),
  run_id: (r) => r.dataImport.runId ?? '',
};

export class FilterError extends Error {}

type Test = (r: ImportRecord) => boolean;

/**
 * Parses a filter such as `status == "DATA_IMPORT_STATUS_FAILED" && run_id == "r1"`,
 * `status in ["A", "B"]`, `status != "X"` or `(a || b) && c`. `&&` binds tighter than `||`.
 */
export function parseFilter(filter: string): Test {
  const text = filter.trim();
  if (text === '') return () => true;
  return parseOr(text, 0);
}

/** Deeper groups than any filter needs: the parser recurses once per level. */
const MAX_GROUPS = 32;

function parseOr(text: string, depth: number): Test {
  if (depth > MAX_GROUPS) throw new FilterError(`the filter nests more than ${MAX_GROUPS} groups`);
  const any = splitTop(text, '||').map((alt) => {
    const all = splitTop(alt, '&&').map((part) => parseTerm(part, depth));
    return (r: ImportRecord) => all.every((t) => t(r));
  });
  return (r) => any.some((t) => t(r));
}

/** A comparison, or a group in parentheses. */
function parseTerm(part: string, depth: number): Test {
  const text = part.trim();
  if (text.startsWith('(')) {
    if (!text.endsWith(')') || closingOf(text) !== text.length - 1)
      throw new FilterError(`unbalanced parentheses in '${text}'`);
    const inner = text.slice(1, -1).trim();
    if (inner === '') throw new FilterError('empty parentheses in the filter');
    return parseOr(inner, depth + 1);
  }
  return parseComparison(text);
}

/** The index of the parenthesis that closes the one at 0 (quotes skipped), or -1. */
function closingOf(text: string): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

function splitTop(text: string, op: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth--;
    else if (depth === 0 && text.startsWith(op, i)) {
      parts.push(text.slice(start, i));
      start = i + op.length;
      i += op.length - 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

function literal(text: string): string {
  // An escape and a plain character never both match a backslash: linear, no backtracking.
  const m = /^(["'])((?:\\[\s\S]|(?!\1)[^\\])*)\1$/.exec(text.trim());
  if (!m) throw new FilterError(`expected a quoted string, found '${text.trim()}'`);
  return (m[2] ?? '').replace(/\\([\s\S])/g, '$1');
}

function parseComparison(text: string): Test {
  const m = /^([a-z_]+)\s*(==|!=|\bin\b)\s*([\s\S]+)$/.exec(text.trim());
  if (!m) throw new FilterError(`cannot read '${text.trim()}': expected FIELD == "value"`);
  const [, name = '', op, rhs = ''] = m;
  const get = Object.hasOwn(FIELDS, name) ? FIELDS[name] : undefined;
  if (!get) {
    throw new FilterError(`unknown field '${name}' (data_import_id, source_url, status, run_id)`);
  }
  if (op === 'in') {
    const list = /^\[([\s\S]*)\]$/.exec(rhs);
    if (!list) throw new FilterError(`'in' needs a list: ${name} in ["a", "b"]`);
    const values = (list[1] ?? '').trim() === '' ? [] : splitTop(list[1] ?? '', ',').map(literal);
    return (r) => values.includes(get(r));
  }
  const value = literal(rhs);
  return op === '==' ? (r) => get(r) === value : (r) => get(r) !== value;
}

/**
 * One or more of `created_date`, `modified_date`, comma-separated, each optionally followed
 * by ` desc` (or ` asc`); the default is created_date ascending, and creation order breaks ties.
 */
export function parseOrderBy(orderBy: string): (a: ImportRecord, b: ImportRecord) => number {
  const text = orderBy.trim() || 'created_date';
  const keys = text.split(',').map((part) => {
    const m = /^(created_date|modified_date)(\s+(asc|desc))?$/i.exec(part.trim());
    if (!m)
      throw new FilterError(
        `orderBy '${orderBy}': use created_date or modified_date, each optionally with ' desc', comma-separated`,
      );
    const key = m[1]?.toLowerCase() === 'modified_date' ? 'modifiedDate' : 'createdDate';
    return { key, sign: m[3]?.toLowerCase() === 'desc' ? -1 : 1 } as const;
  });
  return (a, b) => {
    for (const { key, sign } of keys) {
      const x = a.dataImport[key] ?? '';
      const y = b.dataImport[key] ?? '';
      if (x !== y) return sign * (x < y ? -1 : 1);
    }
    return a.seq - b.seq;
  };
}
