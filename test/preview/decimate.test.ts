import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { RowBatch } from '../../src/check/index.js';
import { AxisDecimator } from '../../src/preview/decimate.js';

/** A batch of one numeric channel (index 0) on axis 0. */
function batch(times: number[], values: number[], gap = false): RowBatch {
  return {
    axis: 0,
    channels: [0],
    length: times.length,
    times: Float64Array.from(times),
    columns: [Float64Array.from(values)],
    gap,
  };
}

const finite = fc.double({ min: -1e6, max: 1e6, noNaN: true });

describe('AxisDecimator', () => {
  test('keeps every row while they fit, in order', () => {
    const d = new AxisDecimator([0], 100);
    d.add(batch([1, 2, 3], [10, -5, 7]));
    const r = d.result();
    expect(r.x).toEqual([1, 1, 2, 2, 3, 3]);
    expect(r.y.get(0)).toEqual([10, 10, -5, -5, 7, 7]);
  });

  test('a gap breaks the line and buckets never merge across it', () => {
    const d = new AxisDecimator([0], 2);
    d.add(batch([1, 2, 3, 4], [1, 2, 3, 4]));
    d.add(batch([100, 101], [9, 8], true));
    const r = d.result();
    const gapAt = r.x.indexOf(100);
    expect(r.y.get(0)?.[gapAt]).toBeNull();
    expect(r.x.slice(gapAt + 1)).toEqual([100, 101]);
    expect(r.y.get(0)?.slice(gapAt + 1)).toEqual([9, 8]);
  });

  test('empty values and unparseable times are left out', () => {
    const d = new AxisDecimator([0], 10);
    d.add(batch([1, Number.NaN, 3], [Number.NaN, 5, 6]));
    const r = d.result();
    expect(r.x).toEqual([1, 1, 3, 3]);
    expect(r.y.get(0)).toEqual([null, null, 6, 6]);
  });

  test('property: min and max survive, times ascend, size stays bounded', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(finite, { minLength: 1, maxLength: 300 }), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.integer({ min: 4, max: 50 }),
        (slices, target) => {
          const d = new AxisDecimator([0], target);
          let t = 0;
          const all: number[] = [];
          slices.forEach((values, s) => {
            const times = values.map(() => {
              t += 1;
              return t;
            });
            t += 1000;
            all.push(...values);
            d.add(batch(times, values, s > 0));
          });
          const r = d.result();
          const ys = (r.y.get(0) ?? []).filter((v): v is number => v !== null);
          expect(Math.min(...ys)).toBe(Math.min(...all));
          expect(Math.max(...ys)).toBe(Math.max(...all));
          const seen = new Set(all);
          expect(ys.every((v) => seen.has(v))).toBe(true);
          for (let i = 1; i < r.x.length; i++) {
            expect(r.x[i] as number).toBeGreaterThanOrEqual(r.x[i - 1] as number);
          }
          // Two points per bucket, at most `target` buckets per slice boundary kept apart.
          expect(r.x.length).toBeLessThanOrEqual(3 * (target + slices.length));
        },
      ),
    );
  });

  test('property: time that goes backwards is drawn sorted', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(finite, finite), { minLength: 1, maxLength: 200 }), (rows) => {
        const d = new AxisDecimator([0], 16);
        d.add(
          batch(
            rows.map((r) => r[0]),
            rows.map((r) => r[1]),
          ),
        );
        const { x } = d.result();
        expect([...x].sort((a, b) => a - b)).toEqual(x);
      }),
    );
  });
});
