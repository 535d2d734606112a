import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type ApiError,
  type Client,
  createClient,
  ImportFailedError,
} from '../../src/client/index.js';
import { type Emulator, parseFaults, seededIds, startEmulator } from '../../src/emulator/index.js';
import { filenameOf } from '../../src/emulator/server.js';
import { corpusDir, json, plainServer, seedResources } from '../client/_helpers.js';

const KEY = 'key-acme';
const OTHER = 'key-other';
let dir: string;
let emu: Emulator;
let client: Client;
const wait = { intervalMs: 5, maxIntervalMs: 20, timeoutMs: 20_000 };

const CSV =
  'time,temp,pressure\n2024-01-01T00:00:00Z,1.5,10\n2024-01-01T00:00:01Z,2.5,11\n2024-01-01T00:00:02Z,3.5,12\n';
const csvDoc = (dataColumns: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  csvConfig: {
    assetName: 'rig-1',
    runName: 'morning',
    firstDataRow: 2,
    timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_RFC3339' as const },
    dataColumns,
    ...extra,
  },
});
const temp = { name: 'temp', dataType: 'CHANNEL_DATA_TYPE_DOUBLE', units: 'C' };
const pressure = { name: 'pressure', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-emu-test-'));
  await writeFile(join(dir, 'data.csv'), CSV);
  emu = await startEmulator({ apiKeys: { [KEY]: 'acme', [OTHER]: 'other' } });
  client = createClient({ baseUrl: emu.url, apiKey: KEY, retry: { limit: 2, backoffMs: 5 } });
});
afterAll(async () => {
  await emu.close();
  await rm(dir, { recursive: true, force: true });
});

describe('import flow', () => {
  test('a valid CSV import succeeds and creates its asset, run and channels', async () => {
    const statuses: string[] = [];
    const done = await client.importFile(
      join(dir, 'data.csv'),
      csvDoc({ '2': temp, '3': pressure }) as never,
      {
        wait: { ...wait, onStatus: (d) => statuses.push(String(d.status)) },
      },
    );
    expect(done.status).toBe('DATA_IMPORT_STATUS_SUCCEEDED');
    expect(statuses.at(-1)).toBe('DATA_IMPORT_STATUS_SUCCEEDED');
    expect(done.errorMessage).toBe('');
    expect([done.dataStartTime, done.dataStopTime]).toEqual([
      '2024-01-01T00:00:00Z',
      '2024-01-01T00:00:02Z',
    ]);
    expect(done.csvConfig?.assetName).toBe('rig-1');
    const asset = await client.getAsset(done.assetId ?? '');
    expect(asset.name).toBe('rig-1');
    expect(asset.organizationId).toBe(emu.organizations.get(KEY)?.organizationId);
    const run = emu.store.data.runs[done.runId ?? '']?.value;
    expect(run?.name).toBe('morning');
    expect(run?.assetIds).toEqual([done.assetId]);
    const channels = Object.values(emu.store.data.channels)
      .map((c) => c.value)
      .filter((c) => c.assetId === done.assetId)
      .map((c) => [c.name, c.dataType, c.unitId]);
    expect(channels).toEqual([
      ['temp', 'CHANNEL_DATA_TYPE_DOUBLE', 'C'],
      ['pressure', 'CHANNEL_DATA_TYPE_DOUBLE', ''],
    ]);
  });

  test('a config naming a column the file lacks fails with a message naming it', async () => {
    const err = await client
      .importFile(
        join(dir, 'data.csv'),
        csvDoc({
          '2': temp,
          '7': { name: 'ghost', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' },
        }) as never,
        { wait },
      )
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportFailedError);
    expect((err as ImportFailedError).errorMessage).toBe(
      "column 7 ('ghost') is past the last column: the file has 3 columns (at /csvConfig/dataColumns/7)",
    );
  });

  test('an invalid document fails with the validator’s message', async () => {
    // importFile validates before sending: the lower-level calls let the emulator see it.
    const target = await client.createImportFromUpload(
      csvDoc(
        { '2': temp },
        { timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_RELATIVE_SECONDS' } },
      ) as never,
    );
    await client.uploadFile(target.uploadUrl, join(dir, 'data.csv'));
    const err = (await client
      .waitForImport(target.dataImportId, wait)
      .catch((e: unknown) => e)) as ImportFailedError;
    expect(err).toBeInstanceOf(ImportFailedError);
    expect(err.errorMessage).toMatch(/^invalid config: .*relativeStartTime/);
  });

  test('a file is uploaded once; a second upload is refused with code 9', async () => {
    const target = await client.createImportFromUpload(csvDoc({ '2': temp }) as never);
    await client.uploadFile(target.uploadUrl, join(dir, 'data.csv'));
    const err = (await client
      .uploadFile(target.uploadUrl, join(dir, 'data.csv'))
      .catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(400);
    expect(err.grpcCode).toBe(9);
    await client.waitForImport(target.dataImportId, wait);
  });

  test('a body without exactly one config is refused with code 3', async () => {
    const err = (await client
      .createImportFromUpload({} as never)
      .catch((e: unknown) => e)) as ApiError;
    expect([err.status, err.grpcCode]).toEqual([400, 3]);
  });

  test('URL imports: loopback http is fetched; others fail; only failed URL imports are retried', async () => {
    let serve = false;
    const files = await plainServer((_req, res) => {
      if (!serve) return json(res, 404, {});
      res.end(CSV);
    });
    try {
      const url = `${files.url}/files/data.csv`;
      const { dataImportId } = await client.createImportFromUrl(
        url,
        csvDoc({ '2': temp }) as never,
      );
      const failed = (await client
        .waitForImport(dataImportId, wait)
        .catch((e: unknown) => e)) as ImportFailedError;
      expect(failed.errorMessage).toBe(`cannot fetch '${url}': HTTP 404`);
      serve = true;
      await client.retryDataImport(dataImportId);
      const done = await client.waitForImport(dataImportId, wait);
      expect(done.sourceUrl).toBe(url);
      expect(done.status).toBe('DATA_IMPORT_STATUS_SUCCEEDED');
      const again = (await client
        .retryDataImport(dataImportId)
        .catch((e: unknown) => e)) as ApiError;
      expect([again.status, again.grpcCode]).toEqual([400, 9]);
    } finally {
      await files.close();
    }
    const remote = await client.createImportFromUrl(
      'https://example.com/x.csv',
      csvDoc({ '2': temp }) as never,
    );
    const err = (await client
      .waitForImport(remote.dataImportId, wait)
      .catch((e: unknown) => e)) as ImportFailedError;
    expect(err.errorMessage).toMatch(
      /^cannot fetch 'https:\/\/example.com\/x.csv': the emulator fetches only http/,
    );
    const bad = (await client
      .createImportFromUrl('ftp://x/y', csvDoc({}) as never)
      .catch((e: unknown) => e)) as ApiError;
    expect([bad.status, bad.grpcCode]).toEqual([400, 3]);
  });

  test('an upload import cannot be retried', async () => {
    const d = await client.importFile(join(dir, 'data.csv'), csvDoc({ '2': temp }) as never, {
      wait,
    });
    const err = (await client
      .retryDataImport(d.dataImportId ?? '')
      .catch((e: unknown) => e)) as ApiError;
    expect(err.grpcCode).toBe(9);
  });
});

describe('list', () => {
  test('pages, filters on status and run_id, orders by date', async () => {
    const mine = createClient({ baseUrl: emu.url, apiKey: OTHER });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const t = await mine.createImportFromUpload(csvDoc({ '2': temp }) as never);
      ids.push(t.dataImportId);
    }
    const pages: string[][] = [];
    for await (const page of mine.listDataImports({ pageSize: 2 }))
      pages.push(page.dataImports.map((d) => d.dataImportId ?? ''));
    expect(pages).toEqual([ids.slice(0, 2), ids.slice(2, 4), ids.slice(4)]);
    const desc: string[] = [];
    for await (const page of mine.listDataImports({ orderBy: 'created_date desc' }))
      desc.push(...page.dataImports.map((d) => d.dataImportId ?? ''));
    expect(desc).toEqual([...ids].reverse());
    const pending: string[] = [];
    for await (const p of mine.listDataImports({
      filter: 'status == "DATA_IMPORT_STATUS_PENDING"',
    }))
      pending.push(...p.dataImports.map((d) => d.dataImportId ?? ''));
    expect(pending).toEqual(ids);
    const none: unknown[] = [];
    for await (const p of mine.listDataImports({
      filter: 'status == "DATA_IMPORT_STATUS_FAILED" || run_id == "nope"',
    }))
      none.push(...p.dataImports);
    expect(none).toEqual([]);
  });

  test('run_id filter finds the imports of a run; a bad filter is code 3', async () => {
    const d = await client.importFile(join(dir, 'data.csv'), csvDoc({ '2': temp }) as never, {
      wait,
    });
    const found: string[] = [];
    for await (const p of client.listDataImports({ filter: `run_id == "${d.runId}"` }))
      found.push(...p.dataImports.map((x) => x.dataImportId ?? ''));
    expect(found).toEqual([d.dataImportId]);
    const iter = client.listDataImports({ filter: 'color == "red"' });
    const err = (await iter.next().catch((e: unknown) => e)) as ApiError;
    expect([err.status, err.grpcCode]).toEqual([400, 3]);
    expect(err.serverMessage).toMatch(/unknown field 'color'/);
  });
});

describe('auth and organizations', () => {
  test('no key or a wrong key: 401 with code 16', async () => {
    const r = await fetch(`${emu.url}/api/v2/api-keys/organization`);
    expect(r.status).toBe(401);
    expect(await r.json()).toEqual({
      code: 16,
      message: 'missing bearer credential (Authorization: Bearer <key>)',
      details: [],
    });
    const w = await fetch(`${emu.url}/api/v2/api-keys/organization`, {
      headers: { authorization: 'Bearer nope' },
    });
    expect(w.status).toBe(401);
    expect(((await w.json()) as { code: number }).code).toBe(16);
  });

  test('ApiKeyOrganization answers the organization of the key used; others’ imports are 404', async () => {
    const other = createClient({ baseUrl: emu.url, apiKey: OTHER });
    expect(await other.getApiKeyOrganization()).toEqual({
      organizationId: emu.organizations.get(OTHER)?.organizationId,
      organizationName: 'other',
      isAbacEnabled: false,
    });
    const t = await client.createImportFromUpload(csvDoc({ '2': temp }) as never);
    const err = (await other.getDataImport(t.dataImportId).catch((e: unknown) => e)) as ApiError;
    expect([err.status, err.grpcCode]).toEqual([404, 5]);
  });
});

describe('update rules', () => {
  test('UpdateRun: mask field by field, unknown fields code 3, client_key once, archive', async () => {
    const { runId } = seedResources(emu, KEY);
    const before = emu.store.data.runs[runId]?.value.modifiedDate;
    const run = await client.updateRun({ runId, name: 'renamed', clientKey: 'ck-1' });
    expect(run.name).toBe('renamed');
    expect(run.clientKey).toBe('ck-1');
    expect(run.modifiedDate).not.toBe(before);
    expect(run.modifiedByUserId).toMatch(/^[0-9a-f-]{36}$/);
    const again = (await client
      .updateRun({ runId, clientKey: 'ck-2' })
      .catch((e: unknown) => e)) as ApiError;
    expect([again.status, again.grpcCode]).toEqual([400, 9]);
    const archived = await client.updateRun({ runId, isArchived: true });
    expect(archived.isArchived).toBe(true);
    expect(archived.archivedDate).toBeDefined();
    const back = await client.updateRun({ runId, isArchived: false });
    expect(back.isArchived).toBe(false);
    expect(back.archivedDate).toBeUndefined();
    expect(back.name).toBe('renamed');
    const raw = await fetch(`${emu.url}/api/v2/runs`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ run: { runId, assetIds: ['x'] }, updateMask: 'asset_ids' }),
    });
    expect(raw.status).toBe(400);
    expect(((await raw.json()) as { code: number }).code).toBe(3);
  });

  test('UpdateChannel toggles active; unknown ids are 404 code 5', async () => {
    const { channelId } = seedResources(emu, KEY);
    expect((await client.updateChannel({ channelId, active: false })).active).toBe(false);
    expect((await client.updateChannel({ channelId, active: true })).active).toBe(true);
    const err = (await client
      .updateChannel({ channelId: 'missing', active: true })
      .catch((e: unknown) => e)) as ApiError;
    expect([err.status, err.grpcCode]).toEqual([404, 5]);
    const raw = await fetch(`${emu.url}/api/v3/channels`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ channel: { channelId, active: true } }),
    });
    expect(((await raw.json()) as { code: number }).code).toBe(3);
  });

  test('seeded views, saved search and function versions can be exercised', async () => {
    const orgId = emu.organizations.get(KEY)?.organizationId ?? '';
    const ids = seededIds(orgId);
    const view = await client.updateView({
      viewId: ids.views[0] ?? '',
      name: 'Renamed',
      isPinned: true,
    });
    expect([view.name, view.isPinned, view.organizationId]).toEqual(['Renamed', true, orgId]);
    const search = await client.updateSavedSearch({
      savedSearchId: ids.savedSearches[0] ?? '',
      name: 'Mine',
    });
    expect(search.name).toBe('Mine');
    expect(search.properties?.overviewMode).toBe('runs');
    const versions = await client.getUserDefinedFunctionVersions();
    expect(versions.map((v) => [v.userDefinedFunctionVersionId, v.version])).toEqual([
      [ids.userDefinedFunctionVersions[0], 1],
      [ids.userDefinedFunctionVersions[1], 2],
    ]);
    const one = await client.getUserDefinedFunctionVersions({
      userDefinedFunctionVersionIds: [ids.userDefinedFunctionVersions[1] ?? ''],
    });
    expect(one.map((v) => v.version)).toEqual([2]);
    const badMask = (await client
      .updateView({ viewId: ids.views[0] ?? '', name: 'x' }, { updateMask: 'organization_id' })
      .catch((e: unknown) => e)) as ApiError;
    expect(badMask.grpcCode).toBe(3);
  });
});

describe('persistence', () => {
  test('with a data directory, a restart loses nothing', async () => {
    const dataDir = join(dir, 'state');
    const first = await startEmulator({ dataDir, apiKeys: { [KEY]: 'acme' } });
    const c1 = createClient({ baseUrl: first.url, apiKey: KEY });
    const done = await c1.importFile(join(dir, 'data.csv'), csvDoc({ '2': temp }) as never, {
      wait,
    });
    const run = await c1.updateRun({ runId: done.runId ?? '', description: 'kept' });
    expect(run.description).toBe('kept');
    const stored = structuredClone(first.store.data.runs[done.runId ?? '']?.value);
    const asset = await c1.getAsset(done.assetId ?? '');
    await first.close();
    const second = await startEmulator({ dataDir, apiKeys: { [KEY]: 'acme' } });
    try {
      const c2 = createClient({ baseUrl: second.url, apiKey: KEY });
      expect(await c2.getDataImport(done.dataImportId ?? '')).toEqual(done);
      expect(await c2.getAsset(done.assetId ?? '')).toEqual(asset);
      expect(second.store.data.runs[done.runId ?? '']?.value).toEqual(stored);
    } finally {
      await second.close();
    }
  });
});

describe('faults and headers', () => {
  test('SPEC parsing', () => {
    expect(parseFaults('503=0.2,429=3x:2,latency=50%:100,drop=0.01,seed=7')).toEqual({
      seed: 7,
      rules: [
        { kind: '503', rate: 0.2 },
        { kind: '429', rate: 1, count: 3, param: 2 },
        { kind: 'latency', rate: 0.5, param: 100 },
        { kind: 'drop', rate: 0.01 },
      ],
    });
    expect(() => parseFaults('500=0.1')).toThrow(/unknown kind '500'/);
    expect(() => parseFaults('503=2')).toThrow(/probability/);
  });

  test('Content-Disposition names are read back', () => {
    expect(filenameOf('attachment; filename="a \\"b\\".csv"')).toBe('a "b".csv');
    expect(filenameOf(`attachment; filename="_.csv"; filename*=UTF-8''%C3%A9t%C3%A9.csv`)).toBe(
      'été.csv',
    );
    expect(filenameOf(undefined)).toBeUndefined();
  });
});

describe('detect config', () => {
  test('CSV bytes get a CSV config from importkit’s inference; other types are code 3', async () => {
    const detected = await client.detectConfig(Buffer.from(CSV), 'DATA_TYPE_KEY_CSV');
    const csv = detected.csvConfig;
    expect(csv?.timeColumn).toEqual({ columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_RFC3339' });
    expect(Object.keys(csv?.dataColumns ?? {})).toEqual(['2', '3']);
    const err = (await client
      .detectConfig(new Uint8Array([1, 2]), 'DATA_TYPE_KEY_TDMS')
      .catch((e: unknown) => e)) as ApiError;
    expect([err.status, err.grpcCode]).toEqual([400, 3]);
  });
});

describe('other kinds', () => {
  test('Parquet and HDF5 corpus files with their inferred configs succeed; a missing Parquet column fails naming it', async () => {
    const { inferConfig } = await import('../../src/infer/index.js');
    const parquet = join(corpusDir, 'parquet-flat.parquet');
    const draft = await inferConfig(parquet);
    const doc = draft.document as {
      parquetConfig: Record<string, unknown> & { flatDataset: { dataColumns: unknown[] } };
    };
    doc.parquetConfig.assetName = 'pq';
    const done = await client.importFile(parquet, doc as never, { wait });
    expect(done.status).toBe('DATA_IMPORT_STATUS_SUCCEEDED');
    expect(done.dataStartTime).toBe('2024-01-01T00:00:00Z');
    const named = new Set(
      Object.values(emu.store.data.channels)
        .filter((c) => c.value.assetId === done.assetId)
        .map((c) => c.value.name),
    );
    expect(named.size).toBe(doc.parquetConfig.flatDataset.dataColumns.length);
    const broken = structuredClone(doc);
    broken.parquetConfig.flatDataset.dataColumns.push({
      path: 'no_such_column',
      channelConfig: { name: 'nope', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' },
    });
    const err = (await client
      .importFile(parquet, broken as never, { wait })
      .catch((e: unknown) => e)) as ImportFailedError;
    expect(err).toBeInstanceOf(ImportFailedError);
    expect(err.errorMessage).toContain('no_such_column');

    const h5 = join(corpusDir, 'hdf5-one-d.h5');
    const h5doc = (await inferConfig(h5)).document as { hdf5Config: Record<string, unknown> };
    h5doc.hdf5Config.assetName = 'h5';
    expect((await client.importFile(h5, h5doc as never, { wait })).status).toBe(
      'DATA_IMPORT_STATUS_SUCCEEDED',
    );
  });

  test('the ULog example with its inferred config succeeds; a wrong message name fails naming it', async () => {
    const { inferConfig } = await import('../../src/infer/index.js');
    const ulg = join(
      import.meta.dirname,
      '..',
      '..',
      'fixtures',
      'platform-examples',
      'ulog-sample.ulg',
    );
    const doc = (await inferConfig(ulg)).document as {
      ulogConfig: { assetName?: string; data: Array<Record<string, unknown>> };
    };
    doc.ulogConfig.assetName = 'drone';
    const done = await client.importFile(ulg, doc as never, { wait });
    expect(done.status).toBe('DATA_IMPORT_STATUS_SUCCEEDED');
    const named = Object.values(emu.store.data.channels).filter(
      (c) => c.value.assetId === done.assetId,
    );
    expect(named).toHaveLength(doc.ulogConfig.data.length);
    const broken = structuredClone(doc);
    broken.ulogConfig.data.push({
      messageName: 'sensor_acel',
      instance: '0',
      fieldName: 'x',
      channelConfig: { name: 'typo', dataType: 'CHANNEL_DATA_TYPE_FLOAT' },
    });
    const err = (await client
      .importFile(ulg, broken as never, { wait })
      .catch((e: unknown) => e)) as ImportFailedError;
    expect(err).toBeInstanceOf(ImportFailedError);
    expect(err.errorMessage).toBe(
      'sensor_acel is not a message of the log (at /ulogConfig/data/12/messageName)',
    );
  });
});
