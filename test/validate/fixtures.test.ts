/**
 * The config fixtures (fixtures/config/, written by scripts/fixtures/config.ts): each
 * file's whole issue list matches its `.expected.json` (code, severity, pointer, line,
 * column), and the full issues (messages and hints too) match a file snapshot.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { formatIssues, validateConfigText } from '../../src/validate/index.js';

const dir = join(import.meta.dirname, '..', '..', 'fixtures', 'config');
const files = readdirSync(dir)
  .filter((f) => /\.(ya?ml|json)$/.test(f) && !f.endsWith('.expected.json'))
  .sort();

describe('fixtures/config', () => {
  test('there are fixtures', () => {
    expect(files.length).toBeGreaterThan(10);
  });
  for (const file of files) {
    test(file, async () => {
      const text = readFileSync(join(dir, file), 'utf8');
      const expected = JSON.parse(
        readFileSync(join(dir, file.replace(/\.(ya?ml|json)$/, '.expected.json')), 'utf8'),
      );
      const result = validateConfigText(text, { filename: file });
      expect(
        result.issues.map(({ code, severity, path, line, column }) => ({
          code,
          severity,
          path,
          line,
          column,
        })),
      ).toEqual(expected);
      expect(result.ok).toBe(!expected.some((e: { severity: string }) => e.severity === 'error'));
      await expect(
        `${JSON.stringify(result.issues, null, 2)}\n\n${formatIssues(result.issues, { text })}\n`,
      ).toMatchFileSnapshot(join('__snapshots__', 'fixtures', `${file}.snap`));
    });
  }
});
