import type { Document, Node, Pair, YAMLError, YAMLMap } from 'yaml';
import {
  type Issue,
  issue,
  MAX_CONFIG_BYTES,
  MAX_CONFIG_TEXT,
  parsePointer,
} from '../model/plain.js';
import { yaml } from './_yaml.js';
import { camelCase } from './suggest.js';

/** Alias references allowed per document (guards against "billion laughs"). */
export const MAX_ALIAS_COUNT = 100;

/** A 1-based place in the text, with the 0-based character offset. */
export interface SourcePosition {
  line: number;
  column: number;
  offset: number;
}

/** One YAML document of a config file (a file holds one or more, separated by `---`). */
export interface SourceDocument {
  /** 0-based place of the document in the file. */
  index: number;
  /**
   * The document as plain data (integers as `bigint`, so 64-bit values keep every digit),
   * or `undefined` when it could not be read (see `issues`) or is empty.
   */
  value: unknown;
  /** Problems reading this document's text (syntax, duplicate keys, aliases), with positions. */
  issues: Issue[];
  /** Where the document starts. */
  start: SourcePosition;
  /**
   * The position of the value a JSON pointer names, or of its key with `{ key: true }`.
   * Keys are matched as written or by their camelCase form (`first_data_row` answers
   * `/csvConfig/firstDataRow`). A pointer past what exists gives the deepest node found.
   */
  locate(pointer: string, options?: { key?: boolean }): SourcePosition;
}

export interface ParsedSource {
  documents: SourceDocument[];
  /** Turns a character offset into a 1-based line and column. */
  position(offset: number): SourcePosition;
}

export interface ParseSourceOptions {
  /** The file name: `.json` files are read as strict JSON (YAML-only syntax is an error). */
  filename?: string;
}

/**
 * Parses YAML or JSON config text keeping positions: every document with its plain value,
 * its reading issues (line and column set) and a pointer → position lookup. Never throws.
 */
export function parseConfigSource(source: string, options: ParseSourceOptions = {}): ParsedSource {
  let text = source;
  const position = positionsOf(source);
  const whole = (iss: Issue): SourceDocument => ({
    index: 0,
    value: undefined,
    issues: [iss],
    start: { line: 1, column: 1, offset: 0 },
    locate: () => ({ line: 1, column: 1, offset: 0 }),
  });

  if (text.length > MAX_CONFIG_BYTES) {
    const iss = at(
      issue(
        'input_too_large',
        '',
        `The config is ${text.length} characters long; a config file is at most ${MAX_CONFIG_BYTES} (${MAX_CONFIG_TEXT}).`,
      ),
      { line: 1, column: 1 },
    );
    return { documents: [whole(iss)], position: () => ({ line: 1, column: 1, offset: 0 }) };
  }

  // The YAML reader recurses on flow nesting; refuse runaway nesting before it starts.
  const deep = nestingBeyond(text, MAX_FLOW_NESTING);
  if (deep >= 0) {
    const iss = issue(
      'nesting_too_deep',
      '',
      `Brackets nest more than ${MAX_FLOW_NESTING} levels deep; no config does.`,
    );
    return { documents: [whole(at(iss, position(deep)))], position };
  }

  const json = options.filename?.toLowerCase().endsWith('.json') === true;
  if (json) {
    const jsonIssue = checkJson(text, position);
    if (jsonIssue) return { documents: [whole(jsonIssue)], position };
    // Valid JSON has tabs only as whitespace (never raw inside strings); YAML forbids them
    // as indentation. Same length, so every offset stays where it was.
    text = text.replace(/\t/g, ' ');
  }

  let docs: Document.Parsed[];
  try {
    docs = yaml().parseAllDocuments(text, {
      // The reader's own check compares every key with every other (quadratic): ours is
      // one pass with a set per map (duplicateKeyOffset).
      uniqueKeys: false,
      intAsBigInt: true,
      prettyErrors: false,
      keepSourceTokens: false,
    }) as Document.Parsed[];
    if (!Array.isArray(docs)) docs = [docs];
  } catch (err) {
    // The parser recurses on nesting: a runaway depth ends here instead of crashing.
    const code = err instanceof RangeError ? 'nesting_too_deep' : 'yaml_syntax_error';
    const message =
      code === 'nesting_too_deep'
        ? 'The document nests deeper than the YAML reader can follow.'
        : `The text could not be read: ${err instanceof Error ? err.message : String(err)}`;
    return { documents: [whole(at(issue(code, '', message), position(0)))], position };
  }

  const documents = docs.map((doc, index) => readDocument(doc, index, position));
  return { documents, position };
}

function readDocument(
  doc: Document.Parsed,
  index: number,
  position: (offset: number) => SourcePosition,
): SourceDocument {
  // One issue per kind of reading error: a broken line often cascades into many.
  const issues: Issue[] = [];
  const seen = new Set<string>();
  for (const e of doc.errors) {
    const i = yamlIssue(e, position);
    const key = `${i.code} ${i.message}`;
    if (seen.has(key) || issues.length >= 10) continue;
    seen.add(key);
    issues.push(i);
  }
  const duplicate = duplicateKeyOffset(doc);
  if (duplicate !== undefined) issues.push(at(duplicateKeyIssue(), position(duplicate)));
  const start = position(doc.contents?.range[0] ?? doc.range[0]);
  const locate = (ptr: string, options?: { key?: boolean }) =>
    position(locateOffset(doc, ptr, options?.key === true));
  let value: unknown;
  if (issues.length === 0) {
    try {
      value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (err) {
      const tooMany = err instanceof ReferenceError || /alias/i.test(String(err));
      issues.push(
        at(
          issue(
            tooMany ? 'too_many_aliases' : 'nesting_too_deep',
            '',
            tooMany
              ? `The document expands more than ${MAX_ALIAS_COUNT} alias references.`
              : 'The document nests deeper than the YAML reader can follow.',
          ),
          start,
        ),
      );
    }
  }
  return { index, value, issues, start, locate };
}

function yamlIssue(e: YAMLError, position: (offset: number) => SourcePosition): Issue {
  const pos = position(e.pos[0]);
  if (e.code === 'DUPLICATE_KEY') return at(duplicateKeyIssue(), pos);
  if (e.code === 'RESOURCE_EXHAUSTION') {
    if (/call stack/i.test(e.message)) {
      return at(
        issue('nesting_too_deep', '', 'The document nests deeper than the YAML reader can follow.'),
        pos,
      );
    }
    return at(issue('too_many_aliases', '', firstLine(e.message)), pos);
  }
  if (e.code === 'TAB_AS_INDENT') {
    return at(
      issue(
        'yaml_syntax_error',
        '',
        'A tab indents this line; YAML indents with spaces only.',
        'Replace each tab at the start of the line with spaces (two per level, as `importkit fmt` writes).',
      ),
      pos,
    );
  }
  return at(issue('yaml_syntax_error', '', firstLine(e.message)), pos);
}

function duplicateKeyIssue(): Issue {
  return issue(
    'duplicate_key',
    '',
    'A key appears twice in the same object.',
    'Remove one of them.',
  );
}

/** What makes two scalar keys the same key (as the reader compares them: type and value). */
function keyIdentity(key: unknown): string | undefined {
  if (!yaml().isScalar(key)) return undefined;
  const v = key.value;
  return `${typeof v}:${String(v)}`;
}

/**
 * The offset of the first key that repeats a key of the same map, or undefined. One set
 * per map: linear in the number of keys (the reader's own `uniqueKeys` is quadratic).
 * Merge keys (`<<`) may repeat, as the reader allows.
 */
export function duplicateKeyOffset(doc: Document): number | undefined {
  let found: number | undefined;
  const { visit } = yaml();
  visit(doc, {
    Map(_key, map: YAMLMap) {
      const seen = new Set<string>();
      for (const pair of map.items) {
        const id = keyIdentity(pair.key);
        if (id === undefined || id === 'string:<<') continue;
        if (seen.has(id)) {
          found = (pair.key as Node).range?.[0] ?? 0;
          return visit.BREAK;
        }
        seen.add(id);
      }
      return undefined;
    },
  });
  return found;
}

/** Offset → 1-based line and column (UTF-16 units, as editors count), by binary search. */
export function positionsOf(text: string): (offset: number) => SourcePosition {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset: number) => {
    const o = Math.max(0, Math.min(offset, text.length));
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: o - (starts[lo] ?? 0) + 1, offset: o };
  };
}

/** Bracket nesting a config never reaches (the deepest real config nests about 12). */
export const MAX_FLOW_NESTING = 256;

/**
 * The offset where `[`/`{` nesting first exceeds `limit`, or -1. Skips quoted strings and
 * comments; a cheap guard, not a parser.
 */
function nestingBeyond(text: string, limit: number): number {
  let depth = 0;
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote !== '') {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1] ?? ''))) {
      const nl = text.indexOf('\n', i);
      if (nl < 0) break;
      i = nl;
    } else if (c === '[' || c === '{') {
      depth++;
      if (depth > limit) return i;
    } else if ((c === ']' || c === '}') && depth > 0) depth--;
  }
  return -1;
}

/** Strict JSON for `.json` files: the YAML reader would accept trailing commas and comments. */
function checkJson(text: string, position: (offset: number) => SourcePosition): Issue | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const m = /at position (\d+)/.exec(message);
    const offset = m ? Number(m[1]) : text.length;
    const plain = message.replace(/ in JSON at position \d+.*$/, '').replace(/^JSON\.parse: /, '');
    const comment = jsonComment(text);
    if (comment !== undefined) {
      return at(
        issue(
          'json_syntax_error',
          '',
          'JSON has no comments; this .json file has one.',
          'Delete the comment, or write the config as YAML (a .yaml file), where `#` starts a comment: `csvConfig:  # from the bench rig`.',
        ),
        position(comment),
      );
    }
    return at(
      issue(
        'json_syntax_error',
        '',
        `Invalid JSON: ${plain}.`,
        'A .json file must be strict JSON (no comments, no trailing commas); YAML (a .yaml file) allows both.',
      ),
      position(offset),
    );
  }
}

/** Offset of the first `//` or `/*` comment outside JSON strings, if any. */
function jsonComment(text: string): number | undefined {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) return i;
  }
  return undefined;
}

function firstLine(s: string): string {
  const line = s.split('\n')[0] ?? s;
  return line.endsWith('.') || line.endsWith(':') ? line.replace(/:$/, '.') : `${line}.`;
}

function at(i: Issue, p: { line: number; column: number }): Issue {
  i.line = p.line;
  i.column = p.column;
  return i;
}

const pairIndexes = new WeakMap<YAMLMap, Map<string, Pair>>();

/**
 * A map's pairs by key as written, and by camelCase form where no key is written so
 * (the first pair wins, as a search in order would find): built once per map, so
 * locating every issue of a large map stays linear.
 */
function pairIndex(map: YAMLMap): Map<string, Pair> {
  let index = pairIndexes.get(map);
  if (index) return index;
  const { isScalar } = yaml();
  index = new Map();
  const camel = new Map<string, Pair>();
  for (const p of map.items) {
    if (!isScalar(p.key)) continue;
    const name = String(p.key.value);
    if (!index.has(name)) index.set(name, p);
    const c = camelCase(name);
    if (!camel.has(c)) camel.set(c, p);
  }
  for (const [c, p] of camel) if (!index.has(c)) index.set(c, p);
  pairIndexes.set(map, index);
  return index;
}

/**
 * Walks a JSON pointer through the YAML nodes; returns the offset where an issue about it
 * goes. A pointer that ends on a key whose value is a mapping or a sequence is placed on the
 * key (as editors place it); one that ends on a scalar value, on that value (or on its key
 * when `wantKey`). A member that is not there is placed on the key of the mapping that lacks
 * it.
 */
function locateOffset(doc: Document.Parsed, ptr: string, wantKey: boolean): number {
  const { isAlias, isMap, isPair, isSeq } = yaml();
  const tokens = parsePointer(ptr);
  let node: unknown = doc.contents;
  let offset = (node as Node | null)?.range?.[0] ?? doc.range[0];
  /** Where the current node's own key is (the node itself at the top or in a sequence). */
  let anchor = offset;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    const last = i === tokens.length - 1;
    if (isAlias(node)) node = node.resolve(doc);
    if (isMap(node)) {
      const pair = pairIndex(node).get(token);
      if (!pair || !isPair(pair)) return anchor;
      const key = pair.key as Node;
      const keyOffset = key.range?.[0] ?? offset;
      const value = pair.value as Node | null;
      if (last && (wantKey || isCollection(value))) return keyOffset;
      if (!value?.range) return keyOffset;
      offset = value.range[0];
      anchor = keyOffset;
      node = value;
    } else if (isSeq(node)) {
      const item = node.items[Number(token)] as Node | undefined;
      if (!item?.range) return anchor;
      offset = item.range[0];
      anchor = offset;
      node = item;
    } else {
      return offset;
    }
  }
  return offset;
}

function isCollection(node: unknown): boolean {
  const { isMap, isSeq } = yaml();
  return isMap(node) || isSeq(node);
}

/**
 * A fast reading of JSON text without positions, for the common case of a valid config:
 * `JSON.parse`, but only when it reads exactly what the YAML reader would (no duplicate
 * keys, no integers too long for a double). `undefined` means: take the slow path.
 */
export function fastJsonValue(text: string): unknown {
  const first = text.search(/\S/);
  if (first < 0 || text[first] !== '{' || /[0-9]{16}/.test(text)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return keysInText(text) === keysInValue(value) ? value : undefined;
}

/** Object keys written in JSON text: strings followed by a colon. */
function keysInText(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) !== 34) continue;
    let j = i + 1;
    while (j < text.length) {
      const c = text.charCodeAt(j);
      if (c === 92) j += 2;
      else if (c === 34) break;
      else j++;
    }
    let k = j + 1;
    while (k < text.length && /\s/.test(text[k] as string)) k++;
    if (text[k] === ':') n++;
    i = j;
  }
  return n;
}

function keysInValue(v: unknown): number {
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + keysInValue(x), 0);
  if (typeof v !== 'object' || v === null) return 0;
  let n = 0;
  for (const x of Object.values(v)) n += 1 + keysInValue(x);
  return n;
}
