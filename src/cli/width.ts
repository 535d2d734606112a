/**
 * How wide text is on a terminal, in cells, for tables that line up: a CJK character or an
 * emoji takes two cells, a combining mark none. The East Asian Width of a character comes
 * from `get-east-asian-width` (the Unicode table, kept up to date there); characters are
 * grouped into what a terminal draws as one (Intl.Segmenter's graphemes).
 */
import { eastAsianWidth } from 'get-east-asian-width';

const graphemes = new Intl.Segmenter();

/** The cells one grapheme takes. */
function graphemeWidth(g: string): number {
  if (/^[\p{Mn}\p{Me}\p{Cf}\p{Cc}]+$/u.test(g)) return 0;
  if (/\p{Regional_Indicator}{2}/u.test(g)) return 2;
  if (/\p{Extended_Pictographic}/u.test(g) && /\uFE0F|\p{Emoji_Presentation}/u.test(g)) return 2;
  return eastAsianWidth(g.codePointAt(0) ?? 0, { ambiguousAsWide: false });
}

/** Printable ASCII: one cell per character, no grapheme to find (most names, and fast). */
const ASCII = /^[\x20-\x7e]*$/;

/** The cells `text` takes on a terminal. */
export function displayWidth(text: string): number {
  if (ASCII.test(text)) return text.length;
  let width = 0;
  for (const { segment } of graphemes.segment(text)) width += graphemeWidth(segment);
  return width;
}

/** `text` padded with spaces to `width` cells (text as wide or wider is left as it is). */
export function padCells(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

/**
 * `text` in lines of at most `width` cells: broken after a space, comma or slash when one
 * falls in the line's second half, else between two graphemes. Nothing is dropped.
 */
export function wrapCells(text: string, width: number): string[] {
  if (text.length <= width && ASCII.test(text)) return [text];
  const lines: string[] = [];
  let line: string[] = [];
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const w = graphemeWidth(segment);
    if (used + w > width && line.length > 0) {
      const at = breakAt(line);
      lines.push(line.slice(0, at).join('').trimEnd());
      line = line.slice(at);
      while (line[0] === ' ') line.shift();
      used = displayWidth(line.join(''));
    }
    line.push(segment);
    used += w;
  }
  lines.push(line.join(''));
  return lines;
}

/** Where to break a full line: after its last space, comma or slash in the second half. */
function breakAt(line: readonly string[]): number {
  for (let i = line.length - 1; i >= Math.ceil(line.length / 2); i--) {
    if (/^[ ,/]$/.test(line[i - 1] ?? '')) return i;
  }
  return line.length;
}
