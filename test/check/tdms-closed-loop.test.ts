/**
 * The closed loop for TDMS: the draft `infer` writes for every TDMS fixture (the inference
 * fixtures, the check fixtures and the platform's examples), as the YAML it prints, lints,
 * is canonical for `fmt --check`, and gets no error from `check` or `check --full` that
 * infer did not report itself. The only errors a check adds are those the check fixtures
 * were written to hold in their values, which reading the metadata cannot see (a bool byte
 * of 2, a damaged string chunk): named here, per file.
 */
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkConfig } from '../../src/check/index.js';
import { toYaml } from '../../src/cli/commands/_draft-output.js';
import { formatConfigText } from '../../src/fmt/index.js';
import { inferConfig } from '../../src/infer/index.js';
import { newFacts } from '../../src/infer/restated.js';
import type { Issue } from '../../src/model/issue.js';
import { validateConfigText } from '../../src/validate/index.js';
import { platformExamples, repoRoot } from '../helpers/paths.js';

const inFolder = (folder: string) =>
  readdirSync(folder)
    .filter((f) => f.endsWith('.tdms') && !f.startsWith('error-'))
    .map((f) => join(folder, f));
const files = [
  ...inFolder(join(repoRoot, 'fixtures', 'tdms')),
  ...inFolder(join(repoRoot, 'fixtures', 'check-tdms')),
  ...inFolder(platformExamples),
].sort();

/** Errors in the values of the check fixtures, written there on purpose. */
const IN_THE_DATA: Record<string, string[]> = {
  'every-finding.tdms': ['value_outside_type'],
  'bad-strings.tdms': ['tdms_raw_data_invalid'],
};

const errors = (issues: readonly Issue[]) =>
  issues.filter((i) => i.severity === 'error').map((i) => i.code);
/** The errors of `issues` that are not what infer reported (by code, or restated in other words). */
const newErrors = (inferred: readonly Issue[], issues: readonly Issue[]) => {
  const codes = new Set(errors(inferred));
  return errors(newFacts(inferred, issues)).filter((c) => !codes.has(c));
};

describe('the closed loop for TDMS: infer → lint → fmt → check, check --full', () => {
  test('there are files of every kind', () => {
    expect(files.length).toBeGreaterThanOrEqual(20);
  });

  test.each(files.map((f) => [basename(f), f]))('%s', async (name, file) => {
    const draft = await inferConfig(file);
    const text = toYaml(draft, file);
    const linted = validateConfigText(text, { filename: 'draft.yaml' });
    expect(newErrors(draft.issues, linted.issues)).toEqual([]);
    expect(formatConfigText(text, { filename: 'draft.yaml' }).changed).toBe(false);
    for (const full of [false, true]) {
      const found = await checkConfig(draft.document, file, { full });
      expect(newErrors(draft.issues, found)).toEqual(IN_THE_DATA[name] ?? []);
    }
  });
});
