/**
 * A time column of numbers in a typed array without nulls is stepped through its runs of
 * increasing times by a loop of its own (tallyTime): on any times, split into any pieces, it
 * tallies exactly what the loop over a plain array of the same numbers does (decreases,
 * repeats, NaN/±inf, min and max, with their first rows).
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { timeTallyOf } from '../../src/values/index.js';

/** Runs that go up by steps of any size, broken now and then by a repeat, a step back or no number. */
const arbTimes = fc
  .tuple(
    fc.double({ min: -1e6, max: 1e6, noNaN: true }),
    fc.array(
      fc.oneof(
        { weight: 8, arbitrary: fc.double({ min: 1e-3, max: 1e3, noNaN: true }) },
        { weight: 1, arbitrary: fc.constant(0) },
        { weight: 1, arbitrary: fc.double({ min: -1e3, max: -1e-3, noNaN: true }) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            Number.NaN,
            Number.POSITIVE_INFINITY,
            Number.NEGATIVE_INFINITY,
            -0,
          ),
        },
      ),
      { maxLength: 60 },
    ),
  )
  .map(([first, steps]) => {
    const out = [first];
    let at = first;
    for (const step of steps) {
      if (Number.isFinite(step) && !Object.is(step, -0)) {
        at += step;
        out.push(at);
      } else out.push(step);
    }
    return out;
  });

const ARRAYS = {
  Float64Array: (v: number[]) => Float64Array.from(v),
  Float32Array: (v: number[]) => Float32Array.from(v),
  Int32Array: (v: number[]) => Int32Array.from(v.map(Math.round)),
  Uint32Array: (v: number[]) => Uint32Array.from(v.map((x) => Math.abs(Math.round(x)))),
};

test('number times: a typed array and a plain one tally the same, whatever the pieces', () => {
  fc.assert(
    fc.property(
      arbTimes,
      fc.constantFrom(...(Object.keys(ARRAYS) as Array<keyof typeof ARRAYS>)),
      fc.array(fc.nat(), { maxLength: 4 }),
      (times, kind, cuts) => {
        const values = ARRAYS[kind](times);
        const at = [...new Set(cuts.map((c) => c % (values.length + 1)))].sort((a, b) => a - b);
        const bounds = [0, ...at, values.length];
        const pieces = bounds.slice(1).map((end, k) => values.slice(bounds[k], end));
        const typed = timeTallyOf(pieces.map((p) => ({ values: p })));
        const plain = timeTallyOf(pieces.map((p) => ({ values: Array.from(p) })));
        expect(typed).toEqual(plain);
      },
    ),
    { numRuns: 400 },
  );
});

test('an infinite time in a rising run is counted, and the run goes on from the time before it', () => {
  const t = timeTallyOf([
    { values: Float64Array.from([1, 2, Number.POSITIVE_INFINITY, 3]) },
    { values: Float64Array.from([4, Number.NaN, 4]) },
  ]);
  expect(t).toEqual({
    decreases: 0,
    repeats: 1,
    firstRepeat: 7,
    nulls: 0,
    nonFinite: 2,
    firstNonFinite: 3,
    min: 1,
    max: 4,
  });
});
