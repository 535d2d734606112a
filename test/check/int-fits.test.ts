import fc from 'fast-check';
import { expect, test } from 'vitest';
import { compareDigits, type IntRange, intFits } from '../../src/formats/csv/check-cells.js';

const bytes = (s: string) => new TextEncoder().encode(s);

const LIMITS: Record<IntRange, [bigint, bigint]> = {
  INT_32: [-(2n ** 31n), 2n ** 31n - 1n],
  UINT_32: [0n, 2n ** 32n - 1n],
  INT_64: [-(2n ** 63n), 2n ** 63n - 1n],
  UINT_64: [0n, 2n ** 64n - 1n],
};

/** Integers anywhere up to 22 digits, and many next to the limits, where the answer turns. */
const integers = fc.oneof(
  fc.bigInt({ min: -(10n ** 22n), max: 10n ** 22n }),
  fc
    .tuple(
      fc.constantFrom(...Object.values(LIMITS).flat(), 10n ** 15n, 10n ** 19n),
      fc.integer({ min: -3, max: 3 }),
    )
    .map(([l, d]) => l + BigInt(d)),
);

test('property: intFits answers as the BigInt comparison with the range does', () => {
  fc.assert(
    fc.property(
      integers,
      fc.boolean(),
      fc.stringMatching(/^0{0,3}$/),
      fc.constantFrom<IntRange>('INT_32', 'UINT_32', 'INT_64', 'UINT_64'),
      (n, plus, zeros, range) => {
        const sign = n < 0n ? '-' : plus ? '+' : '';
        const text = `${sign}${zeros}${n < 0n ? -n : n}`;
        const [min, max] = LIMITS[range];
        const b = bytes(text);
        expect(intFits(b, 0, b.length, range), `${text} ${range}`).toBe(n >= min && n <= max);
      },
    ),
    { numRuns: 3000 },
  );
});

test('intFits: minus zero, zero-padded, is zero', () => {
  for (const text of ['-0', '-0000000000000000000000', '+00000000000000000000'])
    expect(intFits(bytes(text), 0, text.length, 'UINT_64'), text).toBe(true);
});

test('property: compareDigits orders digit strings as their values, and equal is 0, not -0', () => {
  fc.assert(
    fc.property(
      fc.bigInt({ min: 0n, max: 10n ** 21n }),
      fc.bigInt({ min: 0n, max: 10n ** 21n }),
      (x, y) => {
        const a = bytes(x.toString());
        const b = bytes(y.toString());
        const c = compareDigits(a, 0, a.length, b);
        expect(Object.is(c, x < y ? -1 : x > y ? 1 : 0)).toBe(true);
        expect(Object.is(compareDigits(a, 0, a.length, a), 0)).toBe(true);
      },
    ),
  );
});
