/**
 * ListDataImports' filter and order: the part of CEL the reference names (comparisons on
 * data_import_id, source_url, status and run_id, joined by `&&` or `||`).
 */
import type { ImportRecord } from './store.js';

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
 * `status in ["A", "B"]` or `status != "X"`. `&&` binds tighter than `||`; no parentheses.
 */
export function parseFilter(filter: string): Test {
  const text = filter.trim();
  if (text === '') return () => true;
  const any = splitTop(text, '||').map((alt) => {
    const all = splitTop(alt, '&&').map(parseComparison);
    return (r: ImportRecord) => all.every((t) => t(r));
  });
  return (r) => any.some((t) => t(r));
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
    else if (c === '[') depth++;
    else if (c === ']') depth--;
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

/** `created_date`, `modified_date`, each optionally ` desc` (default: created_date). */
export function parseOrderBy(orderBy: string): (a: ImportRecord, b: ImportRecord) => number {
  const text = orderBy.trim() || 'created_date';
  const m = /^(created_date|modified_date)(\s+(asc|desc))?$/i.exec(text);
  if (!m)
    throw new FilterError(
      `orderBy '${orderBy}': use created_date or modified_date, optionally with ' desc'`,
    );
  const key = m[1]?.toLowerCase() === 'modified_date' ? 'modifiedDate' : 'createdDate';
  const sign = m[3]?.toLowerCase() === 'desc' ? -1 : 1;
  return (a, b) => {
    const x = a.dataImport[key] ?? '';
    const y = b.dataImport[key] ?? '';
    return sign * (x < y ? -1 : x > y ? 1 : a.seq - b.seq);
  };
}
