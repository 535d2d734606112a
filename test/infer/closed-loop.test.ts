/**
 * What infer writes, the next stages accept, for every Parquet and HDF5 fixture: the draft
 * (YAML and JSON, as `importkit infer` writes it) is canonical for `fmt`, lints without an
 * error unless infer reported one itself (a draft without a time column cannot be valid),
 * and `check`, sampled and with `full`, finds no error that infer did not report. Drafts
 * are inferred with default options, as a user runs `importkit infer <file>`.
 *
 * The one exception is written out below: the `check-*` fixtures damage values in the
 * middle of their rows on purpose (a NaN time, a bool byte of 2), which infer, reading the
 * footer or the first and last rows, never sees; `check --full` reads them and says so.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkConfig } from '../../src/check/index.js';
import { draftText } from '../../src/cli/commands/_draft-output.js';
import { formatConfigText } from '../../src/fmt/index.js';
import { inferConfig } from '../../src/infer/index.js';
import type { Issue } from '../../src/model/plain.js';
import { validateConfigText } from '../../src/validate/index.js';
import { platformExamples, repoRoot } from '../helpers/paths.js';

/** Every data file of these fixture folders but the unreadable ones (`error-*`). */
function filesOf(folders: string[], ext: RegExp): string[] {
  return folders.flatMap((folder) => {
    const dir = join(repoRoot, 'fixtures', folder);
    return readdirSync(dir)
      .filter((f) => ext.test(f) && !f.startsWith('error-'))
      .sort()
      .map((f) => join(dir, f));
  });
}

const files = [
  ...filesOf(['parquet', 'check-parquet', 'platform-examples'], /\.parquet$/),
  ...filesOf(['hdf5', 'check-hdf5', 'platform-examples'], /\.h5$/),
];

const errorsOf = (issues: readonly Issue[]) =>
  issues.filter((i) => i.severity === 'error').map((i) => `${i.code} ${i.path}`);

/** The errors of `check --full` about values in rows infer does not read, by fixture. */
const DAMAGED_ROWS: Record<string, string[]> = {
  'fixtures/check-hdf5/every-finding.h5': [
    'value_outside_type /hdf5Config/data/1/channelConfig/dataType',
    'time_not_parseable /hdf5Config/data/2/timeDataset',
  ],
  'fixtures/check-hdf5/float-time.h5': ['time_not_parseable /hdf5Config/data/0/timeDataset'],
};

describe.each(files.map((f) => [f.slice(repoRoot.length + 1), f]))('%s', (name, file) => {
  test('the draft lints, is canonical for fmt, and check adds no error', async () => {
    const draft = await inferConfig(file);
    const inferred = new Set(draft.issues.filter((i) => i.severity === 'error').map((i) => i.code));
    for (const format of ['yaml', 'json'] as const) {
      const written = `draft.${format}`;
      const text = draftText(draft, file, format);
      const lint = errorsOf(validateConfigText(text, { filename: written }).issues);
      if (inferred.size === 0) expect(lint, written).toEqual([]);
      const formatted = formatConfigText(text, { filename: written });
      expect(formatted.error, written).toBeUndefined();
      expect(formatted.changes, written).toEqual([]);
      expect(formatted.text, written).toBe(text);
    }
    for (const full of [false, true]) {
      const found = await checkConfig(draft.document, file, { full });
      const added = found.filter((i) => i.severity === 'error' && !inferred.has(i.code));
      expect(errorsOf(added), full ? 'check --full' : 'check').toEqual(
        full ? (DAMAGED_ROWS[name] ?? []) : [],
      );
    }
  });
});

test('the fixture list holds the platform examples', () => {
  expect(files.filter((f) => f.startsWith(platformExamples)).length).toBe(6);
});
