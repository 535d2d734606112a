/**
 * `check --full` on Parquet reads the values: the value findings of each fixture
 * (fixtures/check-parquet, written by `npm run fixtures -- check-parquet` with the findings
 * the generator put in the file) are compared whole, and the default check (footer only)
 * reports none of them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkConfig } from '../../src/check/index.js';
import type { ImportDocument } from '../../src/model/document.js';
import type { Issue } from '../../src/model/issue.js';

const root = join(import.meta.dirname, '..', '..');
const dir = join(root, 'fixtures', 'check-parquet');

const VALUE_CODES = new Set([
  'time_null',
  'time_decreasing',
  'time_repeated',
  'value_not_finite',
  'value_outside_type',
  'enum_value_unknown',
]);

/** The value findings, with the data file named from the repository root. */
function findings(issues: Issue[]): Issue[] {
  return issues
    .filter((i) => VALUE_CODES.has(i.code))
    .map((i) => {
      const out = { ...i };
      if (out.source?.file) out.source = { ...out.source, file: relative(root, out.source.file) };
      return out;
    });
}

describe('Parquet check --full: value findings', () => {
  const cases = readdirSync(dir).filter((f) => f.endsWith('.expected.json'));
  test('the fixtures are there', () => {
    expect(cases.length).toBeGreaterThanOrEqual(3);
  });
  for (const f of cases) {
    const name = f.replace('.expected.json', '');
    test(name, async () => {
      const expected = JSON.parse(readFileSync(join(dir, f), 'utf8')) as {
        document: ImportDocument;
        findings: Issue[];
      };
      const file = join(dir, `${name}.parquet`);
      const full = await checkConfig(expected.document, file, { full: true });
      expect(findings(full)).toEqual(expected.findings);
      const sampled = await checkConfig(expected.document, file, { full: false });
      expect(findings(sampled)).toEqual([]);
    });
  }
});
