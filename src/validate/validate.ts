import type { ImportDocument } from '../model/index.js';
import { addedConfigKind, hasErrors, type Issue, issue } from '../model/plain.js';
import { fastYamlValue } from './_fast-yaml.js';
import { normalizeDocument } from './normalize.js';
import { runRules } from './rules/index.js';
import { checkShape } from './shape.js';
import { fastJsonValue, parseConfigSource, type SourcePosition } from './source.js';

/**
 * What validating one config document came to: `ok: true` (no issue of severity `error`)
 * narrows `value` to the canonical document.
 */
export type ValidationResult = ValidResult | InvalidResult;

/** A document with no error (warnings and info may remain in `issues`). */
export interface ValidResult {
  ok: true;
  /**
   * The canonical document: camelCase keys in the model's order, full enum names, 64-bit
   * integers as decimal strings.
   */
  value: ImportDocument;
  issues: Issue[];
}

/** A document with at least one error. */
export interface InvalidResult {
  ok: false;
  /**
   * The best reading of the input, with unknown keys kept: set whenever the input was an
   * object, so that a formatter can rewrite what it can.
   */
  value?: ImportDocument;
  issues: Issue[];
}

/** What a document of a config text came to (`ok`: no error; `value` when it was an object). */
export interface DocumentOutcome {
  ok: boolean;
  value?: ImportDocument;
  issues: Issue[];
}

/** One `---` document of a config file. */
export interface DocumentResult extends DocumentOutcome {
  /** 0-based place of the document in the file. */
  index: number;
  /** Where the document starts in the text. */
  start: SourcePosition;
}

/**
 * What validating a config text came to. A YAML file may hold several documents
 * (separated by `---`): `issues` lists those of every document (each with its line and
 * column; paths are pointers within its own document), `documents` has each one's own
 * result, `values` each one's canonical value. `value` is set when the file holds exactly
 * one document. `ok` means no document has an error.
 */
export interface TextValidationResult extends DocumentOutcome {
  documents: DocumentResult[];
  values: Array<ImportDocument | undefined>;
}

export interface ValidateTextOptions {
  /** Shown in rendered issues and set as each issue's `file`; `.json` files are read as strict JSON. */
  filename?: string;
}

/** Issues pointing at a key rather than at its value. */
const KEY_CODES: ReadonlySet<string> = new Set([
  'unknown_key',
  'data_column_key_invalid',
  'time_column_is_data_column',
]);

/**
 * The document without the configs of kinds added at run time (`registerConfigKind`: a
 * plug-in format's), which the JSON Schemas do not know, and the issues each added kind's
 * own check finds in its config.
 */
function apartAddedKinds(value: unknown): { shaped: unknown; added: Issue[] } {
  const doc = value as Record<string, unknown>;
  const keys = Object.keys(doc).filter((k) => addedConfigKind(k) !== undefined);
  if (keys.length === 0) return { shaped: value, added: [] };
  const shaped = { ...doc };
  const added: Issue[] = [];
  for (const key of keys) {
    delete shaped[key];
    for (const i of addedConfigKind(key)?.validate?.(doc[key], `/${key}`) ?? []) added.push(i);
  }
  return { shaped, added };
}

/**
 * Validates a config document given as data (parsed JSON or YAML): normalises it
 * (snake_case keys, numbers for 64-bit fields, enum numbers), checks its shape against
 * the JSON Schema (ajv) and runs the semantic rules. Never throws.
 */
export function validateConfig(value: unknown): ValidationResult {
  const issues: Issue[] = [];
  if (value === null || value === undefined) {
    issues.push(
      issue(
        'document_empty',
        '',
        'The document is empty.',
        'Write a config, for example `csvConfig: ...`.',
      ),
    );
    return { ok: false, issues };
  }
  if (typeof value !== 'object' || Array.isArray(value)) {
    issues.push(
      issue(
        'document_not_object',
        '',
        `The document is ${Array.isArray(value) ? 'a list' : 'a plain value'}, not an object with a config key.`,
        'Start the document with the config key, for example `csvConfig:`.',
      ),
    );
    return { ok: false, issues };
  }
  const normal = normalizeDocument(value);
  // Appended one by one: a document can carry one issue per key of a 220k-key map.
  for (const i of normal.issues) issues.push(i);
  // A place the normaliser reported (or one inside it) is not reported again; a set of
  // paths and a walk up each pointer keeps this linear however many issues there are.
  const reported = new Set(normal.issues.map((i) => i.path));
  const within = (path: string): boolean => {
    for (let p = path; ; p = p.slice(0, p.lastIndexOf('/'))) {
      if (reported.has(p)) return true;
      if (p === '') return false;
    }
  };
  const { shaped, added } = apartAddedKinds(normal.value);
  for (const i of checkShape(shaped)) if (!within(i.path)) issues.push(i);
  for (const i of added) issues.push(i);
  for (const i of runRules(normal.value as Record<string, unknown>)) issues.push(i);
  const document = normal.value as ImportDocument;
  return hasErrors(issues)
    ? { ok: false, value: document, issues }
    : { ok: true, value: document, issues };
}

/**
 * Validates config text (YAML, or JSON, which is YAML too; a `.json` filename makes JSON
 * syntax strict). Every issue carries the 1-based line and column of the place it is about
 * (a key for unknown keys, else the value). Never throws: bad syntax, duplicate keys, alias
 * bombs and runaway nesting are issues too.
 */
export function validateConfigText(
  text: string,
  options: ValidateTextOptions = {},
): TextValidationResult {
  // A valid config needs no positions: read plain JSON or plain block YAML quickly,
  // validate the value, and read the text with positions only when there is an issue.
  const json = options.filename?.toLowerCase().endsWith('.json') === true;
  const fast = fastJsonValue(text) ?? (json ? undefined : fastYamlValue(text));
  if (fast !== undefined) {
    const r = validateConfig(fast);
    if (r.issues.length === 0 && r.value !== undefined) {
      const offset = text.search(/\S/);
      const line = text.slice(0, offset).split('\n').length;
      const start = { line, column: offset - text.lastIndexOf('\n', offset - 1), offset };
      const doc: DocumentResult = { index: 0, start, ok: true, issues: [], value: r.value };
      return { ok: true, value: r.value, issues: [], documents: [doc], values: [r.value] };
    }
  }
  const parsed = parseConfigSource(text, options);
  const documents: DocumentResult[] = parsed.documents.map((doc) => {
    let result: DocumentOutcome;
    if (doc.issues.length > 0) result = { ok: !hasErrors(doc.issues), issues: doc.issues };
    else result = validateConfig(doc.value);
    const issues = result.issues.map((i) => {
      const out: Issue = { ...i };
      if (out.line === undefined) {
        const p = doc.locate(out.path, { key: KEY_CODES.has(out.code) });
        out.line = p.line;
        out.column = p.column;
      }
      if (options.filename !== undefined) out.file = options.filename;
      return out;
    });
    issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
    const r: DocumentResult = { index: doc.index, start: doc.start, ok: result.ok, issues };
    if (result.value !== undefined) r.value = result.value;
    return r;
  });
  if (documents.length === 0) {
    const empty = issue(
      'document_empty',
      '',
      'The file holds no config.',
      'Write a config, for example `csvConfig: ...`.',
    );
    empty.line = 1;
    empty.column = 1;
    if (options.filename !== undefined) empty.file = options.filename;
    documents.push({
      index: 0,
      start: { line: 1, column: 1, offset: 0 },
      ok: false,
      issues: [empty],
    });
  }
  const issues = documents.flatMap((d) => d.issues);
  const values = documents.map((d) => d.value);
  const out: TextValidationResult = { ok: !hasErrors(issues), issues, documents, values };
  if (documents.length === 1 && documents[0]?.value !== undefined) out.value = documents[0].value;
  return out;
}

/** Thrown by `assertValidConfig`: the same issues `validateConfig` returns. */
export class ConfigValidationError extends Error {
  /** The code of the first error (`unknown_key`, ...); every issue is in `issues`. */
  readonly code: string;
  readonly issues: Issue[];
  constructor(issues: Issue[]) {
    const errors = issues.filter((i) => i.severity === 'error');
    const first = errors[0];
    super(
      first
        ? `Invalid config: ${first.message}${first.path ? ` (at ${first.path})` : ''}${errors.length > 1 ? ` and ${errors.length - 1} more` : ''}`
        : 'Invalid config',
    );
    this.name = 'ConfigValidationError';
    this.code = first?.code ?? issues[0]?.code ?? 'document_empty';
    this.issues = issues;
  }
}

/** Validates a config document and returns its canonical form, or throws `ConfigValidationError`. */
export function assertValidConfig(value: unknown): ImportDocument {
  const result = validateConfig(value);
  if (!result.ok || result.value === undefined) throw new ConfigValidationError(result.issues);
  return result.value;
}
