import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ApiError,
  ClientError,
  createClient,
  NetworkError,
  ResponseError,
  TimeoutError,
} from '../../src/client/index.js';
import { backoffDelay, parseRetryAfter, retryPolicy } from '../../src/client/retry.js';
import { type Emulator, startEmulator } from '../../src/emulator/index.js';
import { closedPort, countingFetch, errorTexts, json, plainServer, SECRET } from './_helpers.js';

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ apiKeys: { [SECRET]: 'acme' } });
});
afterAll(async () => {
  await emu.close();
});

const fast = { backoffMs: 5, maxBackoffMs: 20 };

function client(extra: Partial<Parameters<typeof createClient>[0]> = {}) {
  const counted = countingFetch();
  const lines: string[] = [];
  const c = createClient({
    baseUrl: emu.url,
    apiKey: SECRET,
    fetch: counted.fetch,
    retry: { limit: 3, ...fast },
    log: (l) => lines.push(l),
    ...extra,
  });
  return { c, calls: counted.calls, lines };
}

describe('retries', () => {
  test('a GET is retried on injected 503s until it succeeds, counting attempts', async () => {
    emu.faults.set('503=2x');
    const { c, calls } = client();
    const org = await c.getApiKeyOrganization();
    expect(org.organizationName).toBe('acme');
    expect(calls).toHaveLength(3);
  });

  test('a GET gives up after the retry limit with the last ApiError', async () => {
    emu.faults.set('503=10x');
    const { c, calls } = client({ retry: { limit: 2, ...fast } });
    const err = await c.getApiKeyOrganization().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toBeInstanceOf(ClientError);
    expect((err as ApiError).status).toBe(503);
    expect((err as ApiError).grpcCode).toBe(14);
    expect((err as ApiError).code).toBe('api_error');
    expect((err as ApiError).method).toBe('GET');
    expect((err as ApiError).url).toBe(`${emu.url}/api/v2/api-keys/organization`);
    expect(calls).toHaveLength(3);
  });

  test('dropped connections are network errors, retried for GETs', async () => {
    emu.faults.set('drop=1x');
    const { c, calls } = client();
    await c.getApiKeyOrganization();
    expect(calls).toHaveLength(2);
    emu.faults.set('drop=5x');
    const err = await client({ retry: { limit: 1, ...fast } })
      .c.getApiKeyOrganization()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).unsent).toBe(false);
  });

  test('a POST that creates an import is not retried after it reached the server', async () => {
    emu.faults.set('503=1x');
    const { c, calls } = client();
    const err = await c
      .createImportFromUpload({ csvConfig: { assetName: 'a' } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(calls).toHaveLength(1);
    emu.faults.set('drop=1x');
    const second = client();
    const dropped = await second.c
      .createImportFromUpload({ csvConfig: { assetName: 'a' } })
      .catch((e: unknown) => e);
    expect(dropped).toBeInstanceOf(NetworkError);
    expect(second.calls).toHaveLength(1);
  });

  test('a POST is retried when the connection was refused (it never left)', async () => {
    const { c, calls } = client({
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
      retry: { limit: 2, ...fast },
    });
    const err = await c.createImportFromUpload({ csvConfig: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).errno).toBe('ECONNREFUSED');
    expect((err as NetworkError).unsent).toBe(true);
    expect(calls).toHaveLength(3);
  });

  test('Retry-After is honoured', async () => {
    emu.faults.set('429=1x:0.4');
    const { c, calls } = client({ retry: { limit: 2, backoffMs: 1, maxBackoffMs: 1 } });
    const t0 = performance.now();
    await c.getApiKeyOrganization();
    const ms = performance.now() - t0;
    expect(calls).toHaveLength(2);
    expect(ms).toBeGreaterThanOrEqual(390);
  });

  test('a Retry-After beyond maxRetryAfterMs is not waited for', async () => {
    emu.faults.set('429=1x:120');
    const { c, calls } = client({ retry: { limit: 2, maxRetryAfterMs: 1000, ...fast } });
    const err = await c.getApiKeyOrganization().catch((e: unknown) => e);
    expect((err as ApiError).status).toBe(429);
    expect((err as ApiError).retryAfterMs).toBe(120_000);
    expect(calls).toHaveLength(1);
  });

  test('an abort during a backoff sleep ends at once with the caller’s reason', async () => {
    emu.faults.set('503=10x');
    const { c } = client({
      retry: { limit: 5, backoffMs: 10_000, maxBackoffMs: 10_000, jitter: 0 },
    });
    const controller = new AbortController();
    const reason = new Error('stop now');
    setTimeout(() => controller.abort(reason), 100);
    const t0 = performance.now();
    const err = await c
      .getApiKeyOrganization({ signal: controller.signal })
      .catch((e: unknown) => e);
    expect(err).toBe(reason);
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  test('an already aborted signal sends nothing', async () => {
    emu.faults.set('');
    const { c, calls } = client();
    const err = await c
      .getApiKeyOrganization({ signal: AbortSignal.abort(new Error('no')) })
      .catch((e: unknown) => e);
    expect((err as Error).message).toBe('no');
    expect(calls).toHaveLength(0);
  });

  test('per-attempt timeout is retried; the overall deadline ends the call', async () => {
    emu.faults.set('latency=1:300');
    const { c, calls } = client({ timeoutMs: 50, deadlineMs: 400, retry: { limit: 10, ...fast } });
    const err = await c.getApiKeyOrganization().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as TimeoutError).attempt).toBe(false);
    expect((err as TimeoutError).message).toContain('deadline');
    expect(calls.length).toBeGreaterThan(2);
    // Each attempt lasts its 50 ms timeout at least, so the 400 ms deadline leaves room for
    // 8 of them; the retry limit alone would allow 11. A count, not a time: on a busy
    // machine attempts only get longer, and fewer.
    expect(calls.length).toBeLessThanOrEqual(400 / 50 + 1);
    emu.faults.set('');
  });

  test('backoff doubles, is capped and jittered; Retry-After reads seconds and dates', () => {
    const p = retryPolicy({ backoffMs: 100, maxBackoffMs: 1000, jitter: 0.5 });
    expect([0, 1, 2, 3, 4].map((n) => backoffDelay(p, n, () => 0))).toEqual([
      100, 200, 400, 800, 1000,
    ]);
    expect(backoffDelay(p, 1, () => 1)).toBe(100);
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});

describe('errors and the key', () => {
  test('a wrong key: 401 with code 16, and neither key appears anywhere', async () => {
    emu.faults.set('');
    const wrong = `${SECRET}-wrong`;
    const lines: string[] = [];
    const c = createClient({
      baseUrl: emu.url,
      apiKey: wrong,
      log: (l) => lines.push(l),
      retry: 0,
    });
    const err = await c.getDataImport('x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(401);
    expect((err as ApiError).grpcCode).toBe(16);
    const texts = `${errorTexts(err)}\n${lines.join('\n')}`;
    expect(texts).not.toContain(SECRET);
    expect(lines.length).toBeGreaterThan(0);
  });

  test('a server that echoes the key in its message: the key is redacted from the error', async () => {
    const srv = await plainServer((req, res) =>
      json(res, 400, {
        code: 3,
        message: `bad key ${req.headers.authorization}`,
        details: [{ '@type': 'x', echo: SECRET }],
      }),
    );
    try {
      const lines: string[] = [];
      const c = createClient({ baseUrl: srv.url, apiKey: SECRET, log: (l) => lines.push(l) });
      const err = (await c.getAsset('a').catch((e: unknown) => e)) as ApiError;
      expect(err.serverMessage).toBe('bad key Bearer [redacted]');
      expect(err.details).toEqual([{ '@type': 'x', echo: '[redacted]' }]);
      expect(`${errorTexts(err)}\n${lines.join('\n')}`).not.toContain(SECRET);
    } finally {
      await srv.close();
    }
  });

  test('every error path of the client keeps the key out (network, timeout, response, refused)', async () => {
    const errors: unknown[] = [];
    const lines: string[] = [];
    const log = (l: string) => lines.push(l);
    errors.push(
      await createClient({
        baseUrl: `http://127.0.0.1:${await closedPort()}`,
        apiKey: SECRET,
        retry: 0,
        log,
      })
        .getAsset('a')
        .catch((e: unknown) => e),
    );
    const srv = await plainServer((req, res) => {
      if (req.url?.includes('slow')) setTimeout(() => json(res, 200, {}), 500);
      else if (req.url?.includes('html')) res.end('<html>proxy</html>');
      else json(res, 200, { notAsset: true });
    });
    try {
      const c = createClient({ baseUrl: srv.url, apiKey: SECRET, timeoutMs: 50, retry: 0, log });
      errors.push(await c.getAsset('slow').catch((e: unknown) => e));
      errors.push(await c.getAsset('html').catch((e: unknown) => e));
      errors.push(await c.getAsset('other').catch((e: unknown) => e));
    } finally {
      await srv.close();
    }
    expect(errors.map((e) => (e as Error).constructor.name)).toEqual([
      'NetworkError',
      'TimeoutError',
      'ResponseError',
      'ResponseError',
    ]);
    expect(errors[2]).toBeInstanceOf(ResponseError);
    for (const e of errors) expect(errorTexts(e)).not.toContain(SECRET);
    expect(lines.join('\n')).not.toContain(SECRET);
  });

  test('bad options are refused without echoing the key', () => {
    expect(() => createClient({ baseUrl: 'ftp://x', apiKey: SECRET })).toThrow(/baseUrl/);
    expect(() => createClient({ baseUrl: 'http://x', apiKey: '' })).toThrow(/apiKey/);
  });

  test('the request carries the bearer key, the user agent and JSON headers', async () => {
    let seen: Record<string, unknown> = {};
    const srv = await plainServer((req, res) => {
      seen = req.headers;
      json(res, 200, { organization: { organizationId: 'o' } });
    });
    try {
      await createClient({
        baseUrl: `${srv.url}/`,
        apiKey: SECRET,
        userAgent: 'ua/1',
      }).getApiKeyOrganization();
      expect(seen.authorization).toBe(`Bearer ${SECRET}`);
      expect(seen['user-agent']).toBe('ua/1');
      expect(seen.accept).toBe('application/json');
    } finally {
      await srv.close();
    }
  });
});
