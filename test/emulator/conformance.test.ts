/**
 * Conformance of the emulator with the platform, over HTTP: one row per behaviour (the
 * reference's rules, protobuf's JSON mapping behind the standard gRPC-to-JSON gateway where
 * the reference is silent, and the emulator's own documented choices), each naming its
 * operation, the request, and the answer expected (status, gRPC code, body shape), run
 * against the emulator in its default mode and in strict mode. A row whose answer differs
 * in strict mode says so with `strict`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, isAbsolute, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Expected as Ch10Expected } from '../../scripts/fixtures/ch10.js';
import {
  type Emulator,
  type EmulatorSeed,
  seededIds,
  startEmulator,
} from '../../src/emulator/index.js';
import { normalizeTimestamp } from '../../src/emulator/proto-read.js';
import { fixtureCases } from '../helpers/fixtures.js';
import { platformExamples } from '../helpers/paths.js';

const { load: ch10Expected, file: ch10File } = fixtureCases<Ch10Expected>('ch10', '.ch10');
const ch10Dir = join(ch10File('recorder'), '..');

type Mode = 'default' | 'strict';
const MODES: Mode[] = ['default', 'strict'];
const KEY = 'conformance-key';
const OTHER = 'conformance-other';
const BUCKET = 'https://bucket.example/';

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

interface Expected {
  status: number;
  /** The status object's gRPC code (error answers). */
  code?: number;
  /** More about the body (and the emulator's log). */
  shape?: (body: Record<string, unknown>, log: readonly string[], answer: Answer) => void;
}

interface Row {
  /** The behaviour, as the issue or the reference names it. */
  behaviour: string;
  operation: string;
  /** The request, or the steps (an import: create, upload, wait), ending in the answer checked. */
  act: (mode: Mode) => Promise<Answer>;
  expect: Expected;
  /** What strict mode answers instead. */
  strict?: Expected;
}

const CSV =
  'time,temp\n2024-01-01T00:00:00Z,1.5\n2024-01-01T00:00:01Z,2.5\n2024-01-01T00:00:02Z,3\n';
const SEED: EmulatorSeed = {
  assets: [{ assetId: 'asset-1', name: 'rig' }],
  runs: [
    {
      runId: 'run-1',
      name: 'seeded',
      assetIds: ['asset-1'],
      startTime: '2023-06-01T00:00:00Z',
      stopTime: '2030-01-01T00:00:00Z',
    },
    { runId: 'run-2', name: 'keyed', clientKey: 'ck-1' },
  ],
  channels: [
    {
      channelId: 'chan-1',
      name: 'temp',
      assetId: 'asset-1',
      dataType: 'CHANNEL_DATA_TYPE_DOUBLE',
      active: true,
    },
  ],
};

let dir: string;
const emus = {} as Record<Mode, Emulator>;
const logs: Record<Mode, string[]> = { default: [], strict: [] };
let viewId: string;
let savedSearchId: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-conformance-'));
  await writeFile(join(dir, 'data.csv'), CSV);
  for (const mode of MODES) {
    emus[mode] = await startEmulator({
      apiKeys: { [KEY]: 'acme', [OTHER]: 'other' },
      strict: mode === 'strict',
      seed: SEED,
      urlMap: { [BUCKET]: dir },
      log: (line) => logs[mode].push(line),
    });
  }
  // The same organization name gives the same ids in both emulators.
  const ids = seededIds(emus.default.organizations.get(KEY)?.organizationId ?? '');
  viewId = ids.views[0] ?? '';
  savedSearchId = ids.savedSearches[0] ?? '';
});
afterAll(async () => {
  for (const mode of MODES) await emus[mode]?.close();
  await rm(dir, { recursive: true, force: true });
});

async function call(
  mode: Mode,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = { authorization: `Bearer ${KEY}` },
): Promise<Answer> {
  const url = path.startsWith('http') ? path : `${emus[mode].url}${path}`;
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : {} };
}

const patch = (path: string, body: unknown) => (mode: Mode) => call(mode, 'PATCH', path, body);
const get = (path: string) => (mode: Mode) => call(mode, 'GET', path);

/** Create an upload import with `document`, upload the CSV, and answer its final GetDataImport. */
async function importCsv(mode: Mode, document: unknown, csv = CSV): Promise<Answer> {
  const created = await call(mode, 'POST', '/api/v2/data-imports:upload', document);
  if (created.status !== 200) return created;
  const up = await fetch(String(created.body.uploadUrl), {
    method: 'POST',
    headers: {
      authorization: `Bearer ${KEY}`,
      'content-disposition': 'attachment; filename="data.csv"',
    },
    body: csv,
  });
  if (up.status !== 200) throw new Error(`upload answered ${up.status}`);
  return waitFor(mode, String(created.body.dataImportId));
}

async function waitFor(mode: Mode, id: string): Promise<Answer> {
  await emus[mode].idle();
  return call(mode, 'GET', `/api/v2/data-imports/${id}`);
}

const csvConfig = (extra: Record<string, unknown> = {}) => ({
  assetName: 'rig',
  runName: 'conformance',
  firstDataRow: 2,
  timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_RFC3339' },
  dataColumns: { '2': { name: 'temp', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' } },
  ...extra,
});

const imported = (body: Record<string, unknown>) => body.dataImport as Record<string, unknown>;
const status = (s: string) => (body: Record<string, unknown>) =>
  expect(imported(body).status).toBe(`DATA_IMPORT_STATUS_${s}`);
const logged = (pattern: RegExp) => (_b: unknown, log: readonly string[]) =>
  expect(log.some((l) => pattern.test(l))).toBe(true);
const message = (pattern: RegExp) => (body: Record<string, unknown>) =>
  expect(String(body.message)).toMatch(pattern);

/** protobuf's JSON writer: UTC, `Z`, and 0, 3, 6 or 9 fractional digits. */
const PROTO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.(\d{3}|\d{6}|\d{9}))?Z$/;

const ROWS: Row[] = [
  // --- The reference's rules -----------------------------------------------------------
  {
    behaviour: 'a missing bearer credential is 401, code 16, with WWW-Authenticate',
    operation: 'GetAsset',
    act: (mode) => call(mode, 'GET', '/api/v1/assets/asset-1', undefined, {}),
    expect: {
      status: 401,
      code: 16,
      shape: (_b, _l, a) => expect(a.headers.get('www-authenticate')).toMatch(/^Bearer /),
    },
  },
  {
    behaviour: 'an unknown key is 401, code 16, WWW-Authenticate naming invalid_token',
    operation: 'ApiKeyOrganization',
    act: (mode) =>
      call(mode, 'GET', '/api/v2/api-keys/organization', undefined, {
        authorization: 'Bearer nope',
      }),
    expect: {
      status: 401,
      code: 16,
      shape: (_b, _l, a) =>
        expect(a.headers.get('www-authenticate')).toMatch(/error="invalid_token"/),
    },
  },
  {
    behaviour: 'ApiKeyOrganization answers the key’s organization',
    operation: 'ApiKeyOrganization',
    act: get('/api/v2/api-keys/organization'),
    expect: {
      status: 200,
      shape: (b) =>
        expect(b.organization).toEqual({
          organizationId: expect.any(String),
          organizationName: 'acme',
          isAbacEnabled: false,
        }),
    },
  },
  {
    behaviour: 'GetAsset answers the asset, every field of the message',
    operation: 'GetAsset',
    act: get('/api/v1/assets/asset-1'),
    expect: {
      status: 200,
      shape: (b) =>
        expect(Object.keys(b.asset as object).sort()).toEqual(
          [
            'assetId',
            'name',
            'organizationId',
            'createdDate',
            'createdByUserId',
            'modifiedDate',
            'modifiedByUserId',
            'tags',
            'metadata',
            'isArchived',
            'archivedDate',
          ].sort(),
        ),
    },
  },
  {
    behaviour: 'another organization’s asset is 404, code 5',
    operation: 'GetAsset',
    act: (mode) =>
      call(mode, 'GET', '/api/v1/assets/asset-1', undefined, { authorization: `Bearer ${OTHER}` }),
    expect: { status: 404, code: 5 },
  },
  {
    behaviour: 'UpdateRun rule 1: only the masked fields change',
    operation: 'UpdateRun',
    act: patch('/api/v2/runs', {
      run: { runId: 'run-1', name: 'not this', description: 'this' },
      updateMask: 'description',
    }),
    expect: {
      status: 200,
      shape: (b) =>
        expect(b.run).toMatchObject({ runId: 'run-1', name: 'seeded', description: 'this' }),
    },
  },
  {
    behaviour: 'UpdateRun rule 2: a path outside the list is 400, code 3',
    operation: 'UpdateRun',
    act: patch('/api/v2/runs', {
      run: { runId: 'run-1', assetIds: ['x'] },
      updateMask: 'asset_ids',
    }),
    expect: { status: 400, code: 3, shape: message(/asset_ids/) },
  },
  {
    behaviour: 'UpdateRun rule 4: client_key set a second time is an error (400, code 9)',
    operation: 'UpdateRun',
    act: patch('/api/v2/runs', {
      run: { runId: 'run-2', clientKey: 'ck-2' },
      updateMask: 'client_key',
    }),
    expect: { status: 400, code: 9 },
  },
  {
    behaviour: 'UpdateView takes the view id from the path',
    operation: 'UpdateView',
    act: (mode) =>
      seededView(mode).then((id) =>
        call(mode, 'PATCH', `/api/v1/views/${id}`, {
          view: { name: 'renamed' },
          updateMask: 'name',
        }),
      ),
    expect: {
      status: 200,
      shape: (b) => expect((b.view as { name: string }).name).toBe('renamed'),
    },
  },
  {
    behaviour: 'GetUserDefinedFunctionVersions answers the versions',
    operation: 'GetUserDefinedFunctionVersions',
    act: get('/api/v1/user-defined-functions/versions'),
    expect: {
      status: 200,
      shape: (b) => expect((b.userDefinedFunctions as unknown[]).length).toBe(2),
    },
  },
  {
    behaviour: 'RetryDataImport: an upload import cannot be retried (400, code 9)',
    operation: 'RetryDataImport',
    act: async (mode) => {
      const created = await call(mode, 'POST', '/api/v2/data-imports:upload', {
        csvConfig: csvConfig(),
      });
      return call(mode, 'POST', `/api/v2/data-imports/${created.body.dataImportId}:retry`, {});
    },
    expect: { status: 400, code: 9, shape: message(/only URL imports can be retried/) },
  },
  {
    behaviour: 'ListDataImports: order_by and page_token, as the proto names them, are applied',
    operation: 'ListDataImports',
    act: async (mode) => {
      await importCsv(mode, { csvConfig: csvConfig({ runName: 'older' }) });
      await importCsv(mode, { csvConfig: csvConfig({ runName: 'newer' }) });
      const q = '/api/v2/data-imports?page_size=1&order_by=created_date%20desc';
      const first = await call(mode, 'GET', q);
      const next = await call(mode, 'GET', `${q}&page_token=${first.body.nextPageToken}`);
      return { ...next, body: { pages: [first.body, next.body] } };
    },
    expect: {
      status: 200,
      shape: (b) => {
        const runs = (b.pages as Array<{ dataImports: Array<{ csvConfig: { runName: string } }> }>)
          .flatMap((p) => p.dataImports)
          .map((d) => d.csvConfig.runName);
        expect(runs).toEqual(['newer', 'older']);
      },
    },
  },
  {
    behaviour: '8: a masked field the body leaves out is answered with its default, not left out',
    operation: 'UpdateView',
    act: (mode) =>
      seededView(mode).then((id) =>
        call(mode, 'PATCH', `/api/v1/views/${id}`, { view: {}, updateMask: 'name' }),
      ),
    expect: { status: 200, shape: (b) => expect((b.view as { name: unknown }).name).toBe('') },
  },
  // --- 1. Invalid timestamps ----------------------------------------------------------
  {
    behaviour: '1: an UpdateRun startTime that is not a timestamp is 400, code 3',
    operation: 'UpdateRun',
    act: patch('/api/v2/runs', {
      run: { runId: 'run-1', startTime: 'not a time' },
      updateMask: 'start_time',
    }),
    expect: { status: 400, code: 3, shape: message(/run\.startTime.*RFC 3339/) },
  },
  {
    behaviour: '1: a saved search properties.fromDateTime of "yesterday" is 400, code 3',
    operation: 'UpdateSavedSearch',
    act: (mode) =>
      call(mode, 'PATCH', '/api/v1/saved_searches', {
        savedSearch: {
          savedSearchId: savedSearchOf(mode),
          properties: { fromDateTime: 'yesterday' },
        },
        updateMask: 'properties',
      }),
    expect: { status: 400, code: 3, shape: message(/properties\.fromDateTime/) },
  },
  {
    behaviour: '1: a config timestamp that is not one is 400 at the create call',
    operation: 'CreateDataImportFromUpload',
    act: (mode) =>
      call(mode, 'POST', '/api/v2/data-imports:upload', {
        csvConfig: csvConfig({
          timeColumn: { columnNumber: 1, relativeStartTime: '2024-13-01T00:00:00Z' },
        }),
      }),
    expect: { status: 400, code: 3, shape: message(/relativeStartTime/) },
  },
  // --- 2. Unknown enum names and fields ---------------------------------------------
  {
    behaviour: '2: UpdateChannel dataType NOT_A_TYPE is dropped, never echoed (strict: 400)',
    operation: 'UpdateChannel',
    act: patch('/api/v3/channels', {
      channel: { channelId: 'chan-1', dataType: 'NOT_A_TYPE', active: true },
      updateMask: 'active',
    }),
    expect: {
      status: 200,
      shape: (b, log) => {
        expect((b.channel as { dataType: string }).dataType).toBe('CHANNEL_DATA_TYPE_DOUBLE');
        logged(/UpdateChannel: dropped channel\.dataType, an unknown enum name 'NOT_A_TYPE'/)(
          b,
          log,
        );
      },
    },
    strict: { status: 400, code: 3, shape: message(/NOT_A_TYPE.*strict/) },
  },
  {
    behaviour: '2: a metadata key.type BOGUS and an entry’s extra: true are dropped (strict: 400)',
    operation: 'UpdateRun',
    act: patch('/api/v2/runs', {
      run: {
        runId: 'run-1',
        metadata: [{ key: { name: 'site', type: 'BOGUS' }, stringValue: 'north', extra: true }],
      },
      updateMask: 'metadata',
    }),
    expect: {
      status: 200,
      shape: (b, log) => {
        const [entry] = (b.run as { metadata: Array<Record<string, unknown>> }).metadata;
        expect(entry).toEqual({
          key: {
            name: 'site',
            type: 'METADATA_KEY_TYPE_UNSPECIFIED',
            archivedDate: null,
            isArchived: false,
          },
          stringValue: 'north',
          archivedDate: null,
          isArchived: false,
        });
        logged(/dropped run\.metadata\[0\]\.key\.type/)(b, log);
        logged(/dropped run\.metadata\[0\]\.extra, an unknown field/)(b, log);
      },
    },
    strict: { status: 400, code: 3, shape: message(/BOGUS/) },
  },
  {
    behaviour: '2: properties.hack in a saved search is dropped (strict: 400)',
    operation: 'UpdateSavedSearch',
    act: (mode) =>
      call(mode, 'PATCH', '/api/v1/saved_searches', {
        savedSearch: {
          savedSearchId: savedSearchOf(mode),
          properties: { searchTerm: 'x', hack: 1 },
        },
        updateMask: 'properties',
      }),
    expect: {
      status: 200,
      shape: (b) => expect(b.savedSearch).not.toHaveProperty('properties.hack'),
    },
    strict: { status: 400, code: 3, shape: message(/savedSearch\.properties\.hack/) },
  },
  {
    behaviour: '2: an unknown key in csvConfig is dropped and the import succeeds (strict: FAILED)',
    operation: 'CreateDataImportFromUpload',
    act: (mode) => importCsv(mode, { csvConfig: csvConfig({ delimiter: ';' }) }),
    expect: {
      status: 200,
      shape: (b, log) => {
        status('SUCCEEDED')(b);
        expect(imported(b).csvConfig).not.toHaveProperty('delimiter');
        logged(/dropped csvConfig\.delimiter/)(b, log);
        logged(/the validator, on the config as sent: error at \/csvConfig\/delimiter/)(b, log);
      },
    },
    strict: {
      status: 200,
      shape: (b) => {
        status('FAILED')(b);
        expect(imported(b).errorMessage).toMatch(/^invalid config: .*delimiter/);
      },
    },
  },
  // --- 3. Oneof conflicts and wrong JSON types --------------------------------------
  {
    behaviour: '3: a metadata value with stringValue and numberValue is 400 (oneof already set)',
    operation: 'UpdateRun',
    act: patch('/api/v2/runs', {
      run: { runId: 'run-1', metadata: [{ key: { name: 'k' }, stringValue: 'a', numberValue: 1 }] },
      updateMask: 'metadata',
    }),
    expect: { status: 400, code: 3, shape: message(/oneof field is already set/) },
  },
  {
    behaviour: '3: firstDataRow "two" is 400 at the create call',
    operation: 'CreateDataImportFromUpload',
    act: (mode) =>
      call(mode, 'POST', '/api/v2/data-imports:upload', {
        csvConfig: csvConfig({ firstDataRow: 'two' }),
      }),
    expect: { status: 400, code: 3, shape: message(/csvConfig\.firstDataRow/) },
  },
  {
    behaviour: '3: a string for a boolean is 400',
    operation: 'UpdateView',
    act: (mode) =>
      seededView(mode).then((id) =>
        call(mode, 'PATCH', `/api/v1/views/${id}`, {
          view: { isPinned: 'yes' },
          updateMask: 'is_pinned',
        }),
      ),
    expect: { status: 400, code: 3 },
  },
  // --- 4. Proto JSON variants ---------------------------------------------------------
  {
    behaviour:
      '4: csv_config, firstDataRow "2", dataType 5, key "1" and null are read and normalised; the import succeeds',
    operation: 'CreateDataImportFromUpload',
    act: (mode) =>
      importCsv(
        mode,
        {
          csv_config: {
            ...csvConfig({ firstDataRow: '2', run_name: null }),
            runName: undefined,
            time_column: { column_number: 1, format: 10 },
            timeColumn: undefined,
            dataColumns: {
              '2': { name: 'state', dataType: 3, enum_types: [{ name: 'low', key: '1' }] },
            },
          },
        },
        'time,state\n2024-01-01T00:00:00Z,1\n2024-01-01T00:00:01Z,1\n',
      ),
    expect: {
      status: 200,
      shape: (b) => {
        status('SUCCEEDED')(b);
        const c = imported(b).csvConfig as Record<string, unknown>;
        expect(c.firstDataRow).toBe(2);
        expect(c.runName).toBe('');
        expect(c.timeColumn).toEqual({ columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_RFC3339' });
        expect((c.dataColumns as Record<string, Record<string, unknown>>)['2']).toMatchObject({
          dataType: 'CHANNEL_DATA_TYPE_ENUM',
          enumTypes: [{ name: 'low', key: 1, isSigned: false }],
        });
      },
    },
  },
  {
    behaviour: '4: run_id and update_mask, as the proto names them, are read',
    operation: 'UpdateRun',
    act: patch('/api/v2/runs', {
      run: { run_id: 'run-1', is_pinned: true },
      update_mask: 'is_pinned',
    }),
    expect: {
      status: 200,
      shape: (b) => expect((b.run as { isPinned: boolean }).isPinned).toBe(true),
    },
  },
  {
    behaviour:
      '4: DetectConfig reads type as an enum number; its answer is written by the same writer (strict: the unknown field is 400)',
    operation: 'DetectConfig',
    act: (mode) =>
      call(mode, 'POST', '/api/v2/data-imports:detect-config', {
        data: Buffer.from(CSV).toString('base64'),
        type: 1,
        sampleName: 'data.csv',
      }),
    expect: {
      status: 200,
      shape: (b, log) => {
        expect(b.parquetConfig).toBeNull();
        expect(b.csvConfig).toMatchObject({
          firstDataRow: 2,
          timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_RFC3339' },
        });
        logged(/DetectConfig: dropped sampleName, an unknown field/)(b, log);
      },
    },
    strict: { status: 400, code: 3, shape: message(/sampleName/) },
  },
  // --- 5. Update masks ---------------------------------------------------------------
  {
    behaviour: '5: a lowerCamelCase mask (isPinned) is accepted',
    operation: 'UpdateView',
    act: (mode) =>
      seededView(mode).then((id) =>
        call(mode, 'PATCH', `/api/v1/views/${id}`, {
          view: { isPinned: true },
          updateMask: 'isPinned',
        }),
      ),
    expect: {
      status: 200,
      shape: (b) => expect((b.view as { isPinned: boolean }).isPinned).toBe(true),
    },
  },
  // --- 6. Lists ----------------------------------------------------------------------
  {
    behaviour: '6: page_size, as the proto names it, is applied',
    operation: 'ListDataImports',
    act: (mode) =>
      importCsv(mode, { csvConfig: csvConfig() }).then(() =>
        call(
          mode,
          'GET',
          '/api/v2/data-imports?page_size=1&order_by=created_date%20desc,modified_date',
        ),
      ),
    expect: {
      status: 200,
      shape: (b) => {
        expect((b.dataImports as unknown[]).length).toBe(1);
        expect(b.nextPageToken).not.toBe('');
      },
    },
  },
  {
    behaviour: '6: parentheses in a filter',
    operation: 'ListDataImports',
    act: get(
      `/api/v2/data-imports?filter=${encodeURIComponent('(status == "DATA_IMPORT_STATUS_SUCCEEDED" || status == "DATA_IMPORT_STATUS_FAILED") && source_url == ""')}`,
    ),
    expect: { status: 200, shape: (b) => expect(Array.isArray(b.dataImports)).toBe(true) },
  },
  {
    behaviour: '6: the last page’s nextPageToken is "" (an unpopulated string)',
    operation: 'ListDataImports',
    act: get('/api/v2/data-imports?pageSize=1000'),
    expect: { status: 200, shape: (b) => expect(b.nextPageToken).toBe('') },
  },
  // --- 7. URL imports ----------------------------------------------------------------
  {
    behaviour: '7: an https address mapped to a local folder is imported',
    operation: 'CreateDataImportFromUrl',
    act: async (mode) => {
      const r = await call(mode, 'POST', '/api/v2/data-imports:url', {
        url: `${BUCKET}data.csv`,
        csvConfig: csvConfig(),
      });
      return waitFor(mode, String(r.body.dataImportId));
    },
    expect: {
      status: 200,
      shape: (b) => {
        status('SUCCEEDED')(b);
        expect(imported(b).sourceUrl).toBe(`${BUCKET}data.csv`);
      },
    },
  },
  {
    behaviour: '7: an s3 address no prefix maps fails, naming --url-map',
    operation: 'CreateDataImportFromUrl',
    act: async (mode) => {
      const r = await call(mode, 'POST', '/api/v2/data-imports:url', {
        url: 's3://elsewhere/data.csv',
        csvConfig: csvConfig(),
      });
      return waitFor(mode, String(r.body.dataImportId));
    },
    expect: {
      status: 200,
      shape: (b) => {
        status('FAILED')(b);
        expect(imported(b).errorMessage).toMatch(/--url-map/);
      },
    },
  },
  // --- 8. Output as protobuf's JSON writer writes it --------------------------------
  {
    behaviour:
      '8: enum names, 64-bit integers as strings, timestamps in UTC, unpopulated fields emitted',
    operation: 'GetDataImport',
    act: (mode) =>
      importCsv(mode, {
        csvConfig: csvConfig({
          numRows: 3,
          timeColumn: { columnNumber: 1, format: 10 },
        }),
      }),
    expect: {
      status: 200,
      shape: (b) => {
        const d = imported(b);
        const c = d.csvConfig as Record<string, unknown>;
        expect(c.numRows).toBe('3');
        expect((c.timeColumn as { format: unknown }).format).toBe('TIME_FORMAT_ABSOLUTE_RFC3339');
        expect([d.sourceUrl, d.errorMessage, d.ch10Config, d.batchConfig]).toEqual([
          '',
          '',
          null,
          null,
        ]);
        expect(c.useEmbeddedConfig).toBe(false);
        expect(d.reportId).toBeUndefined();
        for (const t of [d.createdDate, d.modifiedDate, d.dataStartTime, d.dataStopTime])
          expect(t).toMatch(PROTO_TIME);
      },
    },
  },
  {
    behaviour: '8: a timestamp with an offset comes back in UTC with Z',
    operation: 'UpdateRun',
    act: patch('/api/v2/runs', {
      run: { runId: 'run-2', startTime: '2024-01-01T02:00:00.5+02:00' },
      updateMask: 'start_time',
    }),
    expect: {
      status: 200,
      shape: (b) => {
        const run = b.run as Record<string, unknown>;
        expect(run.startTime).toBe('2024-01-01T00:00:00.500Z');
        // Unpopulated: a string, a list, a boolean; optional fields left out.
        expect([run.description, run.tags, run.isPinned, run.defaultReportId]).toEqual([
          '',
          [],
          false,
          '',
        ]);
        expect(run).not.toHaveProperty('stopTime');
        expect(run).not.toHaveProperty('archivedDate');
      },
    },
  },
  // --- 9. Unknown paths --------------------------------------------------------------
  {
    behaviour: '9: an unknown path is 404, code 5, Not Found',
    operation: '(none)',
    act: get('/api/v2/no-such-thing'),
    expect: { status: 404, code: 5, shape: message(/^Not Found$/) },
  },
  {
    behaviour: '9: a wrong method on a known path is 501, code 12',
    operation: 'GetAsset',
    act: (mode) => call(mode, 'POST', '/api/v1/assets/asset-1', {}),
    expect: { status: 501, code: 12 },
  },
  // --- 10. GetDataImport keeps to the reference's fields ------------------------------
  {
    behaviour: '10: no warnings array; the warnings go to the log',
    operation: 'GetDataImport',
    act: (mode) =>
      importCsv(mode, {
        csvConfig: csvConfig({ runId: 'run-1', runName: 'both' }),
      }),
    expect: {
      status: 200,
      shape: (b, log) => {
        status('SUCCEEDED')(b);
        expect(imported(b)).not.toHaveProperty('warnings');
        logged(/^data import [0-9a-f-]+: warning: /)(b, log);
      },
    },
  },
  // --- 11. UpdateRun rule 3 ----------------------------------------------------------
  {
    behaviour: '11: an import into an existing run overwrites its start time only',
    operation: 'UpdateRun',
    act: async (mode) => {
      await importCsv(mode, { csvConfig: csvConfig({ runName: undefined, runId: 'run-1' }) });
      return call(mode, 'GET', '/_emulator/resources');
    },
    expect: {
      status: 200,
      shape: (b) => {
        const run = (b.runs as Array<Record<string, unknown>>).find((r) => r.runId === 'run-1');
        expect([run?.startTime, run?.stopTime]).toEqual([
          '2024-01-01T00:00:00Z',
          '2030-01-01T00:00:00Z',
        ]);
      },
    },
  },
  // --- 12. Data time ranges ----------------------------------------------------------
  {
    behaviour: '12: a TDMS import gets its data time range (waveform properties)',
    operation: 'GetDataImport',
    act: (mode) => importFixture(mode, 'tdms-waveform.tdms', 'tdmsConfig'),
    expect: {
      status: 200,
      shape: (b) =>
        expect([imported(b).dataStartTime, imported(b).dataStopTime]).toEqual([
          '2024-10-07T17:00:00Z',
          '2024-10-07T17:00:01.980Z',
        ]),
    },
  },
  {
    behaviour: '12: a ULog import gets its data time range (the GPS fix)',
    operation: 'GetDataImport',
    act: (mode) => importFixture(mode, 'ulog-sample.ulg', 'ulogConfig'),
    expect: {
      status: 200,
      shape: (b) =>
        expect([imported(b).dataStartTime, imported(b).dataStopTime]).toEqual([
          '2026-01-01T00:00:00Z',
          '2026-01-01T00:00:05.700Z',
        ]),
    },
  },
  {
    behaviour: '12: a CH10 import gets its data time range (the dated time packets)',
    operation: 'GetDataImport',
    act: (mode) => importFixture(mode, join(ch10Dir, 'recorder.ch10'), 'ch10Config'),
    expect: {
      status: 200,
      shape: (b) => {
        const want = ch10Expected('recorder');
        expect([imported(b).dataStartTime, imported(b).dataStopTime]).toEqual([
          normalizeTimestamp(want.start ?? ''),
          normalizeTimestamp(want.stop ?? ''),
        ]);
      },
    },
  },
  // --- 13. Update-mask allow-lists -----------------------------------------------------
  {
    behaviour: '13: the channel mask takes display_units (the public proto’s list)',
    operation: 'UpdateChannel',
    act: patch('/api/v3/channels', {
      channel: { channelId: 'chan-1', displayUnitId: 'unit-7' },
      updateMask: 'display_units',
    }),
    expect: {
      status: 200,
      shape: (b) => expect((b.channel as { displayUnitId: string }).displayUnitId).toBe('unit-7'),
    },
  },
  {
    behaviour: '13: the channel mask refuses name (not in the public proto’s list)',
    operation: 'UpdateChannel',
    act: patch('/api/v3/channels', {
      channel: { channelId: 'chan-1', name: 'x' },
      updateMask: 'name',
    }),
    expect: {
      status: 400,
      code: 3,
      shape: message(/display_description, display_units, metadata, active/),
    },
  },
  {
    behaviour: '13: the saved-search mask is the proto’s: name and properties',
    operation: 'UpdateSavedSearch',
    act: (mode) =>
      call(mode, 'PATCH', '/api/v1/saved_searches', {
        savedSearch: { savedSearchId: savedSearchOf(mode), organizationId: 'x' },
        updateMask: 'organization_id',
      }),
    expect: { status: 400, code: 3 },
  },
  // --- 14. Seeded resources, read through the emulator-only route ------------------------
  {
    behaviour: '14: the seeded channel is listed by GET /_emulator/resources',
    operation: '(emulator only)',
    act: get('/_emulator/resources'),
    expect: {
      status: 200,
      shape: (b) =>
        expect((b.channels as Array<{ channelId: string }>).map((c) => c.channelId)).toContain(
          'chan-1',
        ),
    },
  },
];

/** The first seeded view and saved search of the emulator (their ids depend on the organization). */
async function seededView(_mode: Mode): Promise<string> {
  return viewId;
}
function savedSearchOf(_mode: Mode): string {
  return savedSearchId;
}

/** Imports a fixture with the config infer drafts for it (a runName added). */
async function importFixture(mode: Mode, name: string, key: string): Promise<Answer> {
  const { inferConfig } = await import('../../src/infer/index.js');
  const file = isAbsolute(name) ? name : join(platformExamples, name);
  const doc = (await inferConfig(file)).document as Record<string, Record<string, unknown>>;
  const created = await call(mode, 'POST', '/api/v2/data-imports:upload', {
    [key]: { ...doc[key], runName: `run-${basename(name)}` },
  });
  const { readFile } = await import('node:fs/promises');
  await fetch(String(created.body.uploadUrl), {
    method: 'POST',
    headers: {
      authorization: `Bearer ${KEY}`,
      'content-disposition': `attachment; filename="${basename(name)}"`,
    },
    body: await readFile(file),
  });
  return waitFor(mode, String(created.body.dataImportId));
}

describe.each(MODES)('the emulator answers as the platform would (%s mode)', (mode) => {
  test.each(ROWS.map((r) => [`${r.operation}: ${r.behaviour}`, r] as const))(
    '%s',
    async (_name, row) => {
      logs[mode].length = 0;
      const answer = await row.act(mode);
      const want = (mode === 'strict' ? row.strict : undefined) ?? row.expect;
      expect(answer.status, JSON.stringify(answer.body)).toBe(want.status);
      if (want.code !== undefined) {
        expect(answer.body).toEqual({
          code: want.code,
          message: expect.any(String),
          details: expect.any(Array),
        });
        expect(answer.body.code).toBe(want.code);
      }
      want.shape?.(answer.body, logs[mode], answer);
    },
  );
});
