import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { inferCsv } from '../../src/formats/csv/infer.js';
import { finishDraft } from '../../src/infer/index.js';
import type { InferOptions } from '../../src/infer/types.js';
import { hasErrors, type Issue } from '../../src/model/issue.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = join(repoRoot, 'fixtures', 'csv');

interface Expectation {
  file: string;
  options: InferOptions;
  document: unknown;
  issues: Array<Pick<Issue, 'code' | 'severity' | 'path'>>;
  evidence: Array<{ path: string; column?: number; choice?: string }>;
}

const cases = readdirSync(dir)
  .filter((f) => f.endsWith('.expected.json'))
  .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Expectation);

const key = (i: Pick<Issue, 'code' | 'severity' | 'path'>) => `${i.severity} ${i.code} ${i.path}`;

describe('CSV fixtures: the inferred draft is the one the generator wrote', () => {
  test('there are fixtures', () => {
    expect(cases.length).toBeGreaterThan(25);
  });
  for (const c of cases) {
    test(c.file, async () => {
      const draft = await inferCsv(join(dir, c.file), c.options);
      expect(draft.kind).toBe('csv');
      expect(draft.document).toEqual(c.document);
      expect(draft.issues.map(key).sort()).toEqual(c.issues.map(key).sort());
      for (const e of c.evidence) {
        const found = draft.evidence.find((x) => x.path === e.path);
        expect(found, e.path).toBeDefined();
        if (e.choice !== undefined) expect(found?.choice).toBe(e.choice);
        if (e.column !== undefined) expect(found?.choice.startsWith(`${e.column} `)).toBe(true);
      }
      // Every choice in the document has its evidence.
      for (const p of ['assetName', 'firstDataRow']) {
        expect(draft.evidence.some((x) => x.path === `/csvConfig/${p}`)).toBe(true);
      }
      // A draft inference found no error in must also pass validation.
      if (!hasErrors(c.issues as Issue[])) {
        const finished = finishDraft(draft);
        expect(finished.issues.filter((i) => i.severity === 'error')).toEqual([]);
      }
    });
  }
});
