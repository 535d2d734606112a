/**
 * The Parquet value scan compares 64-bit times as two 32-bit halves (no bigint per row):
 * on any values, split into any pieces, with any nulls, it tallies exactly what comparing
 * the bigints themselves does.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { timeTallyOf } from '../../src/values/index.js';

/** Times near each other (repeats and steps back) and far apart (the high half differs). */
const arbTime = fc.oneof(
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  fc.bigInt({ min: 1_709_294_400_000_000_000n, max: 1_709_294_400_000_000_040n }),
  fc.constantFrom(0n, -1n, 2n ** 32n - 1n, 2n ** 32n, -(2n ** 32n), 2n ** 63n - 1n, -(2n ** 63n)),
  // Low halves on either side of 2^31, under one high half: compared as signed 32-bit
  // integers, they would order backwards.
  fc.constantFrom(
    2n ** 31n - 1n,
    2n ** 31n,
    2n ** 31n + 1n,
    2n ** 32n + 2n ** 31n - 1n,
    2n ** 32n + 2n ** 31n,
  ),
);

test('64-bit times: halves and bigints tally the same, whatever the pieces and nulls', () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.record({ t: arbTime, isNull: fc.integer({ min: 0, max: 5 }).map((x) => x === 0) }),
        { maxLength: 60 },
      ),
      fc.array(fc.nat(), { maxLength: 4 }),
      (rows, cuts) => {
        const at = [...new Set(cuts.map((c) => c % (rows.length + 1)))].sort((a, b) => a - b);
        const bounds = [0, ...at, rows.length];
        const pieces = bounds.slice(1).map((end, k) => rows.slice(bounds[k], end));
        const fast = timeTallyOf(
          pieces.map((p) => ({
            values: BigInt64Array.from(p.map((r) => r.t)),
            has: (i: number) => !p[i]?.isNull,
          })),
        );
        const plain = timeTallyOf(
          pieces.map((p) => ({
            values: p.map((r) => r.t),
            has: (i: number) => !p[i]?.isNull,
          })),
        );
        expect(fast).toEqual(plain);
      },
    ),
    { numRuns: 300 },
  );
});

test('the tally counts what it should on a known sequence', () => {
  const t = timeTallyOf([
    { values: BigInt64Array.from([5n, 5n, 3n]) },
    { values: BigInt64Array.from([0n, 9n, 9n]), has: (i) => i !== 0 },
  ]);
  expect(t).toEqual({
    decreases: 1,
    firstDecrease: 3,
    repeats: 2,
    firstRepeat: 2,
    nulls: 1,
    firstNull: 4,
    min: 3n,
    max: 9n,
  });
});
