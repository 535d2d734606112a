import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { numericTime, sampleRanges } from '../../src/check/rows.js';

describe('sampleRanges', () => {
  test('a short file whole; a long one as head, three slices and tail', () => {
    expect(sampleRanges(0)).toEqual([]);
    expect(sampleRanges(500)).toEqual([[0, 500]]);
    expect(sampleRanges(15_000)).toEqual([
      [0, 10_000],
      [10_000, 15_000],
    ]);
    expect(sampleRanges(100_000)).toEqual([
      [0, 10_000],
      [32_500, 34_500],
      [55_000, 57_000],
      [77_500, 79_500],
      [98_000, 100_000],
    ]);
  });

  test('property: ranges ascend, do not overlap, stay in the file and end at its end', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), (total) => {
        const r = sampleRanges(total);
        expect(r.at(-1)?.[1]).toBe(total);
        expect(r[0]?.[0]).toBe(0);
        for (const [i, [a, b]] of r.entries()) {
          expect(a).toBeLessThan(b);
          if (i > 0) expect(a).toBeGreaterThanOrEqual(r[i - 1]?.[1] ?? 0);
        }
      }),
    );
  });
});

describe('numericTime', () => {
  test('unix units scale; relative units count from the start, or from 1970 without one', () => {
    const start = '2024-05-01T10:00:00Z';
    const ms = Date.parse(start);
    expect([
      numericTime('TIME_FORMAT_ABSOLUTE_UNIX_SECONDS', undefined)?.(1.5),
      numericTime('TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS', undefined)?.(2e6),
      numericTime('TIME_FORMAT_RELATIVE_MINUTES', start)?.(2),
      numericTime('TIME_FORMAT_RELATIVE_MILLISECONDS', undefined)?.(5),
      numericTime('TIME_FORMAT_ABSOLUTE_RFC3339', undefined),
      numericTime(undefined, undefined),
    ]).toEqual([1500, 2, ms + 120_000, 5, undefined, undefined]);
  });
});
