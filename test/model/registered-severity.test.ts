import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CODES } from '../../src/model/codes/index.js';

/** Every `*.expected.json` verdict under fixtures/. */
function verdictFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...verdictFiles(p));
    else if (name.endsWith('.expected.json')) out.push(p);
  }
  return out;
}

/** Every issue-shaped object (a code and a severity) anywhere in a verdict. */
function issuesIn(value: unknown, out: Array<{ code: string; severity: string }> = []) {
  if (Array.isArray(value)) for (const v of value) issuesIn(v, out);
  else if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.code === 'string' && typeof o.severity === 'string') {
      out.push({ code: o.code, severity: o.severity });
    }
    for (const v of Object.values(o)) issuesIn(v, out);
  }
  return out;
}

describe('issue severities', () => {
  test('every issue in the fixture verdicts has the severity its code is registered with', () => {
    const files = verdictFiles('fixtures');
    expect(files.length).toBeGreaterThan(50);
    const wrong: string[] = [];
    let seen = 0;
    for (const file of files) {
      for (const i of issuesIn(JSON.parse(readFileSync(file, 'utf8')))) {
        seen += 1;
        const registered = (CODES as Record<string, { severity: string }>)[i.code]?.severity;
        if (registered !== i.severity) {
          wrong.push(`${file}: ${i.code} is ${i.severity}, registered ${registered}`);
        }
      }
    }
    expect(seen).toBeGreaterThan(50);
    expect(wrong).toEqual([]);
  });
});
