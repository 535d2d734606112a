import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { checkConfig } from '../../src/check/index.js';
import type { ImportDocument } from '../../src/model/document.js';
import { validateConfig } from '../../src/validate/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const UNDECIDED = new Set(['infer_time_column_not_found', 'parquet_no_time_column']);

/** Every inspector fixture whose expected draft is a document (error fixtures have none). */
function drafts(area: string): Array<{
  name: string;
  file: string;
  document: ImportDocument;
  inferenceErrors: boolean;
  undecided: boolean;
}> {
  const dir = join(root, 'fixtures', area);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.expected.json'))
    .flatMap((f) => {
      const expected = JSON.parse(readFileSync(join(dir, f), 'utf8')) as {
        file?: string;
        document?: ImportDocument;
        issues?: Array<{ severity: string; code: string }>;
      };
      const name = f.replace('.expected.json', '');
      const file =
        expected.file ??
        readdirSync(dir).find((x) => x.startsWith(`${name}.`) && !x.endsWith('.json'));
      if (!expected.document || !file) return [];
      // "No time column found" is inference not deciding, not the file misfitting a config:
      // such a draft simply names no time column, and the check has nothing to say on it.
      const errors = (expected.issues ?? []).filter((i) => i.severity === 'error');
      const inferenceErrors = errors.some((i) => !UNDECIDED.has(i.code));
      const undecided = errors.length > 0 && !inferenceErrors;
      return [
        { name, file: join(dir, file), document: expected.document, inferenceErrors, undecided },
      ];
    });
}

/**
 * The inspectors' fixtures come with the draft inference makes for them. A draft that
 * inference found no error in must fit its file (no check error, sampled or full); a draft
 * inference itself flags as wrong (dates it cannot read, no data rows) must fail
 * `importkit check` too (its own validation or the file check): the two stages agree on the verdict.
 */
describe('check agrees with inference on every inspector fixture', () => {
  for (const area of ['csv', 'parquet', 'hdf5']) {
    for (const d of drafts(area)) {
      test(`${area}/${d.name}${d.inferenceErrors ? ' (draft with errors)' : ''}`, async () => {
        const errors = async (full: boolean) =>
          (await checkConfig(d.document, d.file, { full })).filter((i) => i.severity === 'error');
        if (d.undecided) {
          // Only that it runs to a list (the draft is incomplete, either verdict is fair).
          expect(Array.isArray(await errors(false))).toBe(true);
        } else if (d.inferenceErrors) {
          // The verdict `importkit check` gives: the config's own errors plus the file's.
          const configOk = validateConfig(d.document).ok;
          expect(!configOk || (await errors(false)).length > 0).toBe(true);
        } else {
          expect(await errors(false)).toEqual([]);
          expect(await errors(true)).toEqual([]);
        }
      });
    }
  }
});
