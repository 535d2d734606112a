/**
 * The fast reader of plain block YAML either gives up or reads exactly what the `yaml`
 * package reads (core schema, integers as bigint), on generated configs and on random
 * lines built from tricky pieces.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseAllDocuments, stringify } from 'yaml';
import { fastYamlValue } from '../../src/validate/_fast-yaml.js';
import { validateConfigText } from '../../src/validate/index.js';
import { arbDocument } from '../helpers/arbitraries.js';

function full(text: string): { ok: boolean; value?: unknown } {
  const docs = parseAllDocuments(text, { intAsBigInt: true, uniqueKeys: true });
  if (!Array.isArray(docs) || docs.length !== 1) return { ok: false };
  const doc = docs[0];
  if (!doc || doc.errors.length > 0) return { ok: false };
  return { ok: true, value: doc.toJS() };
}

describe('fast YAML reader', () => {
  test('reads generated configs as the yaml package does', () => {
    let read = 0;
    fc.assert(
      fc.property(arbDocument, (doc) => {
        const text = stringify(doc);
        const fast = fastYamlValue(text);
        if (fast === undefined) return;
        read++;
        expect(fast).toEqual(full(text).value);
      }),
      { numRuns: 150 },
    );
    expect(read).toBeGreaterThan(75);
  });

  const keys = ['a', 'b', '"a"', "'b'", '2', '"2"', 'x y', 'null', 'true', '-k', 'c#d', 'e:f'];
  const values = [
    '',
    'v',
    '-1',
    '007',
    '1.5',
    '1e3',
    '.5',
    '+1',
    '0x1f',
    '~',
    'Null',
    'TRUE',
    'yes',
    '"q"',
    "'it''s'",
    '"\\u00e9"',
    '"a\\x41"',
    '"a\\"b"',
    '{}',
    '[]',
    '[a]',
    '{a: 1}',
    '&x a',
    '*x',
    '|',
    '>',
    'a #c',
    'a#c',
    '# c',
    'a: b',
    'a:',
    '!t a',
    ':x',
    '"unterminated',
    "'x' y",
    '12345678901234567890',
  ];
  const line = fc.tuple(
    fc.constantFrom(0, 1, 2, 4),
    fc.oneof(
      fc
        .tuple(fc.constantFrom(...keys), fc.constantFrom(...values))
        .map(([k, v]) => `${k}:${v === '' ? '' : ` ${v}`}`),
      fc.constantFrom(...values).map((v) => `-${v === '' ? '' : ` ${v}`}`),
      fc
        .tuple(fc.constantFrom(...keys), fc.constantFrom(...values))
        .map(([k, v]) => `- ${k}: ${v}`),
      fc.constantFrom('# comment', '', '---', 'plain', '  '),
    ),
  );

  // Lines the fast reader reads, mixed in so that every run has many documents it reads:
  // of the random lines alone, as few as 5 of 3,000 were read in one run, which the test's
  // own floor (more than 5) then failed.
  const plain = fc.tuple(
    fc.constant(0),
    fc
      .tuple(
        fc.constantFrom('a', 'b', 'x y', 'k2'),
        fc.constantFrom('v', '-1', '1.5', '"q"', 'TRUE'),
      )
      .map(([k, v]) => `${k}: ${v}`),
  );

  test('random lines: whenever it reads, it reads what the yaml package reads', () => {
    let read = 0;
    const lines = fc.oneof(
      { weight: 3, arbitrary: fc.array(line, { minLength: 1, maxLength: 8 }) },
      { weight: 1, arbitrary: fc.array(fc.oneof(plain, line), { minLength: 1, maxLength: 4 }) },
    );
    fc.assert(
      fc.property(lines, (ls) => {
        const text = `${ls.map(([n, t]) => ' '.repeat(n) + t).join('\n')}\n`;
        const fast = fastYamlValue(text);
        if (fast === undefined) return;
        read++;
        const f = full(text);
        expect(f.ok).toBe(true);
        expect(fast).toEqual(f.value);
      }),
      { numRuns: 3000 },
    );
    // About 200 in every run measured (183 to 211 of 3,000).
    expect(read).toBeGreaterThan(100);
  });

  type Tree = { [k: string]: Tree | string } | Array<Tree | string>;
  const tree: fc.Arbitrary<Tree> = fc.letrec<{ t: Tree; v: Tree | string }>((tie) => ({
    v: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...values) },
      { weight: 1, arbitrary: tie('t') },
    ),
    t: fc.oneof(
      fc
        .array(fc.tuple(fc.constantFrom(...keys), tie('v')), { maxLength: 4 })
        .map((es) => Object.fromEntries(es)),
      fc.array(tie('v'), { maxLength: 3 }),
    ),
  })).t;

  /** Renders a tree as block YAML with raw (unquoted, possibly tricky) scalars. */
  function render(t: Tree | string, indent: number, compact = false): string[] {
    const pad = ' '.repeat(indent);
    if (typeof t === 'string') return [t];
    const out: string[] = [];
    if (Array.isArray(t)) {
      for (const v of t) {
        if (typeof v === 'string') out.push(`${pad}-${v === '' ? '' : ` ${v}`}`);
        else {
          const inner = render(v, indent + 2, true);
          if (inner.length === 0) out.push(`${pad}- ${Array.isArray(v) ? '[]' : '{}'}`);
          else out.push(`${pad}- ${(inner[0] as string).trimStart()}`, ...inner.slice(1));
        }
      }
      return out;
    }
    for (const [k, v] of Object.entries(t)) {
      if (typeof v === 'string') out.push(`${pad}${k}:${v === '' ? '' : ` ${v}`}`);
      else {
        const inner = render(v, indent + 2);
        if (inner.length === 0) out.push(`${pad}${k}: ${Array.isArray(v) ? '[]' : '{}'}`);
        else out.push(`${pad}${k}:`, ...inner);
      }
    }
    return compact ? out : out;
  }

  test('random trees of tricky scalars: whenever it reads, it reads what the yaml package reads', () => {
    let read = 0;
    fc.assert(
      fc.property(tree, (t) => {
        if (Array.isArray(t)) return;
        const text = `${render(t, 0).join('\n')}\n`;
        const fast = fastYamlValue(text);
        if (fast === undefined) return;
        read++;
        const f = full(text);
        expect(f.ok).toBe(true);
        expect(fast).toEqual(f.value);
      }),
      { numRuns: 3000 },
    );
    expect(read).toBeGreaterThan(100);
  });

  test('a .json name is never read as YAML', () => {
    const r = validateConfigText('ch10Config:\n  scaleValues: true\n', { filename: 'a.json' });
    expect(r.issues.map((i) => i.code)).toEqual(['json_syntax_error']);
  });
});
