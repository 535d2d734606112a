/**
 * `check --full` on HDF5 reads datasets a slice of rows at a time: whatever the slice size,
 * the findings (counts and first rows) are those of one slice holding every row.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import h5wasm from 'h5wasm/node';
import { afterAll, expect, test } from 'vitest';
import { inspectHdf5 } from '../../src/formats/hdf5/inspect.js';
import { hdf5ValueIssues } from '../../src/formats/hdf5/values.js';
import { readGroupOf } from '../helpers/hdf5.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-h5-slices-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const T0 = 1_735_689_600_000_000_000n;
/** Times that step forward, repeat or step back; values that are NaN, ±inf, or past INT_32. */
const arbRow = fc.record({
  dt: fc.constantFrom(-2n, 0n, 1n, 1n, 1n, 5n),
  speed: fc.oneof(
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
  ),
  count: fc.oneof(
    fc.integer({ min: -100, max: 100 }),
    fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 2 ** 40),
  ),
});

let file = 0;

test('findings are the same whatever the slice size', async () => {
  await h5wasm.ready;
  await fc.assert(
    fc.asyncProperty(
      fc.array(arbRow, { minLength: 1, maxLength: 40 }),
      fc.integer({ min: 1, max: 41 }),
      async (rows, sliceRows) => {
        const path = join(dir, `f${file++}.h5`);
        let t = T0;
        const f = new h5wasm.File(path, 'w');
        f.create_dataset({
          name: 'time',
          data: BigInt64Array.from(rows, (r) => {
            t += r.dt;
            return t;
          }),
        });
        f.create_dataset({ name: 'speed', data: Float64Array.from(rows, (r) => r.speed) });
        f.create_dataset({ name: 'count', data: BigInt64Array.from(rows, (r) => BigInt(r.count)) });
        f.close();
        const group = readGroupOf(await inspectHdf5(path), '/time', [
          ['/speed', '/s', 'CHANNEL_DATA_TYPE_DOUBLE', 'CHANNEL_DATA_TYPE_DOUBLE'],
          ['/count', '/c', 'CHANNEL_DATA_TYPE_INT_32', 'CHANNEL_DATA_TYPE_INT_64'],
        ]);
        const whole = await hdf5ValueIssues(path, [group], { sliceRows: rows.length });
        const sliced = await hdf5ValueIssues(path, [group], { sliceRows });
        expect(sliced).toEqual(whole);
        // The whole read counts what the rows hold.
        const nonFinite = rows.filter((r) => !Number.isFinite(r.speed)).length;
        expect(whole.some((i) => i.code === 'value_not_finite')).toBe(nonFinite > 0);
        const backwards = rows.slice(1).filter((r) => r.dt < 0n).length;
        expect(whole.some((i) => i.code === 'time_decreasing')).toBe(backwards > 0);
        rmSync(path);
      },
    ),
    { numRuns: 25 },
  );
});
