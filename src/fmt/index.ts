/**
 * `importkit fmt`: rewrites config documents into canonical form (camelCase names, full
 * enum names, 64-bit integers as decimal strings, keys in the reference's order) while
 * keeping every YAML comment. Works on the yaml `Document` AST in place: keys are renamed,
 * scalars replaced and map items reordered, so comments travel with the keys they sit on.
 * The order of keys is the model's canonical order (`canonicalKeyOrder`: the field order of
 * the zod objects, the reference's), the order `infer` returns its drafts in.
 */
import {
  type Document,
  isAlias,
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
import {
  canonicalKeyOrder,
  childSchema,
  ENUMS,
  ImportDocument,
  Int64String,
  type SchemaDef,
  schemaDef,
  Uint64String,
  unwrapSchema,
} from '../model/index.js';
import { pointerOf } from '../model/plain.js';
import {
  camelCase,
  duplicateKeyOffset,
  fullEnumName,
  MAX_ALIAS_COUNT,
  positionsOf,
} from '../validate/index.js';

export interface FormatResult {
  /** The canonical text (equal to the input when nothing changed). */
  text: string;
  changed: boolean;
  /** What was rewritten, as `pointer: what` lines (for `--verbose` and tests). */
  changes: string[];
  /**
   * Set when the text could not be parsed, or could not be rewritten faithfully: nothing
   * was rewritten. `code` names the reason when it is one of importkit's issue codes.
   */
  error?: { message: string; line?: number; column?: number; code?: string };
}

/**
 * A number as written. Numbers are kept as their text from reading to writing, so that
 * `fmt` never changes a value: not past 2^53 (`9007199254740993`), not past 2^64, not
 * beyond a double (`1e400`), not the sign of `-0`, not the digits of `2.50`.
 */
class ExactNumber {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** Decimal integers and floats of the YAML core schema (hex, octal, .inf, .nan stay the core's). */
const exactNumberTag = {
  identify: (v: unknown) => v instanceof ExactNumber,
  default: true,
  tag: 'tag:yaml.org,2002:float',
  test: /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/,
  resolve: (text: string) => new ExactNumber(text),
  stringify: ({ value }: { value: unknown }) => String(value),
};

const READ_OPTIONS = {
  keepSourceTokens: false,
  // Duplicate keys are found by the validator's one-pass check (the reader's is quadratic).
  uniqueKeys: false,
  customTags: (tags: unknown[]) => [exactNumberTag, ...tags],
} as Parameters<typeof parseAllDocuments>[1];

type FormatError = NonNullable<FormatResult['error']>;

/** The first reading error of the documents (syntax, duplicate key), or undefined. */
function readingError(docs: Document.Parsed[], text: string): FormatError | undefined {
  for (const doc of docs) {
    const err = doc.errors[0];
    if (err) {
      const pos = err.linePos?.[0];
      return {
        message: err.message.split('\n')[0] ?? err.message,
        ...(pos ? { line: pos.line, column: pos.col } : {}),
      };
    }
    const duplicate = duplicateKeyOffset(doc);
    if (duplicate !== undefined) {
      const p = positionsOf(text)(duplicate);
      return {
        code: 'duplicate_key',
        message: 'A key appears twice in the same object.',
        line: p.line,
        column: p.column,
      };
    }
  }
  return undefined;
}

/** Formats the text of one config file. JSON stays JSON (2-space indent); YAML stays YAML. */
export function formatConfigText(text: string, options: { filename?: string } = {}): FormatResult {
  const json = isJsonFile(text, options.filename);
  const docs = parseAllDocuments(text, READ_OPTIONS) as Document.Parsed[];
  if (!Array.isArray(docs)) return { text, changed: false, changes: [] };
  const unread = readingError(docs, text);
  if (unread) return { text, changed: false, changes: [], error: unread };
  const changes: string[] = [];
  for (const doc of docs) {
    if (doc.contents) canonicalize(doc, doc.contents, ImportDocument, [], text, changes);
  }
  let out: string;
  try {
    out = json
      ? docs.map((d) => `${jsonText(d, d.contents, '')}\n`).join('')
      : docs.map((d) => d.toString({ lineWidth: 0 })).join('');
  } catch (err) {
    return { text, changed: false, changes: [], error: refusal(String((err as Error).message)) };
  }
  const unfaithful = out === text ? undefined : checkRewrite(out);
  if (unfaithful) return { text, changed: false, changes: [], error: unfaithful };
  return { text: out, changed: out !== text, changes };
}

/**
 * The rewrite must read back cleanly; when it does not, nothing is written. The one way
 * reordering breaks YAML is an alias moved before its anchor: named with its own code.
 */
function checkRewrite(out: string): FormatError | undefined {
  const docs = parseAllDocuments(out, READ_OPTIONS) as Document.Parsed[];
  const err = Array.isArray(docs) ? docs.flatMap((d) => d.errors)[0] : undefined;
  return err ? refusal(err.message) : undefined;
}

/** Why a rewrite is refused, from the YAML library's message. */
function refusal(message: string): FormatError {
  const why = message.split('\n')[0] ?? message;
  if (/anchor/i.test(why)) {
    return {
      code: 'format_alias_before_anchor',
      message: `Putting the keys in order would move an alias before its anchor (${why}); the file is left as it is.`,
    };
  }
  return { message: `The rewrite would not read back (${why}); the file is left as it is.` };
}

/**
 * JSON text of a document node, 2-space indented like JSON.stringify, numbers as written.
 * Aliases are written out, at most MAX_ALIAS_COUNT of them (an alias bomb is refused).
 */
function jsonText(doc: Document, node: unknown, indent: string, aliases = { n: 0 }): string {
  if (isAlias(node)) {
    if (++aliases.n > MAX_ALIAS_COUNT) {
      throw new Error(`more than ${MAX_ALIAS_COUNT} aliases to write out`);
    }
    return jsonText(doc, node.resolve(doc), indent, aliases);
  }
  const inner = `${indent}  `;
  if (isMap(node)) {
    if (node.items.length === 0) return '{}';
    const items = node.items.map(
      (p) =>
        `${inner}${JSON.stringify(keyName(p) ?? '')}: ${jsonText(doc, p.value, inner, aliases)}`,
    );
    return `{\n${items.join(',\n')}\n${indent}}`;
  }
  if (isSeq(node)) {
    if (node.items.length === 0) return '[]';
    const items = node.items.map((v) => `${inner}${jsonText(doc, v, inner, aliases)}`);
    return `[\n${items.join(',\n')}\n${indent}]`;
  }
  const value = isScalar(node) ? node.value : node;
  if (value instanceof ExactNumber) return value.text;
  return JSON.stringify(value) ?? 'null';
}

function isJsonFile(text: string, filename: string | undefined): boolean {
  if (filename) return /\.json$/i.test(filename);
  return /^\s*[{[]/.test(text);
}

type Schema = z.ZodType;

/** The enumeration a zod enum is (by its values), for short names and numbers. */
function enumInfoOf(entries: Record<string, string>) {
  const values = Object.values(entries);
  return Object.values(ENUMS).find(
    (e) => e.values.length === values.length && e.values.every((v, i) => v === values[i]),
  );
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
  const s = unwrapSchema(schema);
  const d = schemaDef(s);
  switch (d.type) {
    case 'object':
      if (isMap(node) && d.shape) canonicalizeObject(doc, node, d, path, text, changes);
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
        reorder(node, d, path, changes);
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
        const v = node.value instanceof ExactNumber ? Number(node.value.text) : node.value;
        const info = enumInfoOf(d.entries);
        const full = info && fullEnumName(v, info);
        if (full !== undefined && full !== node.value) {
          changes.push(`${pointerOf(path)}: ${String(node.value)} → ${full}`);
          node.value = full;
          node.type = Scalar.PLAIN;
        }
      }
      return node;
    case 'string':
      if ((s === Uint64String || s === Int64String) && isScalar(node)) {
        const v = node.value;
        if (v instanceof ExactNumber || typeof v === 'number' || typeof v === 'bigint') {
          const src = node.range ? text.slice(node.range[0], node.range[1]).trim() : '';
          const exact = /^[+-]?\d+$/.test(src) ? src.replace(/^\+/, '') : String(node.value);
          changes.push(`${pointerOf(path)}: ${exact} written as a string`);
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
  def: SchemaDef,
  path: Array<string | number>,
  text: string,
  changes: string[],
): void {
  const shape = def.shape ?? {};
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
        changes.push(`${pointerOf([...path, k])}: renamed to ${camel}`);
        if (isScalar(pair.key)) pair.key.value = camel;
        else pair.key = doc.createNode(camel);
        k = camel;
      }
    }
    const field = childSchema(def, k);
    if (field)
      pair.value = canonicalize(doc, pair.value, field, [...path, k], text, changes) as Node;
  }
  reorder(map, def, path, changes);
}

/**
 * Puts a map's pairs in the model's canonical key order (`canonicalKeyOrder`, the order
 * `infer` writes its drafts in). A comment above the map's first key belongs to that key:
 * it is moved onto the key so it travels with it.
 */
function reorder(
  map: YAMLMap,
  def: SchemaDef,
  path: Array<string | number>,
  changes: string[],
): void {
  const before = map.items.slice();
  const sorted = canonicalKeyOrder(
    def,
    before.map((p) => keyName(p)),
  ).map((i) => before[i] as Pair);
  if (sorted.every((p, i) => p === before[i])) return;
  const first = before[0];
  if (map.commentBefore && first && isScalar(first.key)) {
    first.key.commentBefore = first.key.commentBefore
      ? `${map.commentBefore}\n${first.key.commentBefore}`
      : map.commentBefore;
    map.commentBefore = null;
  }
  map.items = sorted;
  changes.push(`${pointerOf(path) || '/'}: keys reordered`);
}
