/**
 * The preview page's one way to make HTML: the `html` tagged template escapes every value
 * it interpolates and returns a `SafeHtml`, the only thing it inserts as it is. What a
 * config, a data file or an issue says can reach the page only as escaped text. The
 * page's own scripts and styles enter through `inlineScript`, `inlineStyle` and
 * `jsonScript`, the three audited ways to put text inside a raw-text element, and the
 * page's Content Security Policy (`contentSecurityPolicy`) allows exactly those elements,
 * by hash: an injected script or event handler would not run.
 *
 * Written here rather than taken from a package: escaping five characters and joining
 * strings is a few lines, and the hashes of the inline elements have to be computed where
 * the elements are made anyway.
 */
import { createHash } from 'node:crypto';

const BRAND: unique symbol = Symbol('SafeHtml');

/** HTML made by `html` (or by the audited functions below): inserted as it is. */
export interface SafeHtml {
  readonly [BRAND]: true;
  readonly text: string;
}

/** What `html` may interpolate: text (escaped), numbers, safe HTML, lists of them, nothing. */
export type HtmlValue =
  | SafeHtml
  | string
  | number
  | undefined
  | null
  | false
  | readonly HtmlValue[];

function safe(text: string): SafeHtml {
  return { [BRAND]: true, text };
}

function isSafe(v: unknown): v is SafeHtml {
  return typeof v === 'object' && v !== null && (v as Partial<SafeHtml>)[BRAND] === true;
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text as HTML: safe in element content and in a quoted attribute value. */
function escapeText(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}

function render(v: HtmlValue): string {
  if (v === undefined || v === null || v === false) return '';
  if (typeof v === 'string') return escapeText(v);
  if (typeof v === 'number') return escapeText(String(v));
  if (isSafe(v)) return v.text;
  if (Array.isArray(v)) return v.map(render).join('');
  throw new TypeError('html: cannot interpolate this value');
}

/**
 * The page's template: `html\`<td>${name}</td>\`` escapes `name`. Values go in element
 * content or inside a quoted attribute value; anywhere else in a tag (`a=${x}`, `<p${x}>`)
 * is refused when the template runs, since a space or an equals sign in `x` would make
 * an attribute of its own.
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as HtmlValue;
    if (!isSafe(v) && v !== undefined && outsideQuotesInTag(out)) {
      throw new Error('html: a value inside a tag must be in a quoted attribute value');
    }
    out += render(v) + (strings[i + 1] ?? '');
  }
  return safe(out);
}

/** Whether the end of `out` is inside a tag but not inside a quoted attribute value. */
function outsideQuotesInTag(out: string): boolean {
  const open = out.lastIndexOf('<');
  if (open < 0 || open < out.lastIndexOf('>')) return false;
  const tag = out.slice(open);
  return (tag.match(/"/g)?.length ?? 0) % 2 === 0;
}

/**
 * An attribute written only when it has a value: `<li${attr('data-code', code)}>`. Event
 * handler attributes (`on…`) are refused: the page's policy would block them anyway.
 */
export function attr(name: string, value: string | undefined): SafeHtml | undefined {
  if (!/^[a-z][a-z0-9-]*$/.test(name) || name.startsWith('on')) {
    throw new Error(`html: '${name}' is not an attribute the page writes`);
  }
  return value === undefined ? undefined : safe(` ${name}="${escapeText(value)}"`);
}

/** Joins safe HTML with a separator written in the template language (`html\` · \``). */
export function joinHtml(parts: readonly HtmlValue[], separator: SafeHtml): SafeHtml {
  return safe(parts.map(render).join(separator.text));
}

/** An inline `<script>` or `<style>` element and the hash the policy allows it by. */
export interface InlineElement {
  readonly element: SafeHtml;
  readonly kind: 'script' | 'style';
  readonly hash: string;
}

function inline(kind: 'script' | 'style', body: string): InlineElement {
  // The parser reads a CR LF as LF before the browser hashes the text: hash what it reads.
  const text = body.replace(/\r\n?/g, '\n');
  if (new RegExp(`</${kind}`, 'i').test(text) || text.includes('<!--')) {
    throw new Error(`inline ${kind}: the text would end its element early`);
  }
  const hash = `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
  return { element: safe(`<${kind}>${text}</${kind}>`), kind, hash };
}

/**
 * Raw HTML, audited: a script of our own (the page script, uPlot's bundled build), never
 * data. Refused when it would close its element early.
 */
export function inlineScript(code: string): InlineElement {
  return inline('script', code);
}

/** Raw HTML, audited: a stylesheet of our own, never data. */
export function inlineStyle(css: string): InlineElement {
  return inline('style', css);
}

/**
 * Data for the page script: JSON in a `<script type="application/json">` (never run), with
 * every `<` written as `\u003c` so that no text in it can close the element.
 */
export function jsonScript(id: string, value: unknown): SafeHtml {
  const json = JSON.stringify(value).replace(/</g, '\\u003c');
  return safe(`<script type="application/json" id="${escapeText(id)}">${json}</script>`);
}

/**
 * The page's Content Security Policy, as its first `<meta>`: nothing from the network or
 * disk (`default-src 'none'`, no `connect-src`), scripts and styles only the inline ones
 * given (by hash, so no event handler attribute and no injected element runs), no
 * `<base>`, no form submission.
 */
export function contentSecurityPolicy(elements: readonly InlineElement[]): SafeHtml {
  const of = (kind: 'script' | 'style') =>
    elements
      .filter((e) => e.kind === kind)
      .map((e) => e.hash)
      .join(' ');
  const policy = [
    "default-src 'none'",
    `script-src ${of('script')}`,
    `style-src ${of('style')}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return html`<meta http-equiv="Content-Security-Policy" content="${policy}">`;
}
