/**
 * The CH10 check: a Ch10Config against its recording, through `checkConfig` (the format
 * table) as `importkit check` runs it, sampled and with `full`.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Expected, ExpectedError } from '../../scripts/fixtures/ch10.js';
import { checkConfig, checkReads } from '../../src/check/index.js';
import { inferConfig } from '../../src/infer/index.js';
import { InspectError } from '../../src/inspect/profile.js';
import type { Ch10Config } from '../../src/model/ch10.js';
import type { ImportDocument } from '../../src/model/document.js';
import { fixtureCases } from '../helpers/fixtures.js';

const { dir, cases, load, file } = fixtureCases<Expected | ExpectedError>('ch10', '.ch10');
const recordings = cases.filter((c) => !('error' in load(c)));
const refused = cases.filter((c) => 'error' in load(c));

async function check(name: string, ch10Config: Ch10Config, full = false) {
  const issues = await checkConfig({ ch10Config }, join(dir, `${name}.ch10`), { full });
  return issues.map(({ code, severity, path, message }) => ({
    code,
    severity,
    path,
    message: message.replace(`${dir}/`, ''),
  }));
}

describe('checkCh10', () => {
  test('a recording that fits: no issue, sampled or full', async () => {
    const config = { assetName: 'jet', scaleValues: true };
    expect(await check('recorder', config)).toEqual([]);
    expect(await check('recorder', config, true)).toEqual([]);
  });

  test('scaleValues against the data conversions of the TMATS record', async () => {
    expect(await check('no-conversions', { scaleValues: true })).toEqual([
      {
        code: 'ch10_scale_without_conversions',
        severity: 'warning',
        path: '/ch10Config/scaleValues',
        message:
          'scaleValues is true, but the TMATS record defines no data conversions (C-x\\DCN): there is nothing to scale the values by',
      },
    ]);
    expect(await check('recorder', { scaleValues: false })).toEqual([
      {
        code: 'ch10_conversions_not_applied',
        severity: 'info',
        path: '/ch10Config/scaleValues',
        message:
          'the TMATS record defines 1 data conversion (C-x\\DCN) and scaleValues is not true: the values are imported unscaled',
      },
    ]);
  });

  test('damage, a cut last packet, no time packets and idle or unlisted channels, on the config', async () => {
    expect(await check('damaged-header', { scaleValues: true })).toEqual([
      {
        code: 'ch10_packet_damaged',
        severity: 'error',
        path: '/ch10Config',
        message:
          "damaged-header.ch10: damaged packet at byte 724: the header's checksum does not match its words; the walk went on at the next whole packet header",
      },
    ]);
    expect((await check('cut-last-packet', { scaleValues: true })).map((i) => i.code)).toEqual([
      'ch10_last_packet_incomplete',
    ]);
    expect((await check('no-time-packets', {})).map((i) => [i.code, i.severity])).toEqual([
      ['ch10_no_time_packets', 'error'],
      ['ch10_channel_without_packets', 'info'],
    ]);
    expect((await check('idle-channels', {})).map((i) => [i.code, i.severity])).toEqual([
      ['ch10_channel_without_packets', 'info'],
      ['ch10_channel_not_in_tmats', 'warning'],
    ]);
  });

  test.each(refused)('%s: a file inspection refuses is refused by the check too', async (name) => {
    const expected = load(name) as ExpectedError;
    const err = await checkConfig({ ch10Config: {} }, file(name)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InspectError);
    expect((err as InspectError).code).toBe(expected.error.code);
  });

  test('the verdict says what was read', () => {
    const document: ImportDocument = { ch10Config: {} };
    expect(checkReads(document, false)).toBe(
      "its TMATS record, the headers of the packets in its first and last MiB and the first time packet's time read, no other packet data; `full` reads every packet header",
    );
    expect(checkReads(document, true)).toBe(
      "its TMATS record, every packet header and the first time packet's time read, no other packet data",
    );
  });
});

describe('infer and check agree', () => {
  test.each(recordings)(
    '%s: the draft gets no error from check, sampled or full, that infer did not report',
    async (name) => {
      const draft = await inferConfig(file(name), (load(name) as Expected).options);
      const reported = new Set(draft.issues.map((i) => i.code));
      for (const full of [false, true]) {
        const issues = await checkConfig(draft.document, file(name), { full });
        const errors = issues.filter((i) => i.severity === 'error').map((i) => i.code);
        expect(errors.filter((c) => !reported.has(c))).toEqual([]);
      }
    },
  );
});
