/**
 * The client against the emulator, in its default mode and in strict mode (which refuses
 * what the platform would silently drop): every operation the client has is called as a
 * user calls it, and each must pass in both modes with nothing dropped on the way, so a
 * pipeline tested against `importkit serve --strict` sends only what the platform keeps.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ApiError, type Client, createClient } from '../../src/client/index.js';
import {
  type Emulator,
  type EmulatorSeed,
  seededIds,
  startEmulator,
} from '../../src/emulator/index.js';
import { SECRET } from './_helpers.js';

const MODES = ['default', 'strict'] as const;
const BUCKET = 'https://bucket.example/';
const CSV = 'time,temp\n2024-01-01T00:00:00Z,1.5\n2024-01-01T00:00:02Z,2.5\n';
const SEED: EmulatorSeed = {
  assets: [{ assetId: 'asset-1', name: 'rig' }],
  runs: [{ runId: 'run-1', name: 'seeded', assetIds: ['asset-1'] }],
  channels: [
    { channelId: 'chan-1', name: 'temp', assetId: 'asset-1', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' },
  ],
};
const doc = {
  csvConfig: {
    assetName: 'rig',
    runName: 'client',
    firstDataRow: 2,
    timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_RFC3339' },
    dataColumns: { '2': { name: 'temp', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' } },
  },
} as const;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-client-modes-'));
  await writeFile(join(dir, 'data.csv'), CSV);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.each(MODES)('the client against the emulator (%s mode)', (mode) => {
  let emu: Emulator;
  let client: Client;
  const log: string[] = [];
  beforeAll(async () => {
    emu = await startEmulator({
      apiKeys: { [SECRET]: 'acme' },
      strict: mode === 'strict',
      seed: SEED,
      urlMap: { [BUCKET]: dir },
      log: (line) => log.push(line),
    });
    client = createClient({ baseUrl: emu.url, apiKey: SECRET, retry: 0 });
  });
  afterAll(async () => {
    await emu.close();
  });

  test('the eight operations of the reference pass, nothing dropped', async () => {
    const org = await client.getApiKeyOrganization();
    const ids = seededIds(org.organizationId ?? '');
    const asset = await client.getAsset('asset-1');
    const run = await client.updateRun({
      runId: 'run-1',
      description: 'd',
      startTime: '2024-01-01T02:00:00+02:00',
      isPinned: true,
      metadata: [{ key: { name: 'site', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: 'n' }],
    });
    const channel = await client.updateChannel({
      channelId: 'chan-1',
      active: false,
      displayUnitId: 'u-1',
      displayDescription: 'temperature',
    });
    const viewId = ids.views[0] ?? '';
    const view = await client.updateView({ viewId, name: 'renamed', isPinned: true });
    const search = await client.updateSavedSearch({
      savedSearchId: ids.savedSearches[0] ?? '',
      properties: { searchTerm: 'x', fromDateTime: '2024-01-01T00:00:00.000000001Z' },
    });
    const versions = await client.getUserDefinedFunctionVersions({});
    expect([org.organizationName, asset.name, versions.length]).toEqual(['acme', 'rig', 2]);
    expect(run).toMatchObject({
      description: 'd',
      startTime: '2024-01-01T00:00:00Z',
      isPinned: true,
      metadata: [{ key: { name: 'site', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: 'n' }],
    });
    expect(channel).toMatchObject({ active: false, displayUnitId: 'u-1' });
    expect([view.name, view.isPinned]).toEqual(['renamed', true]);
    expect(search.properties).toMatchObject({
      searchTerm: 'x',
      fromDateTime: '2024-01-01T00:00:00.000000001Z',
    });
    expect(log).toEqual([]);
  });

  test('a field outside the proto’s channel mask is refused by the emulator as by the platform', async () => {
    const err = await client
      .updateChannel({ channelId: 'chan-1', name: 'x' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect([(err as ApiError).status, (err as ApiError).grpcCode]).toEqual([400, 3]);
    expect((err as ApiError).serverMessage).toMatch(
      /display_description, display_units, metadata, active/,
    );
  });

  test('imports: upload, URL (mapped), list, retry, detect; answers as the platform writes them', async () => {
    log.length = 0;
    const created = await client.importFile(join(dir, 'data.csv'), doc);
    await emu.idle();
    const done = await client.waitForImport(created.dataImportId ?? '');
    expect(done).toMatchObject({
      status: 'DATA_IMPORT_STATUS_SUCCEEDED',
      sourceUrl: '',
      errorMessage: '',
      dataStartTime: '2024-01-01T00:00:00Z',
      dataStopTime: '2024-01-01T00:00:02Z',
    });
    // Unpopulated message fields come as null; the client reads them as unset.
    expect(done).not.toHaveProperty('ch10Config');
    expect(done).not.toHaveProperty('warnings');
    const { dataImportId } = await client.createImportFromUrl(`${BUCKET}data.csv`, doc);
    await emu.idle();
    const byUrl = await client.waitForImport(dataImportId);
    expect([byUrl.status, byUrl.sourceUrl]).toEqual([
      'DATA_IMPORT_STATUS_SUCCEEDED',
      `${BUCKET}data.csv`,
    ]);
    const missing = await client.createImportFromUrl(`${BUCKET}nothing.csv`, doc);
    await emu.idle();
    const failed = await client.waitForImport(missing.dataImportId).catch((e: unknown) => e);
    expect((failed as Error).message).toMatch(/HTTP 404/);
    await client.retryDataImport(missing.dataImportId);
    await emu.idle();
    const pages: string[][] = [];
    for await (const p of client.listDataImports({
      pageSize: 2,
      orderBy: 'created_date desc,modified_date',
      filter: '(status == "DATA_IMPORT_STATUS_SUCCEEDED" || status == "DATA_IMPORT_STATUS_FAILED")',
    }))
      pages.push(p.dataImports.map((d) => d.dataImportId ?? ''));
    expect(pages).toEqual([[missing.dataImportId, dataImportId], [done.dataImportId]]);
    const detected = await client.detectConfig(new TextEncoder().encode(CSV), 'DATA_TYPE_KEY_CSV');
    expect(detected.csvConfig?.firstDataRow).toBe(2);
    expect(log).toEqual([]);
  });
});
