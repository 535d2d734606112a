/**
 * A CSV check counts the DOUBLE and FLOAT cells that read as NaN or an infinity
 * (`value_not_finite`, a warning: the platform reads them as numbers), per kind, at the first
 * such row, as the other formats do. Every spelling `numKind` takes as a number counts:
 * `nan`, `inf`, `infinity`, any case, signed, quoted. An integer column still calls them no
 * integer. One job and two (ranges small enough to split the rows) agree.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, expect, test } from 'vitest';
import { checkConfig } from '../../src/check/index.js';
import type { ImportDocument } from '../../src/model/index.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-csv-not-finite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const doc = (type: string): ImportDocument =>
  ({
    csvConfig: {
      firstDataRow: 2,
      timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_UNIX_SECONDS' },
      dataColumns: { '2': { name: 'v', dataType: type } },
    },
  }) as ImportDocument;

function written(name: string, cells: readonly string[]): string {
  const path = join(dir, name);
  const rows = cells.map((c, i) => `${1_709_294_400 + i},${c}`);
  writeFileSync(path, `time,v\n${rows.join('\n')}\n`);
  return path;
}

const notFinite = (issues: ReadonlyArray<{ code: string; source?: { row?: number } }>) =>
  issues.filter((i) => i.code === 'value_not_finite');

test('each spelling counts by its kind, at the first such row', async () => {
  const path = written('words.csv', ['1.5', 'nan', '2', 'INF', '"-Infinity"', '+NaN', '-inf']);
  for (const type of ['CHANNEL_DATA_TYPE_DOUBLE', 'CHANNEL_DATA_TYPE_FLOAT']) {
    const issues = await checkConfig(doc(type), path, { full: true });
    expect(notFinite(issues)).toMatchObject([
      {
        severity: 'warning',
        path: '/csvConfig/dataColumns/2',
        message: "column 2 ('v') holds 2 NaN, 1 +inf and 2 -inf; first at row 3 (line 3): 'nan'",
        source: { row: 3, line: 3, column: 2 },
      },
    ]);
    expect(issues.filter((i) => i.severity === 'error')).toEqual([]);
  }
});

test('an integer column calls them values of the wrong type, not NaN', async () => {
  const path = written('int.csv', ['1', 'nan', '2']);
  const issues = await checkConfig(doc('CHANNEL_DATA_TYPE_INT_32'), path, { full: true });
  expect(notFinite(issues)).toEqual([]);
  expect(issues.map((i) => i.code)).toContain('value_type_mismatch');
});

test('words that begin like one are not numbers', async () => {
  const path = written('near.csv', ['1', 'nano', 'infinite', '2']);
  const issues = await checkConfig(doc('CHANNEL_DATA_TYPE_DOUBLE'), path, { full: true });
  expect(notFinite(issues)).toEqual([]);
  expect(issues.find((i) => i.code === 'value_type_mismatch')?.message).toMatch(/^2 values/);
});

const WORDS = ['nan', 'NaN', 'inf', '-inf', '+Infinity', '-INFINITY'] as const;

test('one job and two count the same', async () => {
  let n = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(
        fc.oneof(
          fc.constantFrom(...WORDS),
          fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
        ),
        {
          minLength: 1,
          maxLength: 60,
        },
      ),
      fc.integer({ min: 64, max: 400 }),
      async (cells, rangeBytes) => {
        const path = written(`p${n++}.csv`, cells);
        const d = doc('CHANNEL_DATA_TYPE_DOUBLE');
        const one = notFinite(await checkConfig(d, path, { full: true, jobs: 1 }));
        const two = notFinite(await checkConfig(d, path, { full: true, jobs: 2, rangeBytes }));
        expect(two).toEqual(one);
        const first = cells.findIndex((c) => (WORDS as readonly string[]).includes(c));
        expect(one.map((i) => i.source?.row)).toEqual(first < 0 ? [] : [first + 2]);
      },
    ),
    { numRuns: 25 },
  );
});
