/**
 * The batch check before an upload runs in a worker thread (`checkBatchApart`): the worker
 * gives exactly the issues of the check in this thread, and when it cannot start or fails,
 * the check runs here instead, with the same issues or the same error.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkBatch } from '../../src/check/index.js';
import { checkBatchApart, checkInWorker } from '../../src/client/batch.js';
import type { BatchConfig } from '../../src/model/batch.js';
import { repoRoot } from '../helpers/paths.js';

const dir = join(repoRoot, 'fixtures', 'batch');
const expected = (
  await import('../../fixtures/batch/campaign.expected.json', { with: { type: 'json' } })
).default as { document: { batchConfig: BatchConfig } };

/** The inferred batch with a misspelt path, a wrong type and a column past the last. */
function wrongBatch(): BatchConfig {
  const b = structuredClone(expected.document.batchConfig);
  const files = b.fileConfigs ?? {};
  files['runs/day 1/run-l.csv'] = files['runs/day 1/run-1.csv'] as never;
  delete files['runs/day 1/run-1.csv'];
  files['tdms/bench.tdms'] = { type: 'DATA_TYPE_KEY_CSV' };
  const own = files['other-layout.csv']?.csvConfig;
  if (own?.dataColumns)
    own.dataColumns['9'] = { name: 'ghost', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' };
  return b;
}

const script = (code: string) => new URL(`data:text/javascript,${encodeURIComponent(code)}`);

/** Workers that do not answer with issues: each must leave the check to this thread. */
const BROKEN: Record<string, URL> = {
  'a missing module': new URL('./no-such-check-worker.js', import.meta.url),
  'a module that throws': script('throw new Error("broken on load");'),
  'a worker that ends without an answer': script('process.exit(3);'),
  'a worker that fails its check': script(
    'import { parentPort } from "node:worker_threads"; parentPort.postMessage({ ok: false, error: "failed" });',
  ),
};

describe('the batch check in a worker thread', () => {
  for (const name of ['campaign', 'campaign.zip']) {
    test(`${name}: the worker gives the issues of the check in this thread`, async () => {
      const path = join(dir, name);
      const options = { jobs: 1 };
      const here = await checkBatch(wrongBatch(), path, options);
      const apart = await checkInWorker({ batch: wrongBatch(), path, options });
      expect(apart).toEqual(here);
      expect(here.filter((i) => i.severity === 'error').map((i) => i.code)).toEqual([
        'batch_file_missing',
        'column_not_in_file',
        'batch_type_mismatch',
      ]);
      expect(await checkBatchApart(wrongBatch(), path, options)).toEqual(here);
    });
  }

  for (const [what, url] of Object.entries(BROKEN)) {
    test(`${what}: no answer from the worker, the same issues from this thread`, async () => {
      const path = join(dir, 'campaign');
      const input = { batch: wrongBatch(), path, options: { jobs: 1 } };
      expect(await checkInWorker(input, url)).toBeUndefined();
      const here = await checkBatch(wrongBatch(), path, { jobs: 1 });
      expect(await checkBatchApart(wrongBatch(), path, { jobs: 1 }, url)).toEqual(here);
    });
  }

  test('a damaged archive: the worker fails, and the error is thrown as in this thread', async () => {
    const path = join(dir, 'truncated.zip');
    const batch = expected.document.batchConfig;
    expect(await checkInWorker({ batch, path, options: {} })).toBeUndefined();
    const here = await checkBatch(batch, path).catch((e: unknown) => e);
    const apart = await checkBatchApart(batch, path).catch((e: unknown) => e);
    expect(here).toBeInstanceOf(Error);
    expect((apart as Error).constructor).toBe((here as Error).constructor);
    expect((apart as Error).message).toBe((here as Error).message);
    expect((apart as Error).message).toContain('truncated.zip: the archive is truncated');
  });
});
