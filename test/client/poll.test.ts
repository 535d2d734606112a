import { afterEach, describe, expect, test } from 'vitest';
import { ApiError, createClient, ImportFailedError, TimeoutError } from '../../src/client/index.js';
import { waitForImport } from '../../src/client/poll.js';
import type { DataImport } from '../../src/model/resources.js';
import { errorTexts, json, plainServer, SECRET } from './_helpers.js';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** A server answering GetDataImport with the next of `answers` each time (the last repeats). */
async function scripted(answers: Array<{ status: number; body: unknown }>) {
  let i = 0;
  const srv = await plainServer((_req, res) => {
    const a = answers[Math.min(i, answers.length - 1)];
    i++;
    json(res, a?.status ?? 500, a?.body ?? {});
  });
  close = srv.close;
  const lines: string[] = [];
  const client = createClient({
    baseUrl: srv.url,
    apiKey: SECRET,
    retry: 0,
    log: (l) => lines.push(l),
  });
  return { client, lines, count: () => i };
}

const di = (status: string, more: Record<string, unknown> = {}) => ({
  status: 200,
  body: { dataImport: { dataImportId: 'd1', status, ...more } },
});
const fast = { intervalMs: 2, maxIntervalMs: 4 };

describe('waitForImport', () => {
  test('SUCCEEDED returns the DataImport with its warnings; an unknown status is reported once and polling goes on', async () => {
    const { client, lines, count } = await scripted([
      di('DATA_IMPORT_STATUS_PENDING'),
      di('DATA_IMPORT_STATUS_PAUSED'),
      { status: 503, body: { code: 14, message: 'busy' } },
      di('DATA_IMPORT_STATUS_PAUSED'),
      di('DATA_IMPORT_STATUS_IN_PROGRESS'),
      di('DATA_IMPORT_STATUS_SUCCEEDED', { warnings: ['column 4 is empty'] }),
    ]);
    const seen: string[] = [];
    const unknown: string[] = [];
    const done = await client.waitForImport('d1', {
      ...fast,
      onStatus: (d) => seen.push(String(d.status)),
      onUnknownStatus: (s) => unknown.push(s),
    });
    expect(done).toEqual({
      dataImportId: 'd1',
      status: 'DATA_IMPORT_STATUS_SUCCEEDED',
      warnings: ['column 4 is empty'],
    });
    expect(seen).toEqual([
      'DATA_IMPORT_STATUS_PENDING',
      'DATA_IMPORT_STATUS_PAUSED',
      'DATA_IMPORT_STATUS_PAUSED',
      'DATA_IMPORT_STATUS_IN_PROGRESS',
      'DATA_IMPORT_STATUS_SUCCEEDED',
    ]);
    expect(unknown).toEqual(['DATA_IMPORT_STATUS_PAUSED']);
    expect(lines.filter((l) => l.includes('unknown status'))).toEqual([
      'data import d1: unknown status DATA_IMPORT_STATUS_PAUSED; still waiting',
    ]);
    expect(count()).toBe(6);
  });

  test('a status written as its enum number is read as its name', async () => {
    const { client } = await scripted([
      { status: 200, body: { dataImport: { dataImportId: 'd1', status: 2 } } },
      { status: 200, body: { dataImport: { dataImportId: 'd1', status: 3 } } },
    ]);
    const seen: unknown[] = [];
    const done = await client.waitForImport('d1', {
      ...fast,
      onStatus: (d) => seen.push(d.status),
    });
    expect(seen).toEqual(['DATA_IMPORT_STATUS_IN_PROGRESS', 'DATA_IMPORT_STATUS_SUCCEEDED']);
    expect(done.status).toBe('DATA_IMPORT_STATUS_SUCCEEDED');
  });

  test('FAILED throws ImportFailedError carrying errorMessage', async () => {
    const { client } = await scripted([
      di('DATA_IMPORT_STATUS_FAILED', { errorMessage: "column 'x' is not in the file" }),
    ]);
    const err = (await client
      .waitForImport('d1', fast)
      .catch((e: unknown) => e)) as ImportFailedError;
    expect(err).toBeInstanceOf(ImportFailedError);
    expect(err.errorMessage).toBe("column 'x' is not in the file");
    expect(err.message).toBe("data import d1 failed: column 'x' is not in the file");
    expect((err.dataImport as DataImport).status).toBe('DATA_IMPORT_STATUS_FAILED');
  });

  test('the deadline throws a TimeoutError naming the last status', async () => {
    const { client } = await scripted([di('DATA_IMPORT_STATUS_IN_PROGRESS')]);
    const t0 = performance.now();
    const err = (await client
      .waitForImport('d1', { ...fast, timeoutMs: 120 })
      .catch((e: unknown) => e)) as TimeoutError;
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err.lastStatus).toBe('DATA_IMPORT_STATUS_IN_PROGRESS');
    expect(err.message).toBe(
      'data import d1 did not finish within 120 ms (last status: DATA_IMPORT_STATUS_IN_PROGRESS)',
    );
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(errorTexts(err)).not.toContain(SECRET);
  });

  test('an abort during the sleep ends the wait at once', async () => {
    const { client, count } = await scripted([di('DATA_IMPORT_STATUS_PENDING')]);
    const controller = new AbortController();
    let t0 = 0;
    const onStatus = () => {
      // The first answer is in: the wait now sleeps 60 s, and the abort comes during it.
      setTimeout(() => {
        t0 = performance.now();
        controller.abort(new Error('user stop'));
      }, 50);
    };
    const err = await client
      .waitForImport('d1', { intervalMs: 60_000, signal: controller.signal, onStatus })
      .catch((e: unknown) => e);
    expect((err as Error).message).toBe('user stop');
    expect(performance.now() - t0).toBeLessThan(500);
    expect(count()).toBe(1);
  });

  test('a 404 ends the wait with the ApiError', async () => {
    const { client } = await scripted([
      { status: 404, body: { code: 5, message: 'data import d1 not found' } },
    ]);
    const err = await client.waitForImport('d1', fast).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect([
      (err as ApiError).status,
      (err as ApiError).grpcCode,
      (err as ApiError).serverMessage,
    ]).toEqual([404, 5, 'data import d1 not found']);
  });

  test('intervals start small, double, and stop at the cap', async () => {
    const times: number[] = [];
    let n = 0;
    const get = async (): Promise<DataImport> => {
      times.push(performance.now());
      n++;
      return {
        dataImportId: 'd',
        status: n < 6 ? 'DATA_IMPORT_STATUS_PENDING' : 'DATA_IMPORT_STATUS_SUCCEEDED',
      };
    };
    await waitForImport(get, 'd', { intervalMs: 10, maxIntervalMs: 40 });
    const gaps = times.slice(1).map((t, i) => t - (times[i] ?? 0));
    const expected = [10, 20, 40, 40, 40];
    expect(gaps).toHaveLength(5);
    gaps.forEach((g, i) => {
      expect(g).toBeGreaterThanOrEqual((expected[i] ?? 0) - 2);
    });
    expect(Math.max(...gaps)).toBeLessThan(2000);
  });
});
