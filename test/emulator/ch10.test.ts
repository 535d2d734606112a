/**
 * CH10 imports in the emulator run the check `importkit check` runs, and take their data
 * time range from the packet headers when a time packet gives the date with its year.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Expected } from '../../scripts/fixtures/ch10.js';
import { type Client, createClient, ImportFailedError } from '../../src/client/index.js';
import { type Emulator, startEmulator } from '../../src/emulator/index.js';
import { normalizeTimestamp } from '../../src/emulator/proto-read.js';
import { inferConfig } from '../../src/infer/index.js';
import { fixtureCases } from '../helpers/fixtures.js';

const KEY = 'key-ch10';
const { load, file } = fixtureCases<Expected>('ch10', '.ch10');
const wait = { intervalMs: 5, maxIntervalMs: 20, timeoutMs: 20_000 };
let emu: Emulator;
let client: Client;

beforeAll(async () => {
  emu = await startEmulator({ apiKeys: { [KEY]: 'acme' } });
  client = createClient({ baseUrl: emu.url, apiKey: KEY, retry: { limit: 2, backoffMs: 5 } });
});
afterAll(async () => {
  await emu.close();
});

async function importDraft(name: string) {
  const draft = await inferConfig(file(name), { runName: `run-${name}` });
  return client.importFile(file(name), draft.document as never, { wait });
}

describe('the emulator imports CH10 files through importkit’s check', () => {
  test('dated time packets: the import and its run span the packets', async () => {
    const done = await importDraft('recorder');
    const expected = load('recorder');
    // Answered as protobuf's JSON writer writes a Timestamp (no `.000`).
    expect([done.status, done.dataStartTime, done.dataStopTime]).toEqual([
      'DATA_IMPORT_STATUS_SUCCEEDED',
      normalizeTimestamp(expected.start ?? ''),
      normalizeTimestamp(expected.stop ?? ''),
    ]);
    const run = emu.store.data.runs[done.runId ?? '']?.value;
    expect([run?.startTime, run?.stopTime]).toEqual([expected.start, expected.stop]);
  });

  test('time packets in the day-of-year format (no year): no time range', async () => {
    const done = await importDraft('no-conversions');
    expect([done.status, done.dataStartTime, done.dataStopTime]).toEqual([
      'DATA_IMPORT_STATUS_SUCCEEDED',
      undefined,
      undefined,
    ]);
  });

  test('what check finds fails the import: damage, and a file inspection refuses', async () => {
    const damaged = (await importDraft('damaged-header').catch(
      (e: unknown) => e,
    )) as ImportFailedError;
    expect(damaged).toBeInstanceOf(ImportFailedError);
    expect(damaged.errorMessage).toBe(
      "damaged-header.ch10: damaged packet at byte 724: the header's checksum does not match its words; the walk went on at the next whole packet header (at /ch10Config)",
    );
    const refused = (await client
      .importFile(file('error-no-tmats'), { ch10Config: { assetName: 'x' } } as never, { wait })
      .catch((e: unknown) => e)) as ImportFailedError;
    expect(refused).toBeInstanceOf(ImportFailedError);
    expect(refused.errorMessage).toBe(
      'cannot read the file: error-no-tmats.ch10: the first packet (channel 1) has data type 0x11, not a TMATS setup record (0x01)',
    );
  });
});
