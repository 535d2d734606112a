/**
 * The shapes the tools answer with, as zod schemas: the one definition of each, from which
 * the server lists each tool's JSON Schema (`outputSchema`). Lists that can grow with the
 * data (issues, evidence, fields) are answered a page at a time (`Page`), with their total.
 */
import { z } from 'zod';
import type { Issue } from '../model/plain.js';

export const IssueOut = z.object({
  code: z.string().describe('stable issue code: `explain_issue` tells its meaning and fix'),
  severity: z.enum(['error', 'warning', 'info']),
  path: z.string().describe('JSON pointer into the config document'),
  message: z.string(),
  hint: z.string().optional(),
  line: z.number().int().optional().describe('1-based line in the config text'),
  column: z.number().int().optional(),
  source: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('where in the data file: { file, row?, line?, column?, dataset?, offset? }'),
});
export type IssueOut = z.infer<typeof IssueOut>;

/** An issue as the tools answer it: the JSON reporter's fields, and the place in the data. */
export function issueOut(i: Issue): IssueOut {
  const out: IssueOut = { code: i.code, severity: i.severity, path: i.path, message: i.message };
  if (i.hint !== undefined) out.hint = i.hint;
  if (i.line !== undefined) out.line = i.line;
  if (i.column !== undefined) out.column = i.column;
  if (i.source !== undefined) out.source = { ...i.source };
  return out;
}

/** One page of a list: `items` from `offset`, of `total`; `nextOffset` when more follow. */
export function Page<T extends z.ZodType>(item: T) {
  return z.object({
    total: z.number().int(),
    offset: z.number().int(),
    items: z.array(item),
    nextOffset: z.number().int().optional().describe('call again with this offset for more'),
  });
}

export interface Paged<T> {
  total: number;
  offset: number;
  items: T[];
  nextOffset?: number;
}

/** The page arguments every tool with a list takes. */
/** The CSV dialect arguments of the tools that read a CSV (as the CLI's flags). */
export const CSV_ARGS = {
  delimiter: z
    .string()
    .optional()
    .describe("CSV delimiter: ',', ';', 'tab' or '|' (default: detected)"),
  headerRow: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('CSV 1-based header row, 0 for none (default: detected)'),
};

export const PAGE_ARGS = {
  offset: z.number().int().min(0).optional().describe('first item of each list (default 0)'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .optional()
    .describe('items of each list answered at most (default 100)'),
};

export interface PageArgs {
  offset?: number | undefined;
  limit?: number | undefined;
}

const DEFAULT_LIMIT = 100;

/** The page of `list` the arguments ask for. */
export function page<T>(list: readonly T[], args: PageArgs): Paged<T> {
  const offset = args.offset ?? 0;
  const limit = args.limit ?? DEFAULT_LIMIT;
  const items = list.slice(offset, offset + limit);
  const out: Paged<T> = { total: list.length, offset, items };
  if (offset + items.length < list.length) out.nextOffset = offset + items.length;
  return out;
}

/** Counts of issues by severity. */
export const Counts = z.object({
  errors: z.number().int(),
  warnings: z.number().int(),
  infos: z.number().int(),
});

export function counts(issues: readonly Issue[]): z.infer<typeof Counts> {
  const n = (s: string) => issues.filter((i) => i.severity === s).length;
  return { errors: n('error'), warnings: n('warning'), infos: n('info') };
}

/** `2 errors (column_not_in_file, time_unparseable), 1 warning`: a verdict in a line. */
export function countsText(issues: readonly Issue[]): string {
  const c = counts(issues);
  const codes = (s: string) => [
    ...new Set(issues.filter((i) => i.severity === s).map((i) => i.code)),
  ];
  const part = (n: number, word: string, s: string) =>
    n === 0 ? [] : [`${n} ${word}${n === 1 ? '' : 's'} (${codes(s).slice(0, 5).join(', ')})`];
  const parts = [...part(c.errors, 'error', 'error'), ...part(c.warnings, 'warning', 'warning')];
  return parts.length === 0 ? 'no errors or warnings' : parts.join(', ');
}

/**
 * A value cut to a size a client can take: arrays past `items` keep their first `items`
 * and a note of how many were left out, strings past 2,000 characters are cut, and nothing
 * deeper than 8 levels is kept. Profiles' format details (an HDF5 tree, TDMS properties)
 * go through it.
 */
export function bounded(value: unknown, items = 50, depth = 8): unknown {
  if (typeof value === 'string')
    return value.length > 2000 ? `${value.slice(0, 2000)}… (${value.length} characters)` : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth === 0) return '…';
  if (Array.isArray(value)) {
    const kept = value.slice(0, items).map((v) => bounded(v, items, depth - 1));
    if (value.length > items) kept.push(`… ${value.length - items} more`);
    return kept;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries.slice(0, items)) out[k] = bounded(v, items, depth - 1);
  if (entries.length > items) out['…'] = `${entries.length - items} more keys`;
  return out;
}
