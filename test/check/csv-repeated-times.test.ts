/**
 * `check --full` of a CSV counts the rows that repeat the time of the row before
 * (`time_repeated`: the platform keeps one value per channel and time), as it does for the
 * other formats. Nanoseconds since 1970 are past what a double tells apart one by one: two
 * times a nanosecond apart are one double, and are not a repeat; the same time written
 * twice is. Where the repeat falls, one job or several (the repeat where two ranges meet).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, expect, test } from 'vitest';
import { checkConfig } from '../../src/check/index.js';
import type { ImportDocument } from '../../src/model/index.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-csv-repeats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const T0 = 1_709_294_400_000_000_000n; // 2024-03-01T12:00:00Z in ns

const doc = (format: string): ImportDocument =>
  ({
    csvConfig: {
      firstDataRow: 2,
      timeColumn: { columnNumber: 1, format },
      dataColumns: { '2': { name: 'v', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' } },
    },
  }) as ImportDocument;

function written(name: string, times: readonly string[]): string {
  const path = join(dir, name);
  writeFileSync(path, `time,v\n${times.map((t, i) => `${t},${i / 4}`).join('\n')}\n`);
  return path;
}

const repeatsOf = (issues: ReadonlyArray<{ code: string; source?: { row?: number } }>) =>
  issues.filter((i) => i.code === 'time_repeated').map((i) => i.source?.row);

test('nanoseconds one apart are two times; a time written twice repeats', async () => {
  const ns = doc('TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS');
  // One double holds both 1709294400000000000 and ...001: only their text tells them apart.
  expect(Number(T0)).toBe(Number(T0 + 1n));
  const apart = written(
    'apart.csv',
    [0n, 1n, 2n, 3n].map((k) => String(T0 + k)),
  );
  expect(repeatsOf(await checkConfig(ns, apart, { full: true }))).toEqual([]);
  const twice = written(
    'twice.csv',
    [0n, 1n, 1n, 2n].map((k) => String(T0 + k)),
  );
  expect(repeatsOf(await checkConfig(ns, twice, { full: true }))).toEqual([4]);
  // Seconds: a double holds them exactly.
  const s = written('seconds.csv', ['1709294400', '1709294401', '1709294401.0', '1709294402']);
  const issues = await checkConfig(doc('TIME_FORMAT_ABSOLUTE_UNIX_SECONDS'), s, { full: true });
  expect(issues.filter((i) => i.code === 'time_repeated')).toMatchObject([
    {
      severity: 'warning',
      path: '/csvConfig/timeColumn/columnNumber',
      message: "a row repeats the time of the row before; first at row 4 (line 4): '1709294401.0'",
    },
  ]);
  // The sampled check does not count them.
  expect(repeatsOf(await checkConfig(ns, twice))).toEqual([]);
});

test('the same repeats whatever the jobs, wherever the ranges meet', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.constantFrom(0n, 1n, 2n), { minLength: 2, maxLength: 60 }),
      fc.integer({ min: 40, max: 400 }),
      async (steps, rangeBytes) => {
        // Times a step of 0, 1 or 2 ns after the one before.
        let t = T0;
        const times = steps.map((step) => {
          t += step;
          return String(t);
        });
        const path = written('steps.csv', times);
        const expected = steps.flatMap((step, i) => (step === 0n && i > 0 ? [i + 2] : []));
        const ns = doc('TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS');
        const one = await checkConfig(ns, path, { full: true, jobs: 1 });
        const first = repeatsOf(one);
        expect(first).toEqual(expected.length > 0 ? [expected[0]] : []);
        if (expected.length > 0) {
          const n = expected.length;
          const said = n === 1 ? 'a row repeats' : `${n} rows repeat`;
          expect(one.find((i) => i.code === 'time_repeated')?.message).toContain(said);
        }
        const two = await checkConfig(ns, path, { full: true, jobs: 2, rangeBytes });
        expect(two).toEqual(one);
      },
    ),
    { numRuns: 40 },
  );
});
