/**
 * `importkit fmt`: rewrites config documents into canonical form (camelCase names, full
 * enum names, 64-bit integers as decimal strings, keys in the reference's order) while
 * keeping every YAML comment. Works on the yaml `Document` AST in place: keys are renamed,
 * scalars replaced and map items reordered, so comments travel with the keys they sit on.
 * The order of keys is the field order of the zod objects in src/model (the reference's).
 */
import {
  type Document,
  isMap,
  isPair,
  isScalar,
  isSeq,
  type Node,
  type Pair,
  parseAllDocuments,
  Scalar,
  type YAMLMap,
} from 'yaml';
import type { z } from 'zod';
import { ImportDocument } from '../model/document.js';
import { ENUMS } from '../model/enums.js';
import { pointer } from '../model/issue.js';
import { Int64String, Uint64String } from '../model/scalars.js';
import { camelCase, fullEnumName as validatorEnumName } from '../validate/index.js';

export interface FormatResult {
  /** The canonical text (equal to the input when nothing changed). */
  text: string;
  changed: boolean;
  /** What was rewritten, as `pointer: what` lines (for `--verbose` and tests). */
  changes: string[];
  /** Set when the text could not be parsed: nothing was rewritten. */
  error?: { message: string; line?: number; column?: number };
}

/** Formats the text of one config file. JSON stays JSON (2-space indent); YAML stays YAML. */
export function formatConfigText(text: string, options: { filename?: string } = {}): FormatResult {
  const json = isJsonFile(text, options.filename);
  const docs = parseAllDocuments(text, { keepSourceTokens: false });
  if (!Array.isArray(docs)) return { text, changed: false, changes: [] };
  for (const doc of docs) {
    const err = doc.errors[0];
    if (err) {
      const pos = err.linePos?.[0];
      return {
        text,
        changed: false,
        changes: [],
        error: {
          message: err.message.split('\n')[0] ?? err.message,
          ...(pos ? { line: pos.line, column: pos.col } : {}),
        },
      };
    }
  }
  const changes: string[] = [];
  for (const doc of docs) {
    if (doc.contents) canonicalize(doc, doc.contents, ImportDocument, [], text, changes);
  }
  let out: string;
  if (json) {
    out = docs.map((d) => `${JSON.stringify(d.toJS(), null, 2)}\n`).join('');
  } else {
    out = docs.map((d) => d.toString({ lineWidth: 0 })).join('');
  }
  return { text: out, changed: out !== text, changes };
}

function isJsonFile(text: string, filename: string | undefined): boolean {
  if (filename) return /\.json$/i.test(filename);
  return /^\s*[{[]/.test(text);
}

type Schema = z.ZodType;
interface Def {
  type: string;
  innerType?: Schema;
  shape?: Record<string, Schema>;
  element?: Schema;
  valueType?: Schema;
  entries?: Record<string, string>;
  options?: Schema[];
}

function defOf(schema: Schema): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** Strips optional/nullable/default wrappers. */
function unwrap(schema: Schema): Schema {
  let s = schema;
  for (;;) {
    const d = defOf(s);
    if ((d.type === 'optional' || d.type === 'nullable' || d.type === 'default') && d.innerType) {
      s = d.innerType;
    } else return s;
  }
}

/** The enumeration a zod enum is (by its values), for short names and numbers. */
function enumInfoOf(entries: Record<string, string>) {
  const values = Object.values(entries);
  return Object.values(ENUMS).find(
    (e) => e.values.length === values.length && e.values.every((v, i) => v === values[i]),
  );
}

/** The full enum name meant by a short name, a lower-case name or a number; undefined when none. */
export function fullEnumName(entries: Record<string, string>, value: unknown): string | undefined {
  const values = Object.values(entries);
  const info = enumInfoOf(entries);
  if (typeof value === 'number' && info) {
    const i = info.numbers.indexOf(value);
    return i === -1 ? undefined : info.values[i];
  }
  if (typeof value !== 'string' || !info) return undefined;
  // The validator's own reading of short and lower-case names, so fmt and lint agree.
  const full = validatorEnumName(value, info);
  return full !== undefined && values.includes(full) ? full : undefined;
}

function keyName(pair: Pair): string | undefined {
  const k = pair.key;
  if (isScalar(k)) return String(k.value);
  if (typeof k === 'string' || typeof k === 'number') return String(k);
  return undefined;
}

function canonicalize(
  doc: Document,
  node: unknown,
  schema: Schema,
  path: Array<string | number>,
  text: string,
  changes: string[],
): unknown {
  const s = unwrap(schema);
  const d = defOf(s);
  switch (d.type) {
    case 'object':
      if (isMap(node) && d.shape) canonicalizeObject(doc, node, d.shape, path, text, changes);
      return node;
    case 'record':
      if (isMap(node) && d.valueType) {
        for (const pair of node.items) {
          const k = keyName(pair);
          if (k === undefined) continue;
          pair.value = canonicalize(
            doc,
            pair.value,
            d.valueType,
            [...path, k],
            text,
            changes,
          ) as Node;
        }
        sortNumericKeys(node, path, changes);
      }
      return node;
    case 'array':
      if (isSeq(node) && d.element) {
        node.items = node.items.map((item, i) =>
          canonicalize(doc, item, d.element as Schema, [...path, i], text, changes),
        );
      }
      return node;
    case 'enum':
      if (isScalar(node) && d.entries) {
        const full = fullEnumName(d.entries, node.value);
        if (full !== undefined && full !== node.value) {
          changes.push(`${pointer(...path)}: ${String(node.value)} → ${full}`);
          node.value = full;
          node.type = Scalar.PLAIN;
        }
      }
      return node;
    case 'string':
      if ((s === Uint64String || s === Int64String) && isScalar(node)) {
        if (typeof node.value === 'number' || typeof node.value === 'bigint') {
          const src = node.range ? text.slice(node.range[0], node.range[1]).trim() : '';
          const exact = /^[+-]?\d+$/.test(src) ? src.replace(/^\+/, '') : String(node.value);
          changes.push(`${pointer(...path)}: ${exact} written as a string`);
          node.value = exact;
          node.type = Scalar.QUOTE_DOUBLE;
        }
      }
      return node;
    default:
      return node;
  }
}

function canonicalizeObject(
  doc: Document,
  map: YAMLMap,
  shape: Record<string, Schema>,
  path: Array<string | number>,
  text: string,
  changes: string[],
): void {
  const names = Object.keys(shape);
  for (const pair of map.items) {
    if (!isPair(pair)) continue;
    let k = keyName(pair);
    if (k === undefined) continue;
    if (!Object.hasOwn(shape, k)) {
      const camel = camelCase(k);
      if (
        camel !== k &&
        Object.hasOwn(shape, camel) &&
        !map.items.some((p) => keyName(p) === camel)
      ) {
        changes.push(`${pointer(...path, k)}: renamed to ${camel}`);
        if (isScalar(pair.key)) pair.key.value = camel;
        else pair.key = doc.createNode(camel);
        k = camel;
      }
    }
    const field = Object.hasOwn(shape, k) ? shape[k] : undefined;
    if (field)
      pair.value = canonicalize(doc, pair.value, field, [...path, k], text, changes) as Node;
  }
  const rank = (p: Pair) => {
    const k = keyName(p);
    const i = k === undefined ? -1 : names.indexOf(k);
    return i === -1 ? names.length : i;
  };
  reorder(map, rank, path, changes);
}

/** Column numbers (record keys that are all integers) ascending. */
function sortNumericKeys(map: YAMLMap, path: Array<string | number>, changes: string[]): void {
  const keys = map.items.map((p) => keyName(p));
  if (!keys.every((k) => k !== undefined && /^\d+$/.test(k))) return;
  reorder(map, (p) => Number(keyName(p)), path, changes);
}

/**
 * Sorts a map's pairs by rank (stable). A comment above the map's first key belongs to
 * that key: it is moved onto the key so it travels with it.
 */
function reorder(
  map: YAMLMap,
  rank: (p: Pair) => number,
  path: Array<string | number>,
  changes: string[],
): void {
  const before = map.items.slice();
  const sorted = before
    .map((p, i) => ({ p, i, r: rank(p) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.p);
  if (sorted.every((p, i) => p === before[i])) return;
  const first = before[0];
  if (map.commentBefore && first && isScalar(first.key)) {
    first.key.commentBefore = first.key.commentBefore
      ? `${map.commentBefore}\n${first.key.commentBefore}`
      : map.commentBefore;
    map.commentBefore = null;
  }
  map.items = sorted;
  changes.push(`${pointer(...path) || '/'}: keys reordered`);
}
