import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { zipBytes } from '../../scripts/fixtures/zip-writer.js';
import { checkBatch } from '../../src/check/index.js';
import type { BatchConfig } from '../../src/model/batch.js';
import type { Issue } from '../../src/model/issue.js';
import { tarOf } from '../helpers/archives.js';
import { repoRoot } from '../helpers/paths.js';
import { tempWritesDuring } from '../helpers/temp-writes.js';

const campaign = join(repoRoot, 'fixtures', 'batch', 'campaign');
const expected = (
  await import('../../fixtures/batch/campaign.expected.json', { with: { type: 'json' } })
).default as { document: { batchConfig: BatchConfig } };

/** A member of each format a batch checks through its source (HDF5 aside). */
const MEMBERS = [
  'runs/day 1/run-1.csv',
  'other-layout.csv',
  'parquet/rows.parquet',
  'tdms/bench.tdms',
  'ulog/flight.ulg',
];

/** The campaign's configs for MEMBERS, each wrong in a way its check finds. */
function wrongBatch(): BatchConfig {
  const b = structuredClone(expected.document.batchConfig);
  const all = b.fileConfigs ?? {};
  b.fileConfigs = Object.fromEntries(MEMBERS.map((m) => [m, all[m] as never]));
  const files = b.fileConfigs;
  // CSV: the values of column 2 have fractions (read from every row with --full).
  const csv = b.defaultCsvConfig?.dataColumns?.['2'];
  if (csv) csv.dataType = 'CHANNEL_DATA_TYPE_INT_32';
  const own = files['other-layout.csv']?.csvConfig;
  if (own?.dataColumns)
    own.dataColumns['9'] = { name: 'ghost', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' };
  const flat = files['parquet/rows.parquet']?.parquetConfig?.flatDataset;
  flat?.dataColumns?.push({
    path: 'ghost',
    channelConfig: { name: 'ghost', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' },
  });
  files['tdms/bench.tdms']?.tdmsConfig?.data?.push({
    groupName: 'I',
    channelName: 'ghost',
    channelConfig: { name: 'ghost', dataType: 'CHANNEL_DATA_TYPE_FLOAT' },
  });
  const ulog = files['ulog/flight.ulg']?.ulogConfig?.data?.[0];
  if (ulog) ulog.fieldName = 'xx';
  return b;
}

let tmp: string;
const archives: Record<string, string> = {};

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'importkit-check-in-place-'));
  const members: Array<[string, Uint8Array]> = [];
  for (const m of MEMBERS) {
    const to = join(tmp, 'set', m);
    await mkdir(dirname(to), { recursive: true });
    await copyFile(join(campaign, m), to);
    members.push([m, await readFile(to)]);
  }
  const tar = await tarOf(members);
  const bytes: Record<string, Uint8Array> = {
    'stored.zip': zipBytes(members.map(([name, data]) => ({ name, data, method: 0 }))),
    'deflated.zip': zipBytes(members.map(([name, data]) => ({ name, data, method: 8 }))),
    'set.tar': tar,
    'set.tar.gz': gzipSync(tar),
  };
  for (const [name, data] of Object.entries(bytes)) {
    archives[name] = join(tmp, name);
    await writeFile(archives[name], data);
  }
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

/** Each member's codes, in order: what the comparison of folder and archive is about. */
function codesByFile(issues: readonly Issue[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const i of issues) {
    const file = i.source?.file ?? '';
    out[file] = [...(out[file] ?? []), i.code];
  }
  return out;
}

describe('checkBatch reads archive members in place', () => {
  for (const full of [false, true]) {
    test(`${full ? '--full' : 'sampled'}: each archive gives its folder's issues`, async () => {
      const folder = await checkBatch(wrongBatch(), join(tmp, 'set'), { full });
      const codes = codesByFile(folder);
      // Every member is found wrong, so the comparison compares each format's findings.
      expect(Object.keys(codes).sort()).toEqual([...MEMBERS].sort());
      expect(codes['parquet/rows.parquet']).toContain('column_not_in_file');
      expect(codes['tdms/bench.tdms']).toContain('tdms_channel_not_in_file');
      expect(codes['ulog/flight.ulg']).toContain('ulog_field_not_in_file');
      if (full) expect(codes['runs/day 1/run-1.csv']).toContain('value_type_mismatch');
      for (const path of Object.values(archives))
        expect(await checkBatch(wrongBatch(), path, { full })).toEqual(folder);
    });
  }

  /** The names written under a private temp folder (TMPDIR) while `run` runs. */
  async function writtenDuring(run: () => Promise<void>): Promise<string[]> {
    return (await tempWritesDuring(tmp, run)).written;
  }

  test('no file is written while an archive is checked', async () => {
    const none = await writtenDuring(async () => {
      for (const path of Object.values(archives))
        await checkBatch(wrongBatch(), path, { full: true });
    });
    expect(none).toEqual([]);
    // The watch sees a temp folder made.
    const some = await writtenDuring(async () => {
      await rm(await mkdtemp(join(tmpdir(), 'x-')), { recursive: true });
    });
    expect(some.length).toBeGreaterThan(0);
  });

  test("an HDF5 member, read in place: its folder's issues, sampled and --full, nothing written", async () => {
    const h5 = await readFile(join(repoRoot, 'fixtures', 'hdf5', 'compound.h5'));
    await mkdir(join(tmp, 'h5set', 'data'), { recursive: true });
    await writeFile(join(tmp, 'h5set', 'data', 'pack.h5'), h5);
    const hdf5 = (
      await import('../../fixtures/hdf5/compound.expected.json', { with: { type: 'json' } })
    ).default.document.hdf5Config as Record<string, unknown> & { data: Array<object> };
    const data = [...hdf5.data, { valueDataset: '/ghost', channelConfig: { name: 'ghost' } }];
    const batch = {
      fileConfigs: {
        'data/pack.h5': { type: 'DATA_TYPE_KEY_HDF5', hdf5Config: { ...hdf5, data } },
      },
    } as BatchConfig;
    const each = {
      stored: join(tmp, 'h5set-stored.zip'),
      deflated: join(tmp, 'h5set-deflated.zip'),
      tar: join(tmp, 'h5set.tar'),
      tgz: join(tmp, 'h5set.tar.gz'),
    };
    await writeFile(each.stored, zipBytes([{ name: 'data/pack.h5', data: h5, method: 0 }]));
    await writeFile(each.deflated, zipBytes([{ name: 'data/pack.h5', data: h5, method: 8 }]));
    const tar = await tarOf([['data/pack.h5', h5]]);
    await writeFile(each.tar, tar);
    await writeFile(each.tgz, gzipSync(tar));
    for (const full of [false, true]) {
      const folder = await checkBatch(batch, join(tmp, 'h5set'), { full });
      expect(codesByFile(folder)['data/pack.h5']).toContain('dataset_not_in_file');
      const written = await writtenDuring(async () => {
        for (const path of Object.values(each))
          expect(await checkBatch(batch, path, { full })).toEqual(folder);
      });
      expect(written).toEqual([]);
    }
  });
});
