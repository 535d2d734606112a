import fc from 'fast-check';
import { expect, test } from 'vitest';
import { numberOf } from '../../src/formats/csv/check-cells.js';

const bytes = (s: string) => new TextEncoder().encode(s);

test('property: numberOf reads a decimal cell as Number() does', () => {
  fc.assert(
    fc.property(
      fc.constantFrom('', '-', '+'),
      fc.stringMatching(/^[0-9]{1,12}$/),
      fc.option(fc.stringMatching(/^[0-9]{0,10}$/)),
      (sign, whole, frac) => {
        const text = `${sign}${whole}${frac === null ? '' : `.${frac}`}`;
        const b = bytes(text);
        expect(numberOf(b, 0, b.length)).toBe(Number(text));
      },
    ),
  );
});

test('numberOf: other numbers and non-numbers', () => {
  const read = (t: string) => numberOf(bytes(t), 0, bytes(t).length);
  expect(
    ['1e3', '-2.5E-3', '1234567890123456789', '.5', '5.', 'abc', '1.2.3', '-'].map(read),
  ).toEqual([
    1000,
    -0.0025,
    Number('1234567890123456789'),
    0.5,
    5,
    Number.NaN,
    Number.NaN,
    Number.NaN,
  ]);
});

test('property: numberOf reads an integer of up to 20 digits as Number() does', () => {
  fc.assert(
    fc.property(
      fc.constantFrom('', '-', '+'),
      fc.stringMatching(/^0{0,3}$/),
      fc.oneof(
        fc.bigInt({ min: 0n, max: 10n ** 20n - 1n }),
        // Near the powers of ten and 2^53..2^64, where rounding is decided.
        fc
          .tuple(fc.integer({ min: 15, max: 19 }), fc.integer({ min: -3, max: 3 }))
          .map(([p, d]) => 10n ** BigInt(p) + BigInt(d)),
        fc
          .tuple(fc.integer({ min: 53, max: 64 }), fc.integer({ min: -1025, max: 1025 }))
          .map(([p, d]) => 2n ** BigInt(p) + BigInt(d)),
      ),
      (sign, zeros, n) => {
        const text = `${sign}${zeros}${n}`;
        const b = bytes(text);
        // Object.is: -0 stays -0, as Number('-0') is.
        expect(Object.is(numberOf(b, 0, b.length), Number(text)), text).toBe(true);
      },
    ),
    { numRuns: 2000 },
  );
});
