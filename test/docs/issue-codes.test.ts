/** docs/issue-codes.md is the registry rendered; codes are unique across areas and documented. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { renderIssueCodes } from '../../scripts/docs.js';
import { CODE_AREAS } from '../../src/model/codes/index.js';

const root = join(import.meta.dirname, '..', '..');

describe('issue codes', () => {
  test('docs/issue-codes.md matches the registry (run npm run docs when this fails)', () => {
    expect(readFileSync(join(root, 'docs', 'issue-codes.md'), 'utf8')).toBe(renderIssueCodes());
  });

  test('no code name is in two area files', () => {
    const areasOf = new Map<string, string[]>();
    for (const [area, codes] of Object.entries(CODE_AREAS)) {
      for (const code of Object.keys(codes))
        areasOf.set(code, [...(areasOf.get(code) ?? []), area]);
    }
    const twice = [...areasOf].filter(([, areas]) => areas.length > 1);
    expect(twice).toEqual([]);
  });

  test('every code is snake_case with a severity, a summary and a fix', () => {
    for (const codes of Object.values(CODE_AREAS)) {
      for (const [code, doc] of Object.entries(codes)) {
        expect(code).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
        expect(['error', 'warning', 'info']).toContain(doc.severity);
        expect(doc.summary.length).toBeGreaterThan(10);
        expect(doc.fix.length).toBeGreaterThan(5);
      }
    }
  });

  test('the page lists every code once', () => {
    const page = renderIssueCodes();
    for (const codes of Object.values(CODE_AREAS)) {
      for (const code of Object.keys(codes)) {
        expect(page.split(`| \`${code}\` |`).length - 1).toBe(1);
      }
    }
  });

  test('a duplicate is found', () => {
    const page = renderIssueCodes({
      a: { same: { severity: 'error', summary: 'one meaning', fix: 'fix it' } },
      b: { same: { severity: 'error', summary: 'another one', fix: 'fix it' } },
    });
    expect(page.split('| `same` |').length - 1).toBe(2);
  });
});
