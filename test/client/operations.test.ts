import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createClient, RequestError } from '../../src/client/index.js';
import { json, plainServer, SECRET } from './_helpers.js';

interface Seen {
  method: string;
  url: string;
  body: unknown;
}

/**
 * A server written from the reference alone (not the emulator): it records each request
 * and answers with the resource wrapped as the reference says, plus fields and enum
 * values this client does not know.
 */
let srv: Awaited<ReturnType<typeof plainServer>>;
let seen: Seen[] = [];
const extra = { addedLater: { nested: true } };
beforeAll(async () => {
  srv = await plainServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString();
    const body = text ? JSON.parse(text) : undefined;
    seen.push({ method: req.method ?? '', url: req.url ?? '', body });
    const path = new URL(req.url ?? '', 'http://x').pathname;
    const b = (body ?? {}) as Record<string, Record<string, unknown>>;
    if (path.startsWith('/api/v1/views/')) return json(res, 200, { view: { ...b.view, ...extra } });
    if (path === '/api/v2/api-keys/organization')
      return json(res, 200, {
        organization: {
          organizationId: 'o1',
          organizationName: 'Org',
          isAbacEnabled: true,
          ...extra,
        },
      });
    if (path === '/api/v2/runs') return json(res, 200, { run: { ...b.run, ...extra } });
    if (path === '/api/v3/channels')
      return json(res, 200, {
        channel: { ...b.channel, dataType: 'CHANNEL_DATA_TYPE_QUATERNION', ...extra },
      });
    if (path === '/api/v1/saved_searches')
      return json(res, 200, { savedSearch: { ...b.savedSearch, ...extra } });
    if (path === '/api/v1/user-defined-functions/versions')
      return json(res, 200, {
        userDefinedFunctions: [{ userDefinedFunctionVersionId: 'v1', version: 1, ...extra }],
        nextPageToken: 'n',
      });
    if (path.startsWith('/api/v1/assets/'))
      return json(res, 200, { asset: { assetId: path.split('/').pop(), ...extra } });
    if (path === '/api/v2/data-imports:upload')
      return json(res, 200, {
        uploadUrl: `http://127.0.0.1:${req.socket.localPort ?? 0}/up/1`,
        dataImportId: 'd1',
      });
    if (path === '/api/v2/data-imports:url') return json(res, 200, { dataImportId: 'd2' });
    if (path === '/api/v2/data-imports:detect-config')
      return json(res, 200, { csvConfig: { firstDataRow: 2 } });
    if (path.endsWith(':retry')) return json(res, 200, {});
    if (path === '/api/v2/data-imports') {
      const token = new URL(req.url ?? '', 'http://x').searchParams.get('pageToken');
      return json(
        res,
        200,
        token
          ? { dataImports: [{ dataImportId: 'b' }] }
          : {
              dataImports: [{ dataImportId: 'a', status: 'DATA_IMPORT_STATUS_PAUSED' }],
              nextPageToken: 't2',
            },
      );
    }
    if (path.startsWith('/api/v2/data-imports/'))
      return json(res, 200, {
        dataImport: { dataImportId: 'd1', status: 'DATA_IMPORT_STATUS_SUCCEEDED', ...extra },
      });
    json(res, 404, { code: 5, message: 'no' });
  });
});
afterAll(async () => {
  await srv.close();
});

const c = () => createClient({ baseUrl: srv.url, apiKey: SECRET, retry: 0 });

describe('the eight operations, as the reference writes them', () => {
  test('each answers the resource itself, keeping unknown fields and enum values', async () => {
    seen = [];
    const client = c();
    const view = await client.updateView({ viewId: 'v 1', name: 'n', isPinned: true });
    const org = await client.getApiKeyOrganization();
    const run = await client.updateRun({
      runId: 'r1',
      isArchived: true,
      startTime: '2024-01-01T00:00:00Z',
    });
    const channel = await client.updateChannel({
      channelId: 'c1',
      active: false,
      displayUnitId: 'u',
    });
    const di = await client.getDataImport('d/1');
    const udfs = await client.getUserDefinedFunctionVersions({
      userDefinedFunctionId: 'f',
      limit: 5,
      ids: ['a', 'b'],
    });
    const asset = await client.getAsset('a1');
    const search = await client.updateSavedSearch({
      savedSearchId: 's1',
      properties: { searchTerm: 'x' },
    });
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      'PATCH /api/v1/views/v%201',
      'GET /api/v2/api-keys/organization',
      'PATCH /api/v2/runs',
      'PATCH /api/v3/channels',
      'GET /api/v2/data-imports/d%2F1',
      'GET /api/v1/user-defined-functions/versions?userDefinedFunctionId=f&limit=5&ids=a&ids=b',
      'GET /api/v1/assets/a1',
      'PATCH /api/v1/saved_searches',
    ]);
    expect(seen.map((s) => s.body)).toEqual([
      { view: { viewId: 'v 1', name: 'n', isPinned: true }, updateMask: 'name,is_pinned' },
      undefined,
      {
        run: { runId: 'r1', isArchived: true, startTime: '2024-01-01T00:00:00Z' },
        updateMask: 'is_archived,start_time',
      },
      {
        channel: { channelId: 'c1', active: false, displayUnitId: 'u' },
        updateMask: 'active,display_units',
      },
      undefined,
      undefined,
      undefined,
      {
        savedSearch: { savedSearchId: 's1', properties: { searchTerm: 'x' } },
        updateMask: 'properties',
      },
    ]);
    expect(view).toEqual({ viewId: 'v 1', name: 'n', isPinned: true, ...extra });
    expect(org).toEqual({
      organizationId: 'o1',
      organizationName: 'Org',
      isAbacEnabled: true,
      ...extra,
    });
    expect(run).toEqual({
      runId: 'r1',
      isArchived: true,
      startTime: '2024-01-01T00:00:00Z',
      ...extra,
    });
    expect(channel.dataType).toBe('CHANNEL_DATA_TYPE_QUATERNION');
    expect(di).toEqual({ dataImportId: 'd1', status: 'DATA_IMPORT_STATUS_SUCCEEDED', ...extra });
    expect(udfs).toEqual([{ userDefinedFunctionVersionId: 'v1', version: 1, ...extra }]);
    expect(asset).toEqual({ assetId: 'a1', ...extra });
    expect(search).toEqual({ savedSearchId: 's1', properties: { searchTerm: 'x' }, ...extra });
  });

  test('an explicit mask is sent as given', async () => {
    seen = [];
    await c().updateRun({ runId: 'r1', name: 'n', description: 'd' }, { updateMask: 'name' });
    expect(seen[0]?.body).toEqual({
      run: { runId: 'r1', name: 'n', description: 'd' },
      updateMask: 'name',
    });
  });

  test('updateRun refuses fields its mask does not allow, before sending anything', async () => {
    seen = [];
    const client = c();
    const a = await client.updateRun({ runId: 'r1', assetIds: ['x'] }).catch((e: unknown) => e);
    expect(a).toBeInstanceOf(RequestError);
    expect((a as RequestError).message).toBe(
      "updateRun: 'asset_ids' cannot be updated; the mask allows name, description, start_time, stop_time, is_pinned, client_key, tags, is_archived, metadata",
    );
    const b = await client
      .updateRun({ runId: 'r1', name: 'n' }, { updateMask: 'name,duration' })
      .catch((e: unknown) => e);
    expect((b as RequestError).message).toMatch(/'duration' cannot be updated/);
    const none = await client.updateRun({ runId: 'r1' }).catch((e: unknown) => e);
    expect((none as RequestError).code).toBe('update_mask_invalid');
    expect((none as RequestError).issueCode).toBe('update_mask_invalid');
    const noId = await client
      .updateChannel({ channelId: '', active: true })
      .catch((e: unknown) => e);
    expect((noId as Error).message).toBe("updateChannel: 'channelId' is required");
    expect(seen).toEqual([]);
  });
});

describe('data-import operations', () => {
  test('create, url, retry, detect and list: methods, paths and bodies', async () => {
    seen = [];
    const client = c();
    const target = await client.createImportFromUpload({
      url: 'ignored',
      csvConfig: { assetName: 'a' },
    });
    const byUrl = await client.createImportFromUrl('s3://b/k.csv', {
      csvConfig: { assetName: 'a' },
    });
    await client.retryDataImport('d2');
    const detected = await client.detectConfig(new Uint8Array([104, 105]), 'DATA_TYPE_KEY_CSV');
    const pages: string[][] = [];
    for await (const p of client.listDataImports({
      pageSize: 1,
      filter: 'status == "X"',
      orderBy: 'created_date desc',
    }))
      pages.push(p.dataImports.map((d) => `${d.dataImportId}:${d.status ?? ''}`));
    expect(target).toEqual({ uploadUrl: expect.stringMatching(/\/up\/1$/), dataImportId: 'd1' });
    expect(byUrl).toEqual({ dataImportId: 'd2' });
    expect(detected).toEqual({ csvConfig: { firstDataRow: 2 } });
    expect(pages).toEqual([['a:DATA_IMPORT_STATUS_PAUSED'], ['b:']]);
    expect(seen.map((s) => [`${s.method} ${decodeURIComponent(s.url)}`, s.body])).toEqual([
      ['POST /api/v2/data-imports:upload', { csvConfig: { assetName: 'a' } }],
      ['POST /api/v2/data-imports:url', { csvConfig: { assetName: 'a' }, url: 's3://b/k.csv' }],
      ['POST /api/v2/data-imports/d2:retry', {}],
      ['POST /api/v2/data-imports:detect-config', { data: 'aGk=', type: 'DATA_TYPE_KEY_CSV' }],
      [
        'GET /api/v2/data-imports?pageSize=1&filter=status+==+"X"&orderBy=created_date+desc',
        undefined,
      ],
      [
        'GET /api/v2/data-imports?pageSize=1&pageToken=t2&filter=status+==+"X"&orderBy=created_date+desc',
        undefined,
      ],
    ]);
  });
});
