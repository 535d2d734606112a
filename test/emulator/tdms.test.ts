import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Client, createClient, ImportFailedError } from '../../src/client/index.js';
import { type Emulator, startEmulator } from '../../src/emulator/index.js';
import { inferConfig } from '../../src/infer/index.js';
import type { TdmsConfig } from '../../src/model/tdms.js';

const KEY = 'key-tdms';
const examples = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'fixtures',
  'platform-examples',
);
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

describe('the emulator imports TDMS files through importkit’s check', () => {
  test('the inferred config succeeds; a wrong channel name fails naming it', async () => {
    const file = join(examples, 'tdms-time-channel.tdms');
    const doc = (await inferConfig(file)).document as { tdmsConfig: TdmsConfig };
    doc.tdmsConfig.assetName = 'tdms-rig';
    const done = await client.importFile(file, doc as never, { wait });
    expect(done.status).toBe('DATA_IMPORT_STATUS_SUCCEEDED');
    const names = Object.values(emu.store.data.channels)
      .filter((c) => c.value.assetId === done.assetId)
      .map((c) => [c.value.name, c.value.unitId]);
    // Named as the platform's own tools name TDMS channels: <group>.<channel>.
    expect(names).toEqual(Array.from({ length: 10 }, (_, i) => [`Measurements.channel_${i}`, 'A']));

    const broken = structuredClone(doc);
    const first = broken.tdmsConfig.data?.[0];
    if (first) first.channelName = 'chanel_0';
    const err = (await client
      .importFile(file, broken as never, { wait })
      .catch((e: unknown) => e)) as ImportFailedError;
    expect(err).toBeInstanceOf(ImportFailedError);
    expect(err.errorMessage).toBe(
      "channel 'chanel_0' is not in group 'Measurements' (at /tdmsConfig/data/0/channelName)",
    );
  });
});
