import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { inferParquet } from '../../src/formats/parquet/infer.js';
import type { InferOptions } from '../../src/infer/types.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'parquet');
const cases = readdirSync(dir)
  .filter((f) => f.endsWith('.expected.json'))
  .map((f) => f.replace(/\.expected\.json$/, ''))
  .sort();

interface Expected {
  options: InferOptions;
  document: unknown;
  issues: Array<{ code: string; severity: string; path: string }>;
}

describe('Parquet fixtures infer the drafts their generator expects', () => {
  test('there are fixtures', () => {
    expect(cases.length).toBeGreaterThanOrEqual(10);
  });

  test.each(cases)('%s', async (name) => {
    const expected = JSON.parse(
      readFileSync(join(dir, `${name}.expected.json`), 'utf8'),
    ) as Expected;
    const draft = await inferParquet(join(dir, `${name}.parquet`), expected.options);
    expect(draft.kind).toBe('parquet');
    expect({
      document: draft.document,
      issues: draft.issues.map(({ code, severity, path }) => ({ code, severity, path })),
    }).toEqual({ document: expected.document, issues: expected.issues });
  });
});
