/**
 * The emulator's store against being filled (security round 2, point 2): every stored body
 * and string is bounded (413 or 400 naming the limit), a config is stored once, a create
 * writes what it adds and never the whole state, the log survives a write cut short at any
 * byte, it is compacted while saves go on, and a restart reads back exactly what was held.
 * A store that cannot be read is covered with the real binary in test/cli/serve.test.ts.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Emulator, seededIds, startEmulator } from '../../src/emulator/index.js';
import { Store } from '../../src/emulator/store.js';
import { raw } from './_helpers.js';

const KEY = 'key-store';
const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const MiB = 1024 * 1024;
const STRING_LIMIT = 64 * 1024;
const csvConfig = {
  assetName: 'rig',
  firstDataRow: 2,
  timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_RFC3339' },
  dataColumns: { '2': { name: 'temp', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' } },
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-security-store-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const post = (emu: Emulator, path: string, body: string) =>
  raw(emu.url, 'POST', path, { headers: auth, body });

/**
 * The largest config body the emulator takes: an asset name, a run name and channel
 * descriptions of the longest allowed string, within the body limit.
 */
function largestBody(i: number): string {
  const text = (c: string) => `${i}`.padEnd(STRING_LIMIT, c);
  const dataColumns: Record<string, unknown> = {};
  for (let c = 0; c < 61; c++) {
    dataColumns[String(c + 2)] = {
      name: `c${c}`,
      description: text(String.fromCharCode(97 + (c % 26))),
      dataType: 'CHANNEL_DATA_TYPE_DOUBLE',
    };
  }
  const body = JSON.stringify({
    csvConfig: { ...csvConfig, assetName: text('a'), runName: text('r'), dataColumns },
  });
  if (body.length > 4 * MiB || body.length < 3.9 * MiB) throw new Error('not the largest body');
  return body;
}

const CREATES = 6;

/** Bytes this process has written (Linux: every write call, files and sockets alike). */
function written(): number {
  return Number(/^wchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))?.[1]);
}

describe('bounded bodies and strings', () => {
  test('past 4 MiB a body is a 413, past 64 KiB a string a 400, each naming its limit', async () => {
    const emu = await startEmulator({ apiKeys: { [KEY]: 'store' } });
    try {
      // The issue's body: a 15 MB asset name.
      const huge = JSON.stringify({ csvConfig: { ...csvConfig, assetName: 'a'.repeat(15e6) } });
      const tooLarge = {
        code: 3,
        message:
          'the request body is larger than 4194304 bytes (4 MiB), the most this service accepts',
        details: [],
      };
      const answers = [
        await post(emu, '/api/v2/data-imports:upload', huge),
        await post(emu, '/api/v2/data-imports:upload', `${largestBody(0)}${' '.repeat(MiB)}`),
      ];
      expect(answers.map((a) => [a.status, JSON.parse(a.body)])).toEqual([
        [413, tooLarge],
        [413, tooLarge],
      ]);
      const long = 'é'.repeat(STRING_LIMIT / 2 + 1);
      const cases: Array<[string, string, unknown]> = [
        [
          '/api/v2/data-imports:upload',
          'csvConfig.dataColumns.2.description',
          {
            csvConfig: {
              ...csvConfig,
              dataColumns: { '2': { name: 't', description: long } },
            },
          },
        ],
        ['/api/v2/data-imports:url', 'url', { url: `http://127.0.0.1/${long}`, csvConfig }],
        ['/api/v2/data-imports:upload', 'csvConfig', { csvConfig: { [long]: 1 } }],
      ];
      for (const [path, field, body] of cases) {
        const a = await post(emu, path, JSON.stringify(body));
        const what = field === 'csvConfig' ? 'a key in csvConfig' : field;
        const bytes = Buffer.byteLength(field === 'url' ? `http://127.0.0.1/${long}` : long);
        const message = `${what} is ${bytes} bytes long: a string may be at most 65536 bytes (64 KiB)`;
        expect([a.status, JSON.parse(a.body)]).toEqual([
          400,
          {
            code: 3,
            message,
            details: [
              {
                '@type': 'type.googleapis.com/google.rpc.BadRequest',
                fieldViolations: [{ field, description: message }],
              },
            ],
          },
        ]);
      }
      const org = await raw(emu.url, 'GET', '/api/v2/api-keys/organization', { headers: auth });
      const view = seededIds(JSON.parse(org.body).organization.organizationId).views[0];
      const patch = await raw(emu.url, 'PATCH', `/api/v1/views/${view}`, {
        headers: auth,
        body: JSON.stringify({ view: { name: 'v'.repeat(STRING_LIMIT + 1) }, updateMask: 'name' }),
      });
      expect([patch.status, JSON.parse(patch.body).message]).toEqual([
        400,
        'view.name is 65537 bytes long: a string may be at most 65536 bytes (64 KiB)',
      ]);
      // At the limits, it is taken; DetectConfig's sample is not stored: its string may be longer.
      const edge = JSON.stringify({
        csvConfig: { ...csvConfig, assetName: 'a'.repeat(STRING_LIMIT) },
      });
      expect((await post(emu, '/api/v2/data-imports:upload', edge)).status).toBe(200);
      expect((await post(emu, '/api/v2/data-imports:upload', largestBody(1))).status).toBe(200);
      const sample = Buffer.from(`t,v\n${'2024-01-01T00:00:00Z,1\n'.repeat(3000)}`);
      expect(sample.toString('base64').length).toBeGreaterThan(STRING_LIMIT);
      const detect = await post(
        emu,
        '/api/v2/data-imports:detect-config',
        JSON.stringify({ type: 'DATA_TYPE_KEY_CSV', data: sample.toString('base64') }),
      );
      expect(detect.status).toBe(200);
      expect(Object.keys(emu.store.data.imports)).toHaveLength(2);
    } finally {
      await emu.close();
    }
  });
});

describe.runIf(existsSync('/proc/self/io'))('a store filled with the largest bodies', () => {
  test('each create writes about its body, the last as little as the first; a restart reads all back', async () => {
    const dataDir = join(dir, 'full');
    let emu = await startEmulator({ apiKeys: { [KEY]: 'store' }, dataDir });
    try {
      await raw(emu.url, 'GET', '/api/v2/api-keys/organization', { headers: auth });
      const perCreate: number[] = [];
      const ids: string[] = [];
      let size = 0;
      for (let i = 0; i < CREATES; i++) {
        const body = largestBody(i);
        size = body.length;
        const before = written();
        const a = await post(emu, '/api/v2/data-imports:upload', body);
        // What this process wrote beyond the request it sent: the server's share.
        perCreate.push(written() - before - body.length);
        expect(a.status).toBe(200);
        ids.push(JSON.parse(a.body).dataImportId);
      }
      // Before, a create wrote the whole state with each config twice: 2, 4, ... 12 bodies.
      expect(Math.max(...perCreate) / size).toBeLessThan(1.02);
      expect((perCreate.at(-1) ?? 0) / (perCreate[0] ?? 1)).toBeLessThan(1.02);
      const held = structuredClone(emu.store.data);
      await emu.close();
      const logSize = (await stat(join(dataDir, 'store.jsonl'))).size;
      expect(logSize / (CREATES * size)).toBeLessThan(1.02);
      emu = await startEmulator({ apiKeys: { [KEY]: 'store' }, dataDir });
      expect(emu.store.data).toEqual(held);
      const last = await raw(emu.url, 'GET', `/api/v2/data-imports/${ids.at(-1)}`, {
        headers: auth,
      });
      // Every field sent comes back (the fields not sent, with their defaults).
      expect(JSON.parse(last.body).dataImport.csvConfig).toMatchObject(
        JSON.parse(largestBody(CREATES - 1)).csvConfig,
      );
      // A list page stops at 16 MiB (four of these), its token going on from there.
      const listed: string[][] = [];
      let token = '';
      do {
        const page = await raw(
          emu.url,
          'GET',
          `/api/v2/data-imports?pageSize=1000&orderBy=created_date${token ? `&pageToken=${token}` : ''}`,
          { headers: auth },
        );
        const answer = JSON.parse(page.body);
        listed.push(answer.dataImports.map((d: { dataImportId: string }) => d.dataImportId));
        token = answer.nextPageToken ?? '';
      } while (token);
      expect(listed).toEqual([ids.slice(0, 4), ids.slice(4)]);
    } finally {
      await emu.close();
    }
  });
});

/** A store in a folder of its own, with a record of each table to change. */
async function storeIn(name: string, compactAfterBytes?: number) {
  const folder = join(dir, name);
  const open = () =>
    Store.open(folder, compactAfterBytes === undefined ? {} : { compactAfterBytes });
  return { folder, log: join(folder, 'store.jsonl'), open };
}

function putRun(store: Store, id: string, name: string) {
  store.data.runs[id] = { orgId: 'o', value: { runId: id, name } };
  store.touch('runs', id);
}

describe('the log', () => {
  test('property: a write cut short at any byte reads back as the last whole save, and the log goes on', async () => {
    const s = await storeIn('torn');
    const store = await s.open();
    putRun(store, 'r1', 'one');
    store.data.imports.i1 = {
      orgId: 'o',
      userId: 'u',
      source: 'upload',
      uploadToken: 't',
      seq: store.nextSeq(),
      document: { csvConfig },
      dataImport: { dataImportId: 'i1', status: 'DATA_IMPORT_STATUS_PENDING' },
    };
    store.touch('imports', 'i1');
    await store.save();
    const saved = structuredClone(store.data);
    const good = await readFile(s.log);
    // The next save, as it would be appended.
    putRun(store, 'r2', 'two');
    delete store.data.runs.r1;
    store.touch('runs', 'r1');
    (store.data.imports.i1 as { dataImport: { status: string } }).dataImport.status = 'X';
    store.touch('imports', 'i1');
    await store.save();
    await store.close();
    const next = (await readFile(s.log)).subarray(good.length);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: next.length - 1 }), async (cut) => {
        await writeFile(s.log, Buffer.concat([good, next.subarray(0, cut)]));
        const reopened = await s.open();
        expect(reopened.data).toEqual(saved);
        expect((await stat(s.log)).size).toBe(good.length);
        putRun(reopened, 'r3', 'three');
        await reopened.save();
        await reopened.close();
        const again = await s.open();
        expect(again.data.runs.r3?.value.name).toBe('three');
        await again.close();
      }),
      { numRuns: 40 },
    );
  });

  test('compacted in the background while saves go on: the log stays small, a restart reads the same', async () => {
    const s = await storeIn('compact', 4096);
    const store = await s.open();
    const saves: Array<Promise<void>> = [];
    for (let i = 0; i < 3000; i++) {
      putRun(store, `r${i % 7}`, `name ${i} ${'x'.repeat(i % 50)}`);
      if (i % 500 === 0) {
        delete store.data.runs[`r${i % 7}`];
        store.touch('runs', `r${i % 7}`);
      }
      saves.push(store.save());
      if (i % 3 === 0) await Promise.all(saves.splice(0));
    }
    await Promise.all(saves);
    const held = structuredClone(store.data);
    const wrote = store.bytesWritten;
    await store.close();
    const size = (await stat(s.log)).size;
    // 3,000 saves of about 100 bytes: the log holds the seven runs and what came after the
    // last compaction.
    expect(wrote).toBeGreaterThan(250_000);
    expect(size).toBeLessThan(16 * 1024);
    const reopened = await s.open();
    expect(reopened.data).toEqual(held);
    await reopened.close();
  });

  test('a state.json of an earlier version is carried over into the log, then removed', async () => {
    const s = await storeIn('legacy');
    await mkdir(s.folder, { recursive: true });
    const dataImport = { dataImportId: 'i1', status: 'DATA_IMPORT_STATUS_SUCCEEDED', csvConfig };
    const imp = { orgId: 'o', userId: 'u', source: 'upload', uploadToken: 't', seq: 1 };
    await writeFile(
      join(s.folder, 'state.json'),
      JSON.stringify({
        version: 1,
        seq: 1,
        imports: { i1: { ...imp, dataImport, document: { csvConfig } } },
        runs: { r1: { orgId: 'o', value: { runId: 'r1', name: 'one' } } },
        seeded: ['o'],
      }),
    );
    const store = await s.open();
    await store.close();
    expect(existsSync(join(s.folder, 'state.json'))).toBe(false);
    const reopened = await s.open();
    await reopened.close();
    expect(reopened.data).toEqual({
      seq: 1,
      imports: {
        i1: {
          ...imp,
          document: { csvConfig },
          dataImport: { dataImportId: 'i1', status: 'DATA_IMPORT_STATUS_SUCCEEDED' },
        },
      },
      runs: { r1: { orgId: 'o', value: { runId: 'r1', name: 'one' } } },
      assets: {},
      channels: {},
      views: {},
      savedSearches: {},
      udfVersions: {},
      seeded: ['o'],
    });
  });

  test('a partial last line is a write cut short, dropped; a damaged whole line is an error naming it', async () => {
    const s = await storeIn('damaged');
    const store = await s.open();
    putRun(store, 'r1', 'one');
    await store.save();
    putRun(store, 'r2', 'two');
    await store.save();
    await store.close();
    const text = await readFile(s.log, 'utf8');
    await appendFile(s.log, '["put","runs","r3",{"orgId"');
    const reopened = await s.open();
    await reopened.close();
    expect(Object.keys(reopened.data.runs)).toEqual(['r1', 'r2']);
    expect(await readFile(s.log, 'utf8')).toBe(text);
    const lines = text.split('\n');
    lines[3] = '["put","runs","r2",{"orgId":"o"';
    await writeFile(s.log, lines.join('\n'));
    await expect(s.open()).rejects.toMatchObject({
      name: 'StoreError',
      message: `cannot open the emulator's store in ${s.folder}: store.jsonl is damaged at line 4: it is not JSON`,
    });
  });
});

describe.runIf(process.platform !== 'win32')('killed while it writes', () => {
  // Where in a write the kill lands depends on timing; the property test above cuts a
  // write at every byte.
  test('a writer killed (-9) at any moment: the store opens with every save it reported', async () => {
    const writer = join(import.meta.dirname, '_store-writer.ts');
    const hooks = join(import.meta.dirname, '..', 'helpers', 'ts-register.mjs');
    for (let round = 0; round < 2; round++) {
      const folder = join(dir, `killed-${round}`);
      const child = spawn(process.execPath, ['--import', hooks, writer, folder], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      const exited = new Promise((r) => child.once('exit', r));
      await new Promise<void>((resolve) => {
        child.stdout.on('data', (d) => {
          out += String(d);
          if (/saved 3\n/.test(out)) resolve();
        });
      });
      await new Promise((r) => setTimeout(r, round * 7));
      child.kill('SIGKILL');
      await exited;
      const reported = [...out.matchAll(/saved (\d+)\n/g)].map((m) => `r${m[1]}`);
      const store = await Store.open(folder);
      await store.close();
      const runs = Object.keys(store.data.runs);
      expect(runs.slice(0, reported.length)).toEqual(reported);
      expect(runs.length - reported.length).toBeLessThanOrEqual(1);
      for (const r of Object.values(store.data.runs))
        expect(r.value.description).toHaveLength(2 * MiB);
    }
  });
});

describe('every change is kept', () => {
  test('after imports, a retry, uploads and every update, a restart holds what memory held', async () => {
    const dataDir = join(dir, 'everything');
    let emu = await startEmulator({ apiKeys: { [KEY]: 'store' }, dataDir });
    try {
      const org = await raw(emu.url, 'GET', '/api/v2/api-keys/organization', { headers: auth });
      const ids = seededIds(JSON.parse(org.body).organization.organizationId);
      const withRun = { csvConfig: { ...csvConfig, runName: 'r1' } };
      const created = JSON.parse(
        (await post(emu, '/api/v2/data-imports:upload', JSON.stringify(withRun))).body,
      ) as { uploadUrl: string; dataImportId: string };
      const up = new URL(created.uploadUrl);
      await raw(emu.url, 'POST', up.pathname + up.search, {
        headers: { authorization: auth.authorization },
        body: 'time,temp\n2024-01-01T00:00:00Z,1.5\n2024-01-01T00:00:01Z,2.5\n',
      });
      const url = JSON.parse(
        (
          await post(
            emu,
            '/api/v2/data-imports:url',
            JSON.stringify({ url: 'http://example.invalid/x.csv', csvConfig }),
          )
        ).body,
      ).dataImportId as string;
      await emu.idle();
      await post(emu, `/api/v2/data-imports/${url}:retry`, '');
      await emu.idle();
      const done = emu.store.data.imports[created.dataImportId]?.dataImport;
      expect(done?.status).toBe('DATA_IMPORT_STATUS_SUCCEEDED');
      const channel = Object.keys(emu.store.data.channels)[0];
      const patches: Array<[string, unknown]> = [
        [`/api/v1/views/${ids.views[0]}`, { view: { name: 'v2' }, updateMask: 'name' }],
        ['/api/v2/runs', { run: { runId: done?.runId, name: 'r2' }, updateMask: 'name' }],
        [
          '/api/v3/channels',
          { channel: { channelId: channel, active: false }, updateMask: 'active' },
        ],
        [
          '/api/v1/saved_searches',
          { savedSearch: { savedSearchId: ids.savedSearches[0], name: 's2' }, updateMask: 'name' },
        ],
      ];
      for (const [path, body] of patches) {
        const a = await raw(emu.url, 'PATCH', path, { headers: auth, body: JSON.stringify(body) });
        expect([path, a.status]).toEqual([path, 200]);
      }
      const held = structuredClone(emu.store.data);
      await emu.close();
      emu = await startEmulator({ apiKeys: { [KEY]: 'store' }, dataDir });
      expect(emu.store.data).toEqual(held);
    } finally {
      await emu.close();
    }
  });
});
