/**
 * The client keeps its key and never waits forever (issue 12, points 4 and 7).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ClientError, createClient, TimeoutError } from '../../src/client/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import { json, plainServer, SECRET } from '../client/_helpers.js';

let dir: string;
let file: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-security-client-'));
  file = join(dir, 'd.csv');
  await writeFile(file, 'time,a\n2024-01-01T00:00:00Z,1\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('point 4: the key goes to the baseUrl origin only', () => {
  test('an upload URL on another origin gets the file and no key; the service gets the key', async () => {
    const seen: Array<{ where: string; auth: string | undefined }> = [];
    const record = (where: string, req: IncomingMessage) =>
      seen.push({ where, auth: req.headers.authorization });
    const storage = await plainServer((req, res) => {
      record('storage', req);
      req.resume();
      req.on('end', () => json(res, 200, {}));
    });
    const api = await plainServer((req, res) => {
      record('api', req);
      req.resume();
      json(res, 200, { uploadUrl: `${storage.url}/bucket/x?sig=abc`, dataImportId: 'i1' });
    });
    try {
      const client = createClient({ baseUrl: api.url, apiKey: SECRET, retry: 0 });
      const target = await client.createImportFromUpload({ csvConfig: {} } as never);
      await client.uploadFile(target.uploadUrl, file);
      expect(seen).toEqual([
        { where: 'api', auth: `Bearer ${SECRET}` },
        { where: 'storage', auth: undefined },
      ]);
    } finally {
      await api.close();
      await storage.close();
    }
  });

  test('plain http to another machine is refused; https anywhere and http on loopback are not', () => {
    for (const baseUrl of [
      'http://api.example.com',
      'http://10.0.0.5:8080',
      'http://[::ffff:127.0.0.1]',
    ]) {
      let err: unknown;
      try {
        createClient({ baseUrl, apiKey: SECRET });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ClientError);
      expect((err as ClientError).issueCode).toBe('client_options_invalid');
      expect((err as Error).message).toMatch(/never sent over plain http to another machine/);
    }
    for (const baseUrl of [
      'https://api.example.com',
      'http://127.0.0.1:1',
      'http://127.1.2.3',
      'http://localhost:8080/prefix',
      'http://[::1]:9',
    ]) {
      expect(() => createClient({ baseUrl, apiKey: SECRET })).not.toThrow();
    }
  });

  test('plain http to another machine goes only to a host named in allowHttpHosts', () => {
    const allowHttpHosts = ['emulator', '10.0.0.5', '[FD00::2]'];
    for (const baseUrl of ['http://emulator:8080', 'http://10.0.0.5', 'http://[fd00::2]:8080']) {
      expect(() => createClient({ baseUrl, apiKey: SECRET, allowHttpHosts })).not.toThrow();
    }
    for (const baseUrl of ['http://emulator.example', 'http://10.0.0.6', 'http://[fd00::3]']) {
      expect(() => createClient({ baseUrl, apiKey: SECRET, allowHttpHosts })).toThrow(
        /never sent over plain http to another machine/,
      );
    }
  });
});

describe('point 7: bounded waits', () => {
  test('a wait on a service that went away ends, naming the refused connection', async () => {
    const emu = await startEmulator({ apiKeys: { [SECRET]: 'org' } });
    const client = createClient({ baseUrl: emu.url, apiKey: SECRET, retry: 0 });
    const target = await client.createImportFromUpload({
      csvConfig: {
        assetName: 'a',
        firstDataRow: 2,
        timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_RFC3339' },
        dataColumns: { '2': { name: 'a', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' } },
      },
    });
    // No file yet: the import stays PENDING, and the service goes away.
    await emu.close();
    const started = performance.now();
    const err = await client
      .waitForImport(target.dataImportId, { intervalMs: 20, maxIntervalMs: 40, unreachableMs: 500 })
      .catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as Error).message).toMatch(
      new RegExp(
        `^data import ${target.dataImportId}: no answer from the service for 500 ms \\(last status: .*; last error: GET .* failed: .*ECONNREFUSED`,
      ),
    );
  });

  test('the deadline names the last error too', async () => {
    const down = await plainServer((_req, res) => json(res, 503, { code: 14, message: 'down' }));
    try {
      const client = createClient({ baseUrl: down.url, apiKey: SECRET, retry: 0 });
      const err = await client
        .waitForImport('i1', { intervalMs: 20, maxIntervalMs: 40, timeoutMs: 300 })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TimeoutError);
      expect((err as Error).message).toMatch(
        /^data import i1 did not finish within 300 ms \(last status: none read yet; last error: GET .* failed: HTTP 503, code 14: down\)$/,
      );
    } finally {
      await down.close();
    }
  });

  test('an upload to a server that never answers ends after the idle timeout', async () => {
    const silent = await plainServer((req) => req.resume());
    try {
      const client = createClient({
        baseUrl: silent.url,
        apiKey: SECRET,
        retry: 0,
        idleTimeoutMs: 300,
      });
      const started = performance.now();
      const err = await client.uploadFile(`${silent.url}/up`, file).catch((e: unknown) => e);
      expect(performance.now() - started).toBeLessThan(5000);
      expect(err).toBeInstanceOf(TimeoutError);
      expect((err as Error).message).toMatch(/^POST .*\/up: nothing sent or received for 300 ms$/);
    } finally {
      await silent.close();
    }
  });
});
