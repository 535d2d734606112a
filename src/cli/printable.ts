/**
 * Text from elsewhere (a file or member name, a column name, a server's status or message)
 * made safe to print: control characters (C0, DEL, C1: ESC sequences, OSC titles, CR that
 * overwrites a line, a newline that forges one), bidirectional overrides, embeddings,
 * isolates and marks, and the Unicode line and paragraph separators are written as
 * visible escapes. The one printing helper of the command line: every name printed goes
 * through it once, at the point it is written.
 *
 * Unambiguous: a backslash that would read as the start of an escape (before `\`, `n`,
 * `r`, `t`, `x`, `u` or an escaped character) is written `\\`, so `a\x1b.csv` (a name with
 * a backslash) and `a<ESC>.csv` print differently. Other backslashes (`C:\data`) stay.
 */
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** The characters escaped: C0, DEL, C1, bidi controls (ALM, LRM, RLM, LRE…RLO, LRI…PDI), LS, PS. */
const CLASS =
  '\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';

const UNSAFE = new RegExp(`\\\\(?=[\\\\nrtxu${CLASS}])|[${CLASS}]`, 'g');
const ANY_UNSAFE = new RegExp(`[${CLASS}]`);
/** What JSON.stringify leaves raw of the class: all but C0. */
const UNSAFE_AFTER_C0 = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function hex(c: string, width: number): string {
  return c.charCodeAt(0).toString(16).padStart(width, '0');
}

export function printable(text: string): string {
  return text.replace(UNSAFE, (c) => {
    if (c === '\\') return '\\\\';
    const named = NAMED[c];
    if (named) return named;
    return c.charCodeAt(0) <= 0xff ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`;
  });
}

/** True when `printable` would change something in `text` other than a backslash. */
export function hasUnsafeCharacters(text: string): boolean {
  return ANY_UNSAFE.test(text);
}

/**
 * Serialized text (JSON, or YAML whose strings with such characters are double-quoted)
 * with the characters of the class its serializer left raw written as `\uXXXX`: the same
 * value when read back, nothing raw on a terminal. The serializer escaped C0 already.
 */
export function escapedAfterC0(serialized: string): string {
  return serialized.replace(UNSAFE_AFTER_C0, (c) => `\\u${hex(c, 4)}`);
}

/** `JSON.stringify(value, null, 2)` that prints safely (`escapedAfterC0`): for every JSON output. */
export function printableJson(value: unknown): string {
  return escapedAfterC0(JSON.stringify(value, null, 2));
}
