/**
 * The emulator gives HDF5 imports their time range: dataStartTime / dataStopTime from the
 * first and last values of the time data, for each way HDF5 holds time (a 1-D time
 * dataset, a column of an [N, k] dataset, a member of a compound dataset).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Client, createClient } from '../../src/client/index.js';
import { type Emulator, startEmulator } from '../../src/emulator/index.js';
import { inferConfig } from '../../src/infer/index.js';

const KEY = 'hdf5-time-key';
const fixtures = join(import.meta.dirname, '..', '..', 'fixtures', 'hdf5');
let emu: Emulator;
let client: Client;

beforeAll(async () => {
  emu = await startEmulator({ apiKeys: { [KEY]: 'acme' } });
  client = createClient({ baseUrl: emu.url, apiKey: KEY });
});
afterAll(async () => {
  await emu.close();
});

describe('HDF5 imports in the emulator', () => {
  const T0 = '2025-01-01T00:00:00Z';
  const T7 = '2025-01-01T00:00:07Z';
  // [file, the time datasets to import (all: undefined), start, stop]
  const cases: Array<[string, string[] | undefined, string, string]> = [
    ['one-d-root.h5', undefined, T0, T7],
    // /sensor has time in column 0, /matrix in column 2 (both unix seconds); the file's
    // other 2-D datasets hold no time.
    ['two-d.h5', ['/sensor', '/matrix'], T0, T7],
    ['compound.h5', undefined, T0, T7],
  ];
  for (const [file, timeDatasets, start, stop] of cases) {
    test(`${file}: the time range of its time data`, async () => {
      const path = join(fixtures, file);
      const doc = (await inferConfig(path)).document as {
        hdf5Config: Record<string, unknown> & { data: Array<{ timeDataset: string }> };
      };
      doc.hdf5Config.assetName = file;
      if (timeDatasets)
        doc.hdf5Config.data = doc.hdf5Config.data.filter((d) =>
          timeDatasets.includes(d.timeDataset),
        );
      expect(doc.hdf5Config.data.length).toBeGreaterThan(0);
      const done = await client.importFile(path, doc as never, {
        wait: { intervalMs: 5, maxIntervalMs: 20, timeoutMs: 20_000 },
      });
      expect(done.status).toBe('DATA_IMPORT_STATUS_SUCCEEDED');
      expect({ start: done.dataStartTime, stop: done.dataStopTime }).toEqual({ start, stop });
    });
  }
});
