/**
 * The batch check before an upload runs in a worker thread (`checkBatchApart`): the worker
 * gives exactly the issues of the check in this thread, and when it cannot start or fails,
 * the check runs here instead, with the same issues or the same error.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkBatch } from '../../src/check/index.js';
import { checkBatchApart, checkInWorker } from '../../src/client/batch.js';
import { campaignExpected, wrongCampaignBatch } from '../helpers/campaign.js';
import { repoRoot } from '../helpers/paths.js';

const dir = join(repoRoot, 'fixtures', 'batch');
const expected = campaignExpected;

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
      const here = await checkBatch(wrongCampaignBatch(), path, options);
      const apart = await checkInWorker({ batch: wrongCampaignBatch(), path, options });
      expect(apart).toEqual(here);
      expect(here.filter((i) => i.severity === 'error').map((i) => i.code)).toEqual([
        'batch_file_missing',
        'column_not_in_file',
        'batch_type_mismatch',
      ]);
      expect(await checkBatchApart(wrongCampaignBatch(), path, options)).toEqual(here);
    });
  }

  for (const [what, url] of Object.entries(BROKEN)) {
    test(`${what}: no answer from the worker, the same issues from this thread`, async () => {
      const path = join(dir, 'campaign');
      const input = { batch: wrongCampaignBatch(), path, options: { jobs: 1 } };
      expect(await checkInWorker(input, url)).toBeUndefined();
      const here = await checkBatch(wrongCampaignBatch(), path, { jobs: 1 });
      expect(await checkBatchApart(wrongCampaignBatch(), path, { jobs: 1 }, url)).toEqual(here);
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
