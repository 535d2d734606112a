import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Expected, ExpectedError } from '../../scripts/fixtures/tdms.js';
import { inferTdms } from '../../src/formats/tdms/infer.js';
import { inspectTdms } from '../../src/formats/tdms/inspect.js';
import { finishDraft } from '../../src/infer/index.js';
import type { InferOptions } from '../../src/infer/types.js';
import { InspectError } from '../../src/inspect/profile.js';
import { fixtureCases } from '../helpers/fixtures.js';

const {
  dir,
  cases,
  load,
  file: dataFile,
} = fixtureCases<Expected | ExpectedError>('tdms', '.tdms');

describe('TDMS fixtures infer the drafts their generator expects', () => {
  test('there are fixtures of every kind', () => {
    expect(cases.length).toBeGreaterThanOrEqual(16);
    expect(cases.filter((c) => c.startsWith('error-'))).toHaveLength(3);
  });

  test.each(cases)('%s', async (name) => {
    const expected = load(name);
    const file = dataFile(name);
    if ('error' in expected) {
      const err = await inferTdms(file).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(InspectError);
      expect((err as InspectError).issue.code).toBe(expected.error.code);
      expect((err as InspectError).message).toContain(file);
      expect((err as InspectError).message).not.toContain('\n');
      return;
    }
    const draft = await inferTdms(file, expected.options as InferOptions);
    expect(draft.kind).toBe('tdms');
    expect({
      document: draft.document,
      issues: draft.issues.map(({ code, severity, path }) => ({ code, severity, path })),
    }).toEqual({ document: expected.document, issues: expected.issues });
  });
});

describe('TDMS fixture drafts pass the validator', () => {
  test.each(cases.filter((c) => !c.startsWith('error-') && c !== 'relative-time-no-start'))(
    '%s',
    async (name) => {
      const expected = load(name) as Expected;
      const draft = finishDraft(await inferTdms(dataFile(name), expected.options as InferOptions));
      expect(draft.issues.filter((i) => i.severity === 'error')).toEqual([]);
    },
  );
});

describe('TDMS fixtures: what the reader must see', () => {
  test('the index file is read instead of seeking through the data file', async () => {
    const p = await inspectTdms(join(dir, 'with-index.tdms'));
    expect(p.indexFile).toEqual({ path: join(dir, 'with-index.tdms_index'), used: true });
    expect(p.segments).toBe(31);
    expect(p.channels.map((c) => [c.name, c.valueCount])).toEqual([
      ['Timestamp', 31 * 16],
      ['temp', 31 * 16],
    ]);
  });

  test('incremental metadata: four segments, values counted in each', async () => {
    const p = await inspectTdms(join(dir, 'incremental.tdms'));
    expect(p.segments).toBe(4);
    expect(p.channels.map((c) => [c.name, c.valueCount, c.segments])).toEqual([
      ['a', 32, 4],
      ['b', 32, 4],
      ['c', 24, 3],
    ]);
  });
});
