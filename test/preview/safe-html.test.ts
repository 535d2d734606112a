/**
 * The preview page's template: every interpolated value is escaped, a value cannot land in
 * a tag outside a quoted attribute value, and the inline elements are refused when their
 * text would close them early.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import {
  attr,
  contentSecurityPolicy,
  html,
  inlineScript,
  inlineStyle,
  jsonScript,
} from '../../src/preview/safe-html.js';

test('property: any text interpolated in content or a quoted attribute stays text', () => {
  const decode = (t: string) =>
    t
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&quot;', '"')
      .replaceAll('&#39;', "'")
      .replaceAll('&amp;', '&');
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom(...'<>"\'&=/ a\u00e9;#x') }), (s) => {
      const out = html`<p title="${s}">${s}</p>`.text;
      const inner = out.slice('<p title="'.length, -'</p>'.length).split('">');
      return (
        inner.length === 2 && inner.every((part) => !/[<>"']/.test(part) && decode(part) === s)
      );
    }),
  );
});

test('safe HTML, numbers, lists and nothing are interpolated as they should be', () => {
  const item = (s: string) => html`<li>${s}</li>`;
  expect(html`<ul>${['a<b', 'c'].map(item)}</ul>${1.5}${undefined}${false}${null}`.text).toBe(
    '<ul><li>a&lt;b</li><li>c</li></ul>1.5',
  );
  expect(html`<li${attr('data-code', 'x"y')}${attr('class', undefined)}>`.text).toBe(
    '<li data-code="x&quot;y">',
  );
});

test('a value inside a tag outside quotes, or an event handler attribute, is refused', () => {
  const x = 'x onload=alert(1)';
  expect(() => html`<p title=${x}>`).toThrow('a value inside a tag must be in a quoted');
  expect(() => html`<p ${x}>`).toThrow('a value inside a tag must be in a quoted');
  expect(() => html`<p title="a" ${x}>`).toThrow('a value inside a tag must be in a quoted');
  expect(() => attr('onclick', 'x')).toThrow("'onclick' is not an attribute the page writes");
  expect(() => attr('a b', 'x')).toThrow("'a b' is not an attribute the page writes");
});

test('inline elements: closed early is refused; JSON cannot close its element; hashes match', () => {
  expect(() => inlineScript('a = "</script>"')).toThrow('would end its element early');
  expect(() => inlineScript('a = "</SCRIPT "')).toThrow('would end its element early');
  expect(() => inlineStyle('a { } </style>')).toThrow('would end its element early');
  expect(() => inlineScript('<!-- x')).toThrow('would end its element early');
  expect(jsonScript('d', { a: '</script><b>' }).text).toBe(
    '<script type="application/json" id="d">{"a":"\\u003c/script>\\u003cb>"}</script>',
  );
  const script = inlineScript('run()\r\n');
  const style = inlineStyle('p { color: red }');
  const hash = (t: string) => `'sha256-${createHash('sha256').update(t).digest('base64')}'`;
  expect(script.element.text).toBe('<script>run()\n</script>');
  expect(contentSecurityPolicy([script, style]).text).toBe(
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src ${hash('run()\n')}; style-src ${hash('p { color: red }')}; base-uri 'none'; form-action 'none'">`.replaceAll(
      "'",
      '&#39;',
    ),
  );
});
