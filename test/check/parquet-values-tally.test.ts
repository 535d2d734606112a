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

/**
 * Times as most files hold them: runs that go up by steps of any size (across a high half
 * too), broken now and then by a repeat or a step back.
 */
const arbRising = fc
  .tuple(
    arbTime,
    fc.array(
      fc.oneof(
        { weight: 8, arbitrary: fc.bigInt({ min: 1n, max: 2n ** 33n }) },
        { weight: 1, arbitrary: fc.constant(0n) },
        { weight: 1, arbitrary: fc.bigInt({ min: -(2n ** 33n), max: -1n }) },
      ),
      { maxLength: 60 },
    ),
  )
  .map(([first, steps]) => {
    const out = [first];
    for (const step of steps) out.push(BigInt.asIntN(64, (out.at(-1) as bigint) + step));
    return out;
  });

test('64-bit times: halves and bigints tally the same, whatever the pieces and nulls', () => {
  fc.assert(
    fc.property(
      fc
        .oneof(fc.array(arbTime, { maxLength: 60 }), arbRising)
        .chain((times) =>
          fc.tuple(
            fc.constant(times),
            fc.array(
              fc.integer({ min: 0, max: 5 }).map((x) => x === 0),
              {
                minLength: times.length,
                maxLength: times.length,
              },
            ),
          ),
        )
        .map(([times, nulls]) => times.map((t, i) => ({ t, isNull: nulls[i] as boolean }))),
      fc.array(fc.nat(), { maxLength: 4 }),
      (rows, cuts) => {
        const at = [...new Set(cuts.map((c) => c % (rows.length + 1)))].sort((a, b) => a - b);
        const bounds = [0, ...at, rows.length];
        const pieces = bounds.slice(1).map((end, k) => rows.slice(bounds[k], end));
        // A piece without nulls comes without `has`, as a reader gives it.
        const hasOf = (p: typeof rows) =>
          p.some((r) => r.isNull) ? { has: (i: number) => !p[i]?.isNull } : {};
        const fast = timeTallyOf(
          pieces.map((p) => ({ values: BigInt64Array.from(p.map((r) => r.t)), ...hasOf(p) })),
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
