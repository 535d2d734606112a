/**
 * The emulator against hostile requests (issue 12, points 1, 2, 5a, 6 and 8): any throw
 * ends its own request, never the process; one body cannot poison the store; URL imports
 * check every redirect; uploads are bounded; slow clients are cut off.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { type Emulator, seededIds, startEmulator } from '../../src/emulator/index.js';
import { parseFilter } from '../../src/emulator/list.js';
import { plainServer, seedResources } from '../client/_helpers.js';
import { doublingApart } from '../helpers/doubling-apart.js';
import { cases } from './_filter-work.js';
import { heldFor, RATIO_BOUND, raw } from './_helpers.js';

const KEY = 'key-sec';
const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const CSV = 'time,temp\n2024-01-01T00:00:00Z,1.5\n2024-01-01T00:00:01Z,2.5\n';
const csvConfig = {
  assetName: 'rig',
  firstDataRow: 2,
  timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_RFC3339' },
  dataColumns: { '2': { name: 'temp', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' } },
};
const created = JSON.stringify({ csvConfig });

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-security-emu-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function statusOf(emu: Emulator, id: string, until: (s: string) => boolean) {
  for (let i = 0; i < 400; i++) {
    const a = await raw(emu.url, 'GET', `/api/v2/data-imports/${id}`, { headers: auth });
    const di = JSON.parse(a.body).dataImport as { status: string; errorMessage?: string };
    if (until(di.status)) return di;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`import ${id} did not end`);
}
const ended = (s: string) => s.endsWith('SUCCEEDED') || s.endsWith('FAILED');

async function urlImport(emu: Emulator, url: string): Promise<string> {
  const a = await raw(emu.url, 'POST', '/api/v2/data-imports:url', {
    headers: auth,
    body: JSON.stringify({ url, csvConfig }),
  });
  expect(a.status).toBe(200);
  return JSON.parse(a.body).dataImportId as string;
}

describe('point 1: a throw ends its request, never the process', () => {
  test('a URL whose path holds %00, with a body that never ends, fails the import only', async () => {
    // The body starts and never ends: left unread, its timeout used to crash the process.
    const source = await plainServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.write(CSV);
    });
    const emu = await startEmulator({ apiKeys: { [KEY]: 'sec' }, fetchTimeoutMs: 1000 });
    try {
      const id = await urlImport(emu, `${source.url}/a%00b.csv`);
      const di = await statusOf(emu, id, ended);
      expect(di.status).toBe('DATA_IMPORT_STATUS_FAILED');
      expect(di.errorMessage).toMatch(
        /^cannot fetch '.*a%00b\.csv': (the download failed|The operation was aborted)/,
      );
      await new Promise((r) => setTimeout(r, 1200)); // past the fetch timeout
      const again = await raw(emu.url, 'GET', '/api/v2/api-keys/organization', { headers: auth });
      expect(again.status).toBe(200);
    } finally {
      await emu.close();
      await source.close();
    }
  });

  test('the same name with a whole body is stored under a safe name and succeeds', async () => {
    const source = await plainServer((_req, res) => res.end(CSV));
    const emu = await startEmulator({ apiKeys: { [KEY]: 'sec' } });
    try {
      const id = await urlImport(emu, `${source.url}/a%00b.csv`);
      expect((await statusOf(emu, id, ended)).status).toBe('DATA_IMPORT_STATUS_SUCCEEDED');
      expect(emu.store.data.imports[id]?.fileName).toBe('a_b.csv');
    } finally {
      await emu.close();
      await source.close();
    }
  });

  test('every route, with a store whose writes throw and bodies left unread: a 500 naming no path, the process alive', async () => {
    const emu = await startEmulator({
      apiKeys: { [KEY]: 'sec', 'key-fresh': 'fresh' },
      stepDelayMs: 100,
    });
    const save = emu.store.save.bind(emu.store);
    try {
      const org = await raw(emu.url, 'GET', '/api/v2/api-keys/organization', { headers: auth });
      expect(org.status).toBe(200);
      const orgId = JSON.parse(org.body).organization.organizationId as string;
      const ids = seededIds(orgId);
      const res = seedResources(emu, KEY);
      const up = JSON.parse(
        (
          await raw(emu.url, 'POST', '/api/v2/data-imports:upload', {
            headers: auth,
            body: created,
          })
        ).body,
      ) as { uploadUrl: string; dataImportId: string };
      const failedUrl = await urlImport(emu, 'http://example.invalid/x.csv');
      await statusOf(emu, failedUrl, ended);
      // An import under way when the store starts failing.
      const running = await urlImport(emu, 'http://example.invalid/y.csv');
      const secret = join(dir, 'secret-state-path');
      emu.store.save = () =>
        Promise.reject(
          Object.assign(new Error(`EIO: i/o error, write '${secret}'`), { code: 'EIO' }),
        );
      const before = JSON.stringify(emu.store.data);
      const big = 'x'.repeat(256 * 1024); // larger than socket buffers: left unread
      const routes: Array<[string, string, string?]> = [
        ['POST', '/api/v2/data-imports:upload', created],
        [
          'POST',
          '/api/v2/data-imports:url',
          JSON.stringify({ url: 'http://127.0.0.1:1/a', csvConfig }),
        ],
        ['POST', `/api/v2/data-imports/${failedUrl}:retry`, big],
        ['POST', new URL(up.uploadUrl).pathname + new URL(up.uploadUrl).search, CSV],
        [
          'PATCH',
          `/api/v1/views/${ids.views[0]}`,
          JSON.stringify({ view: { name: 'v' }, updateMask: 'name' }),
        ],
        [
          'PATCH',
          '/api/v2/runs',
          JSON.stringify({ run: { runId: res.runId, name: 'r' }, updateMask: 'name' }),
        ],
        [
          'PATCH',
          '/api/v3/channels',
          JSON.stringify({
            channel: { channelId: res.channelId, active: false },
            updateMask: 'active',
          }),
        ],
        [
          'PATCH',
          '/api/v1/saved_searches',
          JSON.stringify({
            savedSearch: { savedSearchId: ids.savedSearches[0], name: 's' },
            updateMask: 'name',
          }),
        ],
      ];
      for (const [method, path, body] of routes) {
        const a = await raw(emu.url, method, path, { headers: auth, body: body ?? '' });
        expect([method, path, a.status]).toEqual([method, path, 500]);
        expect(JSON.parse(a.body)).toEqual({
          code: 13,
          message: 'internal error (EIO): the request was not carried out',
          details: [],
        });
      }
      // A new organization's first request writes its seed first: that fails, body unread.
      const fresh = await raw(emu.url, 'POST', '/api/v2/data-imports:upload', {
        headers: { ...auth, authorization: 'Bearer key-fresh' },
        body: big,
      });
      expect(fresh.status).toBe(500);
      expect(fresh.body).not.toContain(dir);
      await statusOf(emu, running, ended);
      // Nothing a failed request changed stayed in the store (the running import moved on).
      const after = JSON.parse(JSON.stringify(emu.store.data));
      const was = JSON.parse(before);
      delete after.imports[running];
      delete was.imports[running];
      expect(after).toEqual(was);
      emu.store.save = save;
      const ok = await raw(emu.url, 'POST', '/api/v2/data-imports:upload', {
        headers: auth,
        body: created,
      });
      expect(ok.status).toBe(200);
    } finally {
      emu.store.save = save;
      await emu.close();
    }
  });
});

describe('point 2: one body cannot poison the store', () => {
  test('a body nested 8,000 deep is a 400; every later write still works and is kept', async () => {
    const dataDir = join(dir, 'deep');
    let emu = await startEmulator({ apiKeys: { [KEY]: 'sec' }, dataDir });
    try {
      const deep = `{"csvConfig":${'{"a":'.repeat(8000)}1${'}'.repeat(8000)}}`;
      expect(deep.length).toBeLessThan(48 * 1024);
      const a = await raw(emu.url, 'POST', '/api/v2/data-imports:upload', {
        headers: auth,
        body: deep,
      });
      expect([a.status, JSON.parse(a.body).message]).toEqual([
        400,
        'the request body nests more than 64 levels deep',
      ]);
      const ok = await raw(emu.url, 'POST', '/api/v2/data-imports:upload', {
        headers: auth,
        body: created,
      });
      expect(ok.status).toBe(200);
      const id = JSON.parse(ok.body).dataImportId as string;
      await emu.close();
      emu = await startEmulator({ apiKeys: { [KEY]: 'sec' }, dataDir });
      expect(Object.keys(emu.store.data.imports)).toEqual([id]);
    } finally {
      await emu.close();
    }
  });

  test('a failed save fails its own request and leaves the store as it was', async () => {
    const dataDir = join(dir, 'undo');
    let emu = await startEmulator({ apiKeys: { [KEY]: 'sec' }, dataDir });
    try {
      await raw(emu.url, 'GET', '/api/v2/api-keys/organization', { headers: auth });
      const save = emu.store.save.bind(emu.store);
      let calls = 0;
      emu.store.save = () => (++calls === 1 ? Promise.reject(new Error('disk full')) : save());
      const failed = await raw(emu.url, 'POST', '/api/v2/data-imports:upload', {
        headers: auth,
        body: created,
      });
      expect(failed.status).toBe(500);
      expect(emu.store.data.imports).toEqual({});
      const ok = await raw(emu.url, 'POST', '/api/v2/data-imports:upload', {
        headers: auth,
        body: created,
      });
      expect(ok.status).toBe(200);
      const id = JSON.parse(ok.body).dataImportId as string;
      await emu.close();
      emu = await startEmulator({ apiKeys: { [KEY]: 'sec' }, dataDir });
      expect(Object.keys(emu.store.data.imports)).toEqual([id]);
      // The log holds the import saved, never the one whose save failed.
      const log = (await readFile(join(dataDir, 'store.jsonl'), 'utf8')).split('\n');
      const puts = log.filter((l) => l.startsWith('["put","imports",'));
      expect(puts.map((l) => JSON.parse(l)[2])).toEqual([id]);
    } finally {
      await emu.close();
    }
  });
});

describe('point 5a: the list filter is linear', () => {
  // Timed in a Node process of its own: the test processes are kept between files, and a
  // ratio timed here would count other files' leftover work too.
  const apart = doublingApart(new URL('./_filter-work.ts', import.meta.url), Object.keys(cases));
  beforeAll(apart.measure, 240_000);

  test('a literal of backslashes is refused (15 s at 42 before: the doubling below times it)', () => {
    expect(() => parseFilter(`status == "${'\\'.repeat(42)}"a`)).toThrow(
      /expected a quoted string/,
    );
  });

  test('size doubling: hostile filters take time linear in their length', () => {
    const shapes = Object.keys(cases);
    expect(shapes.map((s) => [s, apart.ratio(s) < RATIO_BOUND])).toEqual(
      shapes.map((s) => [s, true]),
    );
  });

  test('escapes still read: quotes and backslashes inside a literal', () => {
    const t = parseFilter(String.raw`source_url == "a\"b\\c"`);
    const rec = { dataImport: { sourceUrl: 'a"b\\c' } } as never;
    expect(t(rec)).toBe(true);
  });
});

describe('point 6: URL imports check every redirect', () => {
  test('redirects to [::ffff:127.0.0.1], to https or past the limit fail; to loopback http they are followed', async () => {
    const source = await plainServer((req, res) => {
      const port = req.socket.localPort;
      const to: Record<string, string> = {
        '/mapped.csv': `http://[::ffff:127.0.0.1]:${port}/data.csv`,
        '/tls.csv': `https://127.0.0.1:${port}/data.csv`,
        '/hop.csv': '/data.csv',
        '/loop.csv': '/loop.csv',
      };
      const target = to[req.url ?? ''];
      if (target) {
        res.writeHead(302, { location: target });
        res.end();
      } else res.end(CSV);
    });
    const emu = await startEmulator({ apiKeys: { [KEY]: 'sec' } });
    try {
      const mapped = await statusOf(emu, await urlImport(emu, `${source.url}/mapped.csv`), ended);
      expect(mapped.errorMessage).toMatch(
        /^cannot fetch '.*\/mapped\.csv' \(redirected to 'http:\/\/\[::ffff:7f00:1\]:\d+\/data\.csv'\): the emulator fetches only http addresses on this machine/,
      );
      const tls = await statusOf(emu, await urlImport(emu, `${source.url}/tls.csv`), ended);
      expect(tls.errorMessage).toMatch(/\(redirected to 'https:\/\/127\.0\.0\.1:\d+\/data\.csv'\)/);
      const loop = await statusOf(emu, await urlImport(emu, `${source.url}/loop.csv`), ended);
      expect(loop.errorMessage).toMatch(/more than 5 redirects$/);
      const hop = await statusOf(emu, await urlImport(emu, `${source.url}/hop.csv`), ended);
      expect(hop.status).toBe('DATA_IMPORT_STATUS_SUCCEEDED');
      const direct = await statusOf(
        emu,
        await urlImport(emu, `http://[::ffff:127.0.0.1]:${new URL(source.url).port}/data.csv`),
        ended,
      );
      expect(direct.status).toBe('DATA_IMPORT_STATUS_FAILED');
    } finally {
      await emu.close();
      await source.close();
    }
  });
});

describe('point 8: upload limits', () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startEmulator({
      apiKeys: { [KEY]: 'sec' },
      dataDir: join(dir, 'limits'),
      maxUploadBytes: 64 * 1024 * 1024,
    });
  });
  afterAll(async () => {
    await emu.close();
  });

  async function uploadPath(): Promise<{ path: string; id: string }> {
    const a = await raw(emu.url, 'POST', '/api/v2/data-imports:upload', {
      headers: auth,
      body: created,
    });
    const u = new URL(JSON.parse(a.body).uploadUrl as string);
    return { path: u.pathname + u.search, id: JSON.parse(a.body).dataImportId as string };
  }

  test('a gzip bomb is a 413 and nothing of it stays on disk', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(100 * 1024);
    const { path, id } = await uploadPath();
    const a = await raw(emu.url, 'POST', path, {
      headers: { ...auth, 'content-encoding': 'gzip', 'content-type': 'application/octet-stream' },
      body: bomb,
    });
    expect([a.status, JSON.parse(a.body).message]).toEqual([
      413,
      'the upload is refused: it decompresses to more than 100 times its size',
    ]);
    expect(await readdir(join(dir, 'limits', 'uploads', id))).toEqual([]);
    expect(emu.store.data.imports[id]?.filePath).toBeUndefined();
  });

  test('data past maxUploadBytes is a 413', async () => {
    const small = await startEmulator({ apiKeys: { [KEY]: 'sec' }, maxUploadBytes: 1024 });
    try {
      const a0 = await raw(small.url, 'POST', '/api/v2/data-imports:upload', {
        headers: auth,
        body: created,
      });
      const u = new URL(JSON.parse(a0.body).uploadUrl as string);
      const a = await raw(small.url, 'POST', u.pathname + u.search, {
        headers: auth,
        body: Buffer.alloc(4096, 0x41),
      });
      expect([a.status, JSON.parse(a.body).message]).toEqual([
        413,
        'the upload is refused: its data is larger than 1024 bytes',
      ]);
    } finally {
      await small.close();
    }
  });

  test('file names that cannot be files are a 400 naming no server path', async () => {
    const names: Array<[string, string, boolean]> = [
      ['attachment; filename="."', "'.' names a folder", false],
      ['attachment; filename=".."', "'..' names a folder", false],
      ['attachment; filename="...gz"', "'..' names a folder", true],
      ["attachment; filename*=UTF-8''a%00b.csv", 'it holds control characters', false],
      [`attachment; filename="${'n'.repeat(4000)}.csv"`, 'it is longer than 255 bytes', false],
    ];
    for (const [disposition, why, gzip] of names) {
      const { path } = await uploadPath();
      const a = await raw(emu.url, 'POST', path, {
        headers: {
          ...auth,
          'content-disposition': disposition,
          ...(gzip ? { 'content-encoding': 'gzip' } : {}),
        },
        body: gzip ? gzipSync(CSV) : CSV,
      });
      expect([a.status, JSON.parse(a.body).message]).toEqual([
        400,
        `the file name in Content-Disposition cannot be used: ${why}`,
      ]);
      expect(a.body).not.toContain(tmpdir());
    }
  });

  test('a malformed percent-encoding in any path is a 400', async () => {
    const { path } = await uploadPath();
    const paths: Array<[string, string]> = [
      ['GET', '/api/v2/data-imports/%E0%A4%A'],
      ['POST', '/api/v2/data-imports/%zz:retry'],
      ['PATCH', '/api/v1/views/%'],
      ['GET', '/api/v1/assets/%C0'],
      ['POST', path.replace(/\/uploads\/[^?]+/, '/uploads/%E0%80')],
    ];
    for (const [method, p] of paths) {
      const a = await raw(emu.url, method, p, {
        headers: auth,
        ...(method === 'GET' ? {} : { body: '{}' }),
      });
      expect([p, a.status, JSON.parse(a.body).message]).toEqual([
        p,
        400,
        'the request path holds a malformed percent-encoding (%XX)',
      ]);
    }
  });

  test('slow clients are cut off: headers, a trickled body, an idle connection', async () => {
    const emu = await startEmulator({
      apiKeys: { [KEY]: 'sec' },
      timeouts: { headersMs: 300, requestMs: 900, idleMs: 600 },
    });
    onTestFinished(() => emu.close());
    const port = new URL(emu.url).port;
    const head = `POST /api/v2/data-imports:upload HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n`;
    expect(await heldFor(emu.url, head, 5000)).toBeLessThan(2500);
    const body = `${head}authorization: Bearer ${KEY}\r\ncontent-length: 100000\r\n\r\n{"a":`;
    expect(await heldFor(emu.url, body, 5000)).toBeLessThan(2500);
    expect(await heldFor(emu.url, '', 5000)).toBeLessThan(2500);
  });
});
