import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Expected, ExpectedError } from '../../scripts/fixtures/ulog.js';
import { inferUlog } from '../../src/formats/ulog/infer.js';
import { finishDraft } from '../../src/infer/index.js';
import { InspectError } from '../../src/inspect/profile.js';
import { fixtureCases } from '../helpers/fixtures.js';

const { dir, cases, load, file: dataFile } = fixtureCases<Expected | ExpectedError>('ulog', '.ulg');

describe('ULog fixtures infer the drafts their generator expects', () => {
  test('there are fixtures of every kind', () => {
    expect(cases).toHaveLength(11);
    expect(cases.filter((c) => c.startsWith('error-'))).toHaveLength(3);
  });

  test.each(cases)('%s', async (name) => {
    const expected = load(name);
    const file = dataFile(name);
    if ('error' in expected) {
      const err = await inferUlog(file).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(InspectError);
      expect((err as InspectError).issue.code).toBe(expected.error.code);
      expect((err as InspectError).message).toContain(file);
      expect((err as InspectError).message).not.toContain('\n');
      return;
    }
    const draft = finishDraft(await inferUlog(file, expected.options));
    expect(draft.kind).toBe('ulog');
    expect({
      document: draft.document,
      issues: draft.issues.map(({ code, severity, path }) => ({ code, severity, path })),
    }).toEqual({ document: expected.document, issues: expected.issues });
  });
});

describe('what the fixtures show beyond the draft', () => {
  test('multi-instance-gps: GPS time stated, info, multi-info and parameters offered', async () => {
    const draft = await inferUlog(join(dir, 'multi-instance-gps.ulg'));
    const byPath = new Map(draft.evidence.map((e) => [e.path, e]));
    expect(byPath.get('/ulogConfig/relativeStartTime')?.reason).toMatch(
      /^vehicle_gps_position instance 0 has time_utc_usec 1714564800000000 \(2024-05-01T12:00:00\.000Z\) at offset \d+; the platform places the log in time from it$/,
    );
    expect(byPath.get('/ulogConfig/infoKeys')?.alternatives).toEqual([
      'sys_name',
      'ver_hw',
      'perf_counter_preflight',
    ]);
    expect(byPath.get('/ulogConfig/paramKeys')?.alternatives).toEqual([
      'BAT1_CAPACITY',
      'MC_ROLL_P',
    ]);
    expect(byPath.get('/ulogConfig/parseErrorPolicy')?.choice).toBe('(left out: FAIL_ON_ERROR)');
  });

  test('damaged-truncated: the parse-error policy evidence says the import would fail', async () => {
    const draft = await inferUlog(join(dir, 'damaged-truncated.ulg'));
    const policy = draft.evidence.find((e) => e.path === '/ulogConfig/parseErrorPolicy');
    expect(policy?.reason).toContain('the import would fail there');
    expect(draft.issues[0]?.message).toMatch(
      /^at offset \d+: unknown message type 0x7a; skipped 10 bytes to the next sync message at \d+$/,
    );
  });
});
