/**
 * `checkBatch`: every listed file is there (did you mean), its type matches its format, each
 * file of a folder fits its own or default config (issues under its pointer, naming the
 * member), data files not listed are reported; an archive gives the same issues as its
 * folder.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkBatch } from '../../src/check/index.js';
import type { Issue } from '../../src/model/issue.js';
import { campaignExpected, wrongCampaignBatch } from '../helpers/campaign.js';
import { repoRoot } from '../helpers/paths.js';

const dir = join(repoRoot, 'fixtures', 'batch');
const expected = campaignExpected;

function shape(issues: readonly Issue[]) {
  return issues.map((i) => ({
    code: i.code,
    severity: i.severity,
    path: i.path,
    file: i.source?.file,
  }));
}

const MISSING = {
  code: 'batch_file_missing',
  severity: 'error',
  path: '/batchConfig/fileConfigs/runs~1day 1~1run-l.csv',
  file: undefined,
};
const NOT_LISTED = (file: string) => ({
  code: 'batch_file_not_listed',
  severity: 'info',
  path: '/batchConfig/fileConfigs',
  file,
});
const TYPE = {
  code: 'batch_type_mismatch',
  severity: 'error',
  path: '/batchConfig/fileConfigs/tdms~1bench.tdms/type',
  file: 'tdms/bench.tdms',
};

describe('checkBatch', () => {
  test('the inferred batch fits its folder (only the failed member is not listed)', async () => {
    const issues = await checkBatch(expected.document.batchConfig, join(dir, 'campaign'));
    expect(shape(issues)).toEqual([NOT_LISTED('broken.parquet')]);
  });

  test('a folder: missing (did you mean), type, content and not-listed issues', async () => {
    const issues = await checkBatch(wrongCampaignBatch(), join(dir, 'campaign'));
    expect(shape(issues)).toEqual([
      MISSING,
      NOT_LISTED('broken.parquet'),
      {
        code: 'column_not_in_file',
        severity: 'error',
        path: '/batchConfig/fileConfigs/other-layout.csv/csvConfig/dataColumns/9',
        file: 'other-layout.csv',
      },
      NOT_LISTED('runs/day 1/run-1.csv'),
      TYPE,
    ]);
    expect(issues[0]?.message).toBe(
      'runs/day 1/run-l.csv is listed but not in the folder or archive',
    );
    expect(issues[0]?.hint).toBe("Did you mean 'runs/day 1/run-1.csv'?");
  });

  test('--full with several jobs: the same issues as one at a time, progress in members', async () => {
    const one = await checkBatch(wrongCampaignBatch(), join(dir, 'campaign'), {
      full: true,
      jobs: 1,
    });
    const calls: Array<[number, number]> = [];
    const three = await checkBatch(wrongCampaignBatch(), join(dir, 'campaign'), {
      full: true,
      jobs: 3,
      onProgress: (done, total) => calls.push([done, total]),
    });
    expect(three).toEqual(one);
    expect(shape(three)).toContainEqual(TYPE);
    const total = calls[0]?.[1] ?? 0;
    expect(total).toBeGreaterThan(3);
    expect(calls.map(([done]) => done)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect(calls.every(([, t]) => t === total)).toBe(true);
  });

  for (const name of ['campaign.zip', 'campaign.tar.gz', 'campaign.tar']) {
    test(`${name}: the same issues as its folder, each naming its member`, async () => {
      const folder = await checkBatch(wrongCampaignBatch(), join(dir, 'campaign'), { full: true });
      const archive = await checkBatch(wrongCampaignBatch(), join(dir, name), { full: true });
      expect(archive).toEqual(folder);
      expect(shape(archive)).toContainEqual({
        code: 'column_not_in_file',
        severity: 'error',
        path: '/batchConfig/fileConfigs/other-layout.csv/csvConfig/dataColumns/9',
        file: 'other-layout.csv',
      });
      expect(await checkBatch(expected.document.batchConfig, join(dir, name))).toEqual(
        await checkBatch(expected.document.batchConfig, join(dir, 'campaign')),
      );
    });
  }

  test('a data file instead of a folder', async () => {
    const issues = await checkBatch({}, join(repoRoot, 'fixtures', 'csv', 'bom-crlf.csv'));
    expect(shape(issues)).toEqual([
      {
        code: 'data_format_mismatch',
        severity: 'error',
        path: '/batchConfig',
        file: join(repoRoot, 'fixtures', 'csv', 'bom-crlf.csv'),
      },
    ]);
  });
});
