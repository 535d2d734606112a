import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Expected, ExpectedError } from '../../scripts/fixtures/ch10.js';
import { inferCh10 } from '../../src/infer/ch10.js';
import { inferConfig } from '../../src/infer/index.js';
import { inspectCh10 } from '../../src/inspect/ch10.js';
import { InspectError } from '../../src/inspect/profile.js';
import { fixtureCases } from '../helpers/fixtures.js';

const {
  dir,
  cases,
  load,
  file: dataFile,
} = fixtureCases<Expected | ExpectedError>('ch10', '.ch10');

describe('CH10 fixtures', () => {
  test('there are fixtures of every kind', () => {
    expect(cases).toHaveLength(5);
  });

  test.each(cases)('%s', async (name) => {
    const expected = load(name);
    const file = dataFile(name);
    if ('error' in expected) {
      const err = await inferConfig(file).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(InspectError);
      expect((err as InspectError).issue.code).toBe(expected.error.code);
      expect((err as InspectError).message).toContain(file);
      return;
    }
    const draft = await inferConfig(file, expected.options);
    expect({ document: draft.document, issues: draft.issues }).toEqual({
      document: expected.document,
      issues: [],
    });
    const profile = await inspectCh10(file);
    expect(
      profile.channels.map((c) => ({ channelId: c.channelId, name: c.name, dataType: c.dataType })),
    ).toEqual(expected.channels);
    expect(profile.tmats.programName).toBe('FLIGHT-TEST-7');
    expect(profile.bytesRead).toBe(profile.file.size); // one read of the (small) head
  });

  test('the explain evidence names what scaleValues was decided from', async () => {
    const draft = await inferCh10(join(dir, 'recorder.ch10'));
    expect(draft.evidence.map((e) => [e.path, e.choice, e.reason])).toEqual([
      ['/ch10Config/assetName', 'recorder', "default: the file's base name"],
      [
        '/ch10Config/scaleValues',
        'true',
        'the TMATS record defines 1 data conversion (C-x\\DCN) for 4 channels (TIMEIN, PCMIN, 1553IN, ANAIN)',
      ],
    ]);
  });
});
