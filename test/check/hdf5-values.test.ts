/**
 * `check --full` on HDF5 reads the values: the value findings of each fixture
 * (fixtures/check-hdf5, written by `npm run fixtures -- check-hdf5` with the findings the
 * generator put in the file) are compared whole, and the default check (first and last
 * rows only) reports none of them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkConfig } from '../../src/check/index.js';
import type { ImportDocument } from '../../src/model/document.js';
import type { Issue } from '../../src/model/issue.js';
import { repoRoot as root } from '../helpers/paths.js';

const dir = join(root, 'fixtures', 'check-hdf5');

const VALUE_CODES = new Set([
  'time_decreasing',
  'time_repeated',
  'time_not_parseable',
  'time_partly_read',
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

function load(name: string) {
  return JSON.parse(readFileSync(join(dir, `${name}.expected.json`), 'utf8')) as {
    document: ImportDocument;
    findings: Issue[];
  };
}

describe('HDF5 check --full: value findings', () => {
  const cases = readdirSync(dir).filter((f) => f.endsWith('.expected.json'));
  test('the fixtures are there', () => {
    expect(cases.length).toBeGreaterThanOrEqual(3);
  });
  for (const f of cases) {
    const name = f.replace('.expected.json', '');
    test(name, async () => {
      const expected = load(name);
      const file = join(dir, `${name}.h5`);
      const full = await checkConfig(expected.document, file, { full: true });
      expect(findings(full)).toEqual(expected.findings);
      const sampled = await checkConfig(expected.document, file, { full: false });
      expect(findings(sampled)).toEqual([]);
    });
  }
  test('clean: the whole full check finds nothing', async () => {
    expect(
      await checkConfig(load('clean').document, join(dir, 'clean.h5'), { full: true }),
    ).toEqual([]);
  });
});
