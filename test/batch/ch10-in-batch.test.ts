/**
 * A CH10 file in a batch, as the platform's BatchConfig has it: a file entry of type
 * DATA_TYPE_KEY_CH10 with no config (there is no ch10Config in a file entry and no default
 * CH10 config, so the platform reads it with Ch10Config's defaults). `infer` lists a CH10
 * member so, the draft lints and checks clean, the emulator imports it, and a `ch10Config`
 * in a file entry is a lint error that says what to write instead.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { zipBytes } from '../../scripts/fixtures/zip-writer.js';
import { checkBatch } from '../../src/check/index.js';
import { type Emulator, startEmulator } from '../../src/emulator/index.js';
import { inferBatch } from '../../src/infer/batch.js';
import type { BatchConfig } from '../../src/model/batch.js';
import { validateConfig } from '../../src/validate/index.js';
import { repoRoot } from '../helpers/paths.js';

const tmp = mkdtempSync(join(tmpdir(), 'importkit-ch10-batch-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const CH10 = join(repoRoot, 'fixtures', 'ch10', 'recorder.ch10');
const CSV = 'time,speed\n2024-05-01T12:00:00Z,1.5\n2024-05-01T12:00:01Z,2.5\n';
const folder = join(tmp, 'set');
const zip = join(tmp, 'set.zip');

beforeAll(() => {
  mkdirSync(join(folder, 'rec'), { recursive: true });
  copyFileSync(CH10, join(folder, 'rec', 'flight.ch10'));
  writeFileSync(join(folder, 'speed.csv'), CSV);
  writeFileSync(
    zip,
    zipBytes([
      { name: 'rec/flight.ch10', data: readFileSync(CH10), method: 8 },
      { name: 'speed.csv', data: Buffer.from(CSV), method: 8 },
    ]),
  );
});

describe('a CH10 member of a batch', () => {
  test.each([
    ['a folder', folder],
    ['a zip', zip],
  ])(
    'in %s: infer lists it by its type only, and the draft lints and checks clean',
    async (_k, path) => {
      const draft = await inferBatch(path);
      const batch = draft.document.batchConfig as BatchConfig;
      expect(batch.fileConfigs?.['rec/flight.ch10']).toEqual({ type: 'DATA_TYPE_KEY_CH10' });
      expect(Object.keys(batch.fileConfigs ?? {}).sort()).toEqual(['rec/flight.ch10', 'speed.csv']);
      expect(draft.issues.filter((i) => i.source?.file === 'rec/flight.ch10')).toEqual([]);
      expect(validateConfig({ batchConfig: batch }).issues).toEqual([]);
      expect(await checkBatch(batch, path)).toEqual([]);
    },
  );

  test('check reports a CH10 member left out of the list, and one listed as another type', async () => {
    const issues = await checkBatch(
      {
        fileConfigs: {
          'speed.csv': {
            type: 'DATA_TYPE_KEY_CSV',
            csvConfig: (await inferBatch(folder)).document.batchConfig?.fileConfigs?.['speed.csv']
              ?.csvConfig,
          },
        },
      },
      zip,
    );
    expect(issues.map((i) => [i.code, i.source?.file])).toEqual([
      ['batch_file_not_listed', 'rec/flight.ch10'],
    ]);
    const wrong = await checkBatch(
      { fileConfigs: { 'rec/flight.ch10': { type: 'DATA_TYPE_KEY_TDMS' } } },
      zip,
    );
    expect(wrong.map((i) => [i.code, i.path])).toEqual([
      ['batch_type_mismatch', '/batchConfig/fileConfigs/rec~1flight.ch10/type'],
      ['batch_file_not_listed', '/batchConfig/fileConfigs'],
    ]);
  });

  test('a ch10Config in a file entry is an unknown key, with what to write instead', () => {
    const { issues } = validateConfig({
      batchConfig: {
        fileConfigs: {
          'a.ch10': { type: 'DATA_TYPE_KEY_CH10', ch10Config: { scaleValues: true } },
        },
      },
    });
    expect(issues.map((i) => [i.code, i.severity, i.path, i.message, i.hint])).toEqual([
      [
        'unknown_key',
        'error',
        '/batchConfig/fileConfigs/a.ch10/ch10Config',
        'Unknown key "ch10Config".',
        'A batch has no CH10 config: list a CH10 file with its type only ({type: DATA_TYPE_KEY_CH10}); the platform reads it with the defaults of Ch10Config, and the batch sets its asset and run.',
      ],
    ]);
  });
});

describe('the emulator', () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startEmulator({ apiKeys: { 'ch10-batch-key': 'batch' } });
  });
  afterAll(async () => {
    await emu.close();
  });

  test('imports the inferred batch with its CH10 member', async () => {
    const { createClient } = await import('../../src/client/index.js');
    const client = createClient({ baseUrl: emu.url, apiKey: 'ch10-batch-key' });
    const batch = (await inferBatch(zip)).document.batchConfig as BatchConfig;
    expect(batch.fileConfigs?.['rec/flight.ch10']).toEqual({ type: 'DATA_TYPE_KEY_CH10' });
    const done = await client.importFile(zip, { batchConfig: batch }, { wait: { intervalMs: 10 } });
    expect(done.status).toBe('DATA_IMPORT_STATUS_SUCCEEDED');
  });
});
