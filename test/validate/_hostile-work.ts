/**
 * The work of `source.test.ts`'s hostile inputs, for the test to time in a Node process of
 * its own (see `test/helpers/doubling-apart.ts`): each case reads a text of size n and
 * asserts the one issue it ends in.
 */
import { strict as assert } from 'node:assert';
import { validateConfigText } from '../../src/validate/index.js';
import type { DoublingCases } from '../helpers/doubling-apart.js';

/** Texts built once per size, outside the timed runs (the warm-up run builds them). */
function cached(build: (n: number) => string): (n: number) => string {
  const made = new Map<number, string>();
  return (n) => made.get(n) ?? made.set(n, build(n)).get(n) ?? '';
}

function endsIn(code: string, build: (n: number) => string) {
  const text = cached(build);
  return (n: number) => {
    const r = validateConfigText(text(n));
    assert.deepEqual(
      r.issues.map((i) => i.code),
      [code],
    );
  };
}

/**
 * An alias bomb of `levels` levels: nine scalars, then each level an anchored list of ten
 * aliases of the one before (10^(levels - 1) values if expanded).
 */
export function aliasBomb(levels: number): string {
  const lines = ['l0: &l0 [x, x, x, x, x, x, x, x, x]'];
  for (let k = 1; k < levels - 1; k++) {
    lines.push(`l${k}: &l${k} [${`*l${k - 1}, `.repeat(9)}*l${k - 1}]`);
  }
  lines.push(`top: [${`*l${levels - 2}, `.repeat(9)}*l${levels - 2}]`);
  return `${lines.join('\n')}\n`;
}

/** A config of one string of n characters: read under the limit, refused over it. */
const oneString = cached((n) => `a: "${'x'.repeat(n)}"\n`);

export const cases: DoublingCases = {
  'deep brackets': { f: endsIn('nesting_too_deep', (n) => `a: ${'['.repeat(n)}`), n: 12_500 },
  'deep flow maps': {
    f: endsIn('nesting_too_deep', (n) => `a: ${'{a: '.repeat(n)}1${'}'.repeat(n)}`),
    n: 625,
  },
  // 4 levels, then 32: an expansion of 10^31 values never ends.
  'alias bomb': { f: endsIn('too_many_aliases', aliasBomb), n: 4, runs: 1 },
  // 2.5 MiB read (an unknown key), then 20 MiB refused: refusing eight times the text
  // costs less than reading it when it is refused before it is read, eight times as much
  // when it is parsed first.
  'too large': {
    f: (n) => {
      const r = validateConfigText(oneString(n));
      assert.equal(r.issues[0]?.code, n > 16 * 1024 * 1024 ? 'input_too_large' : 'unknown_key');
    },
    n: 2.5 * 1024 * 1024,
  },
};
