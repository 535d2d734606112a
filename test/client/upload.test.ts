import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { contentDisposition } from '../../src/client/upload.js';
import { startEmulator } from '../../src/emulator/index.js';
import { json, plainServer, SECRET } from './_helpers.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-upload-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A server that records each upload's headers and bytes. */
async function recorder() {
  const got: Array<{
    headers: Record<string, unknown>;
    bytes: Buffer;
    method: string;
    url: string;
  }> = [];
  const srv = await plainServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    got.push({
      headers: req.headers,
      bytes: Buffer.concat(chunks),
      method: req.method ?? '',
      url: req.url ?? '',
    });
    json(res, 200, {});
  });
  return { ...srv, got };
}

describe('uploadFile', () => {
  test('streams the bytes with Content-Disposition, the bearer key and progress', async () => {
    const path = join(dir, 'sensor data.csv');
    const content = Buffer.from('a,b\n'.repeat(700_000));
    await writeFile(path, content);
    const srv = await recorder();
    try {
      const progress: Array<[number, number]> = [];
      const c = createClient({ baseUrl: srv.url, apiKey: SECRET });
      await c.uploadFile(`${srv.url}/upload/x?token=t`, path, {
        onProgress: (s, t) => progress.push([s, t]),
      });
      const [one] = srv.got;
      expect(one?.method).toBe('POST');
      expect(one?.url).toBe('/upload/x?token=t');
      expect(one?.headers['content-disposition']).toBe('attachment; filename="sensor data.csv"');
      expect(one?.headers['content-encoding']).toBeUndefined();
      expect(one?.headers.authorization).toBe(`Bearer ${SECRET}`);
      expect(one?.bytes.equals(content)).toBe(true);
      expect(progress[0]).toEqual([0, content.length]);
      expect(progress.at(-1)).toEqual([content.length, content.length]);
      const sent = progress.map((p) => p[0]);
      expect(sent).toEqual([...sent].sort((a, b) => a - b));
      expect(progress.length).toBeGreaterThan(2);
    } finally {
      await srv.close();
    }
  });

  test('a gzipped file goes as is with Content-Encoding: gzip', async () => {
    const path = join(dir, 'data.csv.gz');
    const gz = gzipSync(Buffer.from('t,v\n1,2\n'));
    await writeFile(path, gz);
    const srv = await recorder();
    try {
      await createClient({ baseUrl: srv.url, apiKey: SECRET }).uploadFile(`${srv.url}/u`, path);
      expect(srv.got[0]?.headers['content-encoding']).toBe('gzip');
      expect(srv.got[0]?.bytes.equals(gz)).toBe(true);
    } finally {
      await srv.close();
    }
  });

  test('an abort stops the upload with the caller’s reason', async () => {
    const path = join(dir, 'big.bin');
    await writeFile(path, Buffer.alloc(16 * 1024 * 1024));
    const srv = await plainServer((req) => {
      req.pause(); // never reads: the upload stalls until aborted
    });
    try {
      const controller = new AbortController();
      const reason = new Error('cancelled');
      setTimeout(() => controller.abort(reason), 100);
      const err = await createClient({ baseUrl: srv.url, apiKey: SECRET })
        .uploadFile(`${srv.url}/u`, path, { signal: controller.signal })
        .catch((e: unknown) => e);
      expect(err).toBe(reason);
    } finally {
      await srv.close();
    }
  });

  test('file names beyond ASCII get an RFC 5987 filename*', () => {
    expect(contentDisposition('été "1".csv')).toBe(
      `attachment; filename="_t_ \\"1\\".csv"; filename*=UTF-8''%C3%A9t%C3%A9%20%221%22.csv`,
    );
  });

  test('the emulator stores a gzipped upload decompressed and imports it', async () => {
    const emu = await startEmulator({ apiKeys: { [SECRET]: 'acme' } });
    try {
      const path = join(dir, 'small.csv.gz');
      const csv = 'time,v\n2024-01-01T00:00:00Z,1\n2024-01-01T00:00:01Z,2\n';
      await writeFile(path, gzipSync(Buffer.from(csv)));
      const c = createClient({ baseUrl: emu.url, apiKey: SECRET });
      const done = await c.importFile(
        path,
        {
          csvConfig: {
            assetName: 'a',
            firstDataRow: 2,
            timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_RFC3339' },
            dataColumns: { '2': { name: 'v', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' } },
          },
        },
        { wait: { intervalMs: 5, maxIntervalMs: 20 } },
      );
      expect(done.status).toBe('DATA_IMPORT_STATUS_SUCCEEDED');
      const rec = emu.store.data.imports[done.dataImportId ?? ''];
      expect(rec?.fileName).toBe('small.csv');
      expect(await readFile(rec?.filePath ?? '', 'utf8')).toBe(csv);
    } finally {
      await emu.close();
    }
  });
});
