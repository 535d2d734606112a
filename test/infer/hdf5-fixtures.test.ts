import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Expected, ExpectedError } from '../../scripts/fixtures/hdf5.js';
import { inferHdf5 } from '../../src/formats/hdf5/infer.js';
import { finishDraft } from '../../src/infer/index.js';
import type { InferOptions } from '../../src/infer/types.js';
import { InspectError } from '../../src/inspect/profile.js';
import { fixtureCases } from '../helpers/fixtures.js';

const { dir, cases, load, file: dataFile } = fixtureCases<Expected | ExpectedError>('hdf5', '.h5');

describe('HDF5 fixtures infer the drafts their generator expects', () => {
  test('there are fixtures of every kind', () => {
    expect(cases.length).toBeGreaterThanOrEqual(13);
    expect(cases.filter((c) => c.startsWith('error-'))).toHaveLength(3);
  });

  test.each(cases)('%s', async (name) => {
    const expected = load(name);
    const file = dataFile(name);
    if ('error' in expected) {
      const err = await inferHdf5(file).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(InspectError);
      expect((err as InspectError).issue.code).toBe(expected.error.code);
      expect((err as InspectError).message).toContain(file);
      return;
    }
    const draft = await inferHdf5(file, expected.options as InferOptions);
    expect(draft.kind).toBe('hdf5');
    expect({
      document: draft.document,
      issues: draft.issues.map(({ code, severity, path, source }) => ({
        code,
        severity,
        path,
        ...(source?.dataset ? { dataset: source.dataset } : {}),
      })),
    }).toEqual({
      document: expected.document,
      issues: expected.issues,
    });
  });
});

describe('HDF5 fixture drafts pass the validator', () => {
  test.each(cases.filter((c) => !c.startsWith('error-') && c !== 'no-channels'))(
    '%s',
    async (name) => {
      const expected = load(name) as Expected;
      const draft = finishDraft(await inferHdf5(dataFile(name), expected.options as InferOptions));
      expect(draft.issues.filter((i) => i.severity === 'error')).toEqual([]);
    },
  );

  test('a file with nothing to import gives a draft the validator rejects', async () => {
    const draft = finishDraft(await inferHdf5(join(dir, 'no-channels.h5')));
    expect(draft.document).toEqual({ hdf5Config: { assetName: 'no-channels', data: [] } });
    expect(draft.issues.some((i) => i.severity === 'error')).toBe(true);
  });
});
