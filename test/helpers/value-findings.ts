import { relative } from 'node:path';
import { expect, test } from 'vitest';
import { checkConfig } from '../../src/check/index.js';
import type { ImportDocument } from '../../src/model/document.js';
import type { Issue } from '../../src/model/issue.js';
import { fixtureCases } from './fixtures.js';
import { repoRoot } from './paths.js';

/**
 * A value-findings fixture: its document, the findings `check --full` must give and, for a
 * format whose sampled check reads values too, those the sampled check must give.
 */
export interface ValueFixture {
  document: ImportDocument;
  findings: Issue[];
  sampledFindings?: Issue[];
}

/**
 * The issues (those whose code is one of `codes`, when given), with the data file named
 * from the repository root.
 */
export function valueFindings(issues: readonly Issue[], codes?: ReadonlySet<string>): Issue[] {
  return issues
    .filter((i) => codes === undefined || codes.has(i.code))
    .map((i) => {
      const out = { ...i };
      if (out.source?.file)
        out.source = { ...out.source, file: relative(repoRoot, out.source.file) };
      return out;
    });
}

/**
 * One test per case of `fixtures/<area>`: `check --full` gives the case's findings, the
 * whole list (the structural ones too), and the default (sampled) check gives the case's
 * sampled findings (the whole list), or, when the case has none, none of the value findings.
 */
export function valueFindingTests(area: string, ext: string, codes: ReadonlySet<string>) {
  const fixtures = fixtureCases<ValueFixture>(area, ext);
  test('the fixtures are there', () => {
    expect(fixtures.cases.length).toBeGreaterThanOrEqual(3);
  });
  for (const name of fixtures.cases) {
    test(name, async () => {
      const expected = fixtures.load(name);
      const file = fixtures.file(name);
      const full = await checkConfig(expected.document, file, { full: true });
      expect(valueFindings(full)).toEqual(expected.findings);
      const sampled = await checkConfig(expected.document, file, { full: false });
      if (expected.sampledFindings)
        expect(valueFindings(sampled)).toEqual(expected.sampledFindings);
      else expect(valueFindings(sampled, codes)).toEqual([]);
    });
  }
  return fixtures;
}
