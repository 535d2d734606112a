/**
 * `inferBatch`: a folder and the archives made of it (zip stored + deflated, ZIP64, tar with
 * PAX long names, tar.gz) give the whole expected draft; shared configs fold into defaults;
 * a failing member does not stop the others; damaged archives name the archive and member.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { zipBytes } from '../../scripts/fixtures/zip-writer.js';
import { checkBatch } from '../../src/check/index.js';
import { type BatchDraft, inferBatch } from '../../src/infer/batch.js';
import { InspectError } from '../../src/inspect/index.js';
import { tarOf } from '../helpers/archives.js';
import { repoRoot } from '../helpers/paths.js';

const dir = join(repoRoot, 'fixtures', 'batch');
const expected = (
  await import('../../fixtures/batch/campaign.expected.json', { with: { type: 'json' } })
).default as { document: { batchConfig: Record<string, unknown> }; issues: unknown[] };

const tmp = mkdtempSync(join(tmpdir(), 'importkit-batch-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function shape(draft: BatchDraft) {
  return draft.issues.map((i) => ({
    code: i.code,
    severity: i.severity,
    path: i.path,
    file: i.source?.file,
  }));
}

describe('the campaign fixture', () => {
  for (const name of [
    'campaign',
    'campaign.zip',
    'campaign-zip64.zip',
    'campaign.tar',
    'campaign.tar.gz',
  ]) {
    test(`${name}: the whole draft and its issues`, async () => {
      const draft = await inferBatch(join(dir, name), { jobs: 2 });
      const assetName = name.startsWith('campaign-zip64') ? 'campaign-zip64' : 'campaign';
      expect(draft.document).toEqual({
        batchConfig: { ...expected.document.batchConfig, assetName },
      });
      expect(shape(draft)).toEqual(expected.issues);
    });
  }

  test('--no-defaults keeps every config whole', async () => {
    const draft = await inferBatch(join(dir, 'campaign'), { defaults: false });
    const batch = draft.document.batchConfig ?? {};
    const shared = expected.document.batchConfig.defaultCsvConfig;
    expect(batch.defaultCsvConfig).toBeUndefined();
    expect(batch.fileConfigs?.['runs/day 1/run-1.csv']).toEqual({
      type: 'DATA_TYPE_KEY_CSV',
      csvConfig: shared,
    });
    expect(draft.evidence.some((e) => e.path === '/batchConfig/defaultCsvConfig')).toBe(false);
  });

  test('the evidence says which files share the default', async () => {
    const draft = await inferBatch(join(dir, 'campaign'));
    const fold = draft.evidence.find((e) => e.path === '/batchConfig/defaultCsvConfig');
    expect(fold?.choice).toBe('the config of 3 files');
    expect(fold?.reason).toContain('runs/day 2/run-2 é.csv');
  });

  test('the options given set the asset and run of the batch', async () => {
    const draft = await inferBatch(join(dir, 'campaign.zip'), {
      assetName: 'bench',
      runName: 'r7',
    });
    expect(draft.document.batchConfig?.assetName).toBe('bench');
    expect(draft.document.batchConfig?.runName).toBe('r7');
  });
});

describe('damaged archives', () => {
  test('a truncated tar.gz names the archive and the member being read', async () => {
    const err = await inferBatch(join(dir, 'truncated.tar.gz')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InspectError);
    expect((err as InspectError).code).toBe('archive_corrupt');
    expect((err as InspectError).message).toMatch(
      /truncated\.tar\.gz: member other-layout\.csv: the archive is truncated/,
    );
  });

  test('a truncated zip names the archive', async () => {
    const err = await inferBatch(join(dir, 'truncated.zip')).catch((e: unknown) => e);
    expect((err as InspectError).code).toBe('archive_corrupt');
    expect((err as InspectError).message).toContain('truncated.zip: the archive is truncated');
  });

  test('a path that is neither a folder nor an archive', async () => {
    const err = await inferBatch(join(repoRoot, 'fixtures', 'csv', 'bom-crlf.csv')).catch(
      (e: unknown) => e,
    );
    expect((err as InspectError).code).toBe('batch_no_data_files');
  });
});

// ---- HDF5 members: read in place, through the member's ByteSource ----------------------

describe('HDF5 members', () => {
  test('a folder, its zip and its tar.gz give the same draft and the same check', async () => {
    const base = join(tmp, 'hdf5');
    const h5 = readFileSync(join(repoRoot, 'fixtures', 'hdf5', 'one-d-root.h5'));
    const csv = Buffer.from(LAYOUTS[0]?.(3) ?? '');
    const files: Array<[string, Uint8Array]> = [
      ['run.csv', csv],
      ['h5/one d.h5', h5],
      ['h5/copy é.h5', h5],
    ];
    for (const [name, data] of files) {
      mkdirSync(join(base, 'set', dirname(name)), { recursive: true });
      writeFileSync(join(base, 'set', name), data);
    }
    writeFileSync(
      join(base, 'set.zip'),
      zipBytes(files.map(([name, data], i) => ({ name, data, method: i % 2 === 0 ? 8 : 0 }))),
    );
    writeFileSync(join(base, 'set.tar.gz'), await tarGz(files));
    const [a, b, c] = await Promise.all(
      ['set', 'set.zip', 'set.tar.gz'].map((n) => inferBatch(join(base, n))),
    );
    const configs = a?.document.batchConfig?.fileConfigs ?? {};
    expect(Object.keys(configs).sort()).toEqual(['h5/copy é.h5', 'h5/one d.h5', 'run.csv']);
    expect(a?.document.batchConfig?.defaultHdf5Config).toBeDefined();
    expect(b?.document).toEqual(a?.document);
    expect(c?.document).toEqual(a?.document);
    expect(b?.issues).toEqual(a?.issues);
    expect(c?.issues).toEqual(a?.issues);
    const batch = a?.document.batchConfig ?? {};
    const folder = await checkBatch(batch, join(base, 'set'));
    expect(await checkBatch(batch, join(base, 'set.zip'))).toEqual(folder);
    expect(await checkBatch(batch, join(base, 'set.tar.gz'))).toEqual(folder);
  });
});

// ---- property: a folder, its zip and its tar.gz give the same draft ----------------------

const LAYOUTS = [
  (n: number) =>
    `time,temp\n${Array.from({ length: n }, (_, i) => `2024-01-01T00:00:0${i}Z,${i}.5`).join('\n')}\n`,
  (n: number) =>
    `t_ms,v,ok\n${Array.from({ length: n }, (_, i) => `${1700000000000 + i},${i},${i % 2 === 0}`).join('\n')}\n`,
  () => 'just some notes\n',
];
const H5 = readFileSync(join(repoRoot, 'fixtures', 'hdf5', 'one-d-root.h5'));
// A 100-character segment makes names past the ustar header's 100 bytes (a PAX header).
const segment = fc.constantFrom('a', 'b c', 'é', 'data', 'x-1', '数据', 'long-'.repeat(20));

const folderArb = fc.uniqueArray(
  fc.record({
    parts: fc.array(segment, { minLength: 0, maxLength: 2 }),
    stem: fc.constantFrom('one', 'two', 'três', 'four 4', 'five'),
    // 0, 1: CSV layouts; 2: notes; 3: an HDF5 file (read in place by the HDF5 worker).
    layout: fc.integer({ min: 0, max: 3 }),
    rows: fc.integer({ min: 2, max: 5 }),
  }),
  { minLength: 1, maxLength: 6, selector: (f) => [...f.parts, f.stem].join('/') },
);

async function tarGz(files: ReadonlyArray<[string, Uint8Array]>): Promise<Buffer> {
  return gzipSync(await tarOf(files));
}

test('a folder, its zip, its tar and its tar.gz give the same draft (HDF5 members too)', async () => {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(folderArb, async (specs) => {
      run += 1;
      const base = join(tmp, `p${run}`);
      const root = join(base, 'set');
      const files: Array<[string, Uint8Array]> = [];
      for (const s of specs) {
        // Two files cannot be both a folder and a file: a stem is never a folder name here.
        const ext = ['csv', 'csv', 'txt', 'h5'][s.layout];
        const path = [...s.parts, `${s.stem}.${ext}`].join('/');
        const bytes =
          s.layout === 3 ? H5 : Buffer.from((LAYOUTS[s.layout] as (n: number) => string)(s.rows));
        mkdirSync(join(root, ...s.parts), { recursive: true });
        writeFileSync(join(root, path), bytes);
        files.push([path, bytes]);
      }
      writeFileSync(
        join(base, 'set.zip'),
        zipBytes(files.map(([name, data], i) => ({ name, data, method: i % 2 === 0 ? 8 : 0 }))),
      );
      writeFileSync(join(base, 'set.tar'), await tarOf(files));
      writeFileSync(join(base, 'set.tar.gz'), await tarGz(files));
      const [a, ...archives] = await Promise.all(
        ['set', 'set.zip', 'set.tar', 'set.tar.gz'].map((n) =>
          inferBatch(join(base, n), { jobs: 2 }),
        ),
      );
      expect(archives).toHaveLength(3);
      for (const b of archives) {
        expect(b?.document).toEqual(a?.document);
        expect(b?.issues).toEqual(a?.issues);
      }
      rmSync(base, { recursive: true, force: true });
    }),
    { numRuns: 12 },
  );
});
