/**
 * Text from elsewhere (a server's status, message or warning) made safe to print: control
 * characters (C0, DEL, C1: ESC sequences, OSC titles, CR that overwrites a line, a newline
 * that forges one) and bidirectional overrides are written as visible escapes.
 */
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is escaped
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

export function printable(text: string): string {
  return text.replace(UNSAFE, (c) => {
    const named = NAMED[c];
    if (named) return named;
    const code = c.charCodeAt(0);
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, '0')}`
      : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
