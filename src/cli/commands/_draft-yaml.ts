/**
 * A draft written as YAML without the yaml package, for the plain drafts most files give:
 * block mappings and sequences of mappings or scalars, keys and strings of plain ASCII words
 * (`channel_0`, `m/s`, `TIME_FORMAT_ABSOLUTE_RFC3339`) or column numbers, finite numbers and
 * booleans. The text is exactly what the yaml package writes for the same document
 * (`new Document(value)`, the comment before it, `toString({ lineWidth: 0 })`); anything
 * else (an empty string, a word YAML reads as another type, a non-ASCII or quoted string,
 * null, a list in a list) makes it answer `undefined`, and the yaml package writes it.
 *
 * Why a writer of our own beside the yaml package: loading the package (72 CommonJS files)
 * takes about 45 ms, more than a third of what `node -e 0` takes, and `infer` of a small
 * CSV has to stay within three times that. `test/cli/draft-yaml.test.ts` compares the two
 * writers on generated documents.
 */

/** A key or string written plain: ASCII words, no YAML indicator, no leading digit or sign. */
const PLAIN = /^[A-Za-z_][A-Za-z0-9_./()-]*( [A-Za-z0-9_./()-]+)*$/;
/** Words the YAML core schema (or a YAML 1.1 reader) reads as a boolean or null: left to the package. */
const SPECIAL = /^(true|false|null|yes|no|on|off|y|n)$/i;
/** A column number as a key: the package writes it double-quoted, so that it stays a string. */
const NUMBER_KEY = /^(0|[1-9]\d*)$/;

class NotPlain extends Error {}

const notPlain = (): never => {
  throw new NotPlain();
};

/** The YAML text of `document` after the comment lines of `comment`, or undefined. */
export function plainDraftYaml(document: unknown, comment: readonly string[]): string | undefined {
  if (!isMap(document) || Object.keys(document).length === 0) return undefined;
  if (!comment.every((line) => /^[ -~]+$/.test(line))) return undefined;
  const out = comment.map((line) => `#${line}\n`);
  if (out.length > 0) out.push('\n');
  try {
    mapLines(document, '', out);
  } catch (e) {
    if (e instanceof NotPlain) return undefined;
    throw e;
  }
  return out.join('');
}

function isMap(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function key(k: string): string {
  if (NUMBER_KEY.test(k)) return `"${k}"`;
  return PLAIN.test(k) && !SPECIAL.test(k) ? k : notPlain();
}

function scalar(value: unknown): string {
  if (typeof value === 'string')
    return PLAIN.test(value) && !SPECIAL.test(value) ? value : notPlain();
  if (typeof value === 'number') {
    if (Object.is(value, -0)) return '-0';
    return Number.isFinite(value) ? JSON.stringify(value) : notPlain();
  }
  if (typeof value === 'boolean') return String(value);
  return notPlain();
}

/** The lines of a non-empty mapping, each key at `indent`. */
function mapLines(map: Record<string, unknown>, indent: string, out: string[]): void {
  for (const [k, v] of Object.entries(map)) {
    const head = `${indent}${key(k)}:`;
    if (Array.isArray(v)) {
      if (v.length === 0) out.push(`${head} []\n`);
      else {
        out.push(`${head}\n`);
        seqLines(v, `${indent}  `, out);
      }
    } else if (isMap(v)) {
      if (Object.keys(v).length === 0) out.push(`${head} {}\n`);
      else {
        out.push(`${head}\n`);
        mapLines(v, `${indent}  `, out);
      }
    } else out.push(`${head} ${scalar(v)}\n`);
  }
}

/** The items of a non-empty sequence, each `- ` at `indent`: scalars or non-empty mappings. */
function seqLines(items: unknown[], indent: string, out: string[]): void {
  for (const item of items) {
    if (!isMap(item)) {
      out.push(`${indent}- ${scalar(item)}\n`);
      continue;
    }
    if (Object.keys(item).length === 0) notPlain();
    const lines: string[] = [];
    mapLines(item, `${indent}  `, lines);
    lines[0] = `${indent}- ${(lines[0] as string).slice(indent.length + 2)}`;
    for (const line of lines) out.push(line);
  }
}
