/**
 * The rules of an archive's listing hold the same way in `infer`, `check` (at any job count)
 * and the emulator's batch import: overlapping zip members, duplicate names and names that
 * are not relative paths are refused naming the members, and the members' sizes count
 * against one inflation budget (an unlisted tar.gz member too, refused before a byte of it
 * is inflated).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { tarOf } from '../../scripts/fixtures/tar-writer.js';
import { type ZipMember, zipBytes } from '../../scripts/fixtures/zip-writer.js';
import { createClient } from '../../src/client/index.js';
import { type Emulator, startEmulator } from '../../src/emulator/index.js';
import type { BatchConfig } from '../../src/model/batch.js';
import { runCli } from '../helpers/cli.js';

const KEY = `rules-key-${Date.now()}`;
let emu: Emulator;
let dir: string;

beforeAll(async () => {
  emu = await startEmulator({ apiKeys: { [KEY]: 'rules' }, stepDelayMs: 0 });
  dir = await mkdtemp(join(tmpdir(), 'importkit-archive-rules-'));
});
afterAll(async () => {
  await emu.close();
  await rm(dir, { recursive: true, force: true });
});

const GOOD = Buffer.from('time,v\n2024-01-01T00:00:00Z,1.5\n2024-01-01T00:00:01Z,2.5\n');
const BAD = Buffer.from('time,v\nyesterday,abc\nnoon,def\n');
const CSV = {
  firstDataRow: 2,
  timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_RFC3339' },
  dataColumns: { '2': { name: 'v', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' } },
} as const;

function batchOf(...paths: string[]): BatchConfig {
  return {
    assetName: 'rules',
    defaultCsvConfig: CSV,
    fileConfigs: Object.fromEntries(paths.map((p) => [p, { type: 'DATA_TYPE_KEY_CSV' }])),
  };
}

async function write(name: string, bytes: Uint8Array): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return path;
}

/**
 * `check` of the batch against the archive with `jobs` jobs: its issues (`code: message`),
 * those of the JSON report or the one that stopped it (an archive that cannot be read).
 */
async function check(batch: BatchConfig, archive: string, jobs = 1) {
  const config = await write(
    `batch-${Date.now()}-${jobs}.json`,
    Buffer.from(JSON.stringify({ batchConfig: batch })),
  );
  const r = await runCli(dir, ['check', config, archive, '-j', String(jobs), '--reporter', 'json']);
  const stopped = /^importkit check: error ([a-z_0-9]+): (.*)$/m.exec(r.stderr);
  if (r.stdout === '' && stopped) return { code: r.code, issues: [`${stopped[1]}: ${stopped[2]}`] };
  const issues = (
    JSON.parse(r.stdout) as { files: Array<{ issues: Array<{ code: string; message: string }> }> }
  ).files.flatMap((x) => x.issues);
  return { code: r.code, issues: issues.map((i) => `${i.code}: ${i.message}`) };
}

/**
 * The emulator's batch import of the archive, sent as it is (a tar.gz too, without
 * `Content-Encoding: gzip`): its status and error message.
 */
async function emulated(batch: BatchConfig, archive: string) {
  const c = createClient({ baseUrl: emu.url, apiKey: KEY });
  const target = await c.createImportFromUpload({ batchConfig: batch });
  await c.uploadFile(target.uploadUrl, archive, { gzip: false });
  await c.waitForImport(target.dataImportId, { intervalMs: 10 }).catch(() => undefined);
  const di = emu.store.data.imports[target.dataImportId]?.dataImport;
  return { status: di?.status, error: di?.errorMessage };
}

describe('overlapping zip members (point 6)', () => {
  const members: ZipMember[] = [
    { name: 'a.csv', data: GOOD, method: 8 },
    { name: 'b.csv', data: GOOD, method: 8, sharesDataOf: 0 },
    { name: 'c.csv', data: GOOD, method: 8, sharesDataOf: 0 },
  ];
  const overlap =
    /archive_members_overlap: .*members "a\.csv" and "b\.csv" share bytes of the archive/;

  test('infer, check and the emulator refuse them, naming two of them', async () => {
    const zip = await write('overlap.zip', zipBytes(members));
    const inferred = await runCli(dir, ['infer', zip]);
    expect(inferred.code).toBe(1);
    expect(inferred.stderr).toMatch(overlap);
    const checked = await check(batchOf('a.csv', 'b.csv', 'c.csv'), zip);
    expect(checked.code).toBe(1);
    expect(checked.issues).toHaveLength(1);
    expect(checked.issues[0]).toMatch(overlap);
    const imported = await emulated(batchOf('a.csv', 'b.csv', 'c.csv'), zip);
    expect(imported.status).toBe('DATA_IMPORT_STATUS_FAILED');
    expect(imported.error).toMatch(
      /^cannot read the archive: members "a\.csv" and "b\.csv" share bytes/,
    );
  });

  test('a zip whose members unpack past the budget is refused by infer, check and the emulator', async () => {
    const line = '2024-01-01T00:00:00Z,1.5\n';
    const big = Buffer.from(`time,v\n${line.repeat(Math.ceil((24 * 1024 * 1024) / line.length))}`);
    const zip = await write('bomb.zip', zipBytes([{ name: 'big.csv', data: big, method: 8 }]));
    const tooLarge =
      /archive_too_large: .*its members unpack to more than 100 times the archive's size/;
    const inferred = await runCli(dir, ['infer', zip]);
    expect(inferred.code).toBe(1);
    expect(inferred.stderr).toMatch(tooLarge);
    const checked = await check(batchOf('big.csv'), zip);
    expect(checked.issues).toHaveLength(1);
    expect(checked.issues[0]).toMatch(tooLarge);
    const imported = await emulated(batchOf('big.csv'), zip);
    expect(imported.status).toBe('DATA_IMPORT_STATUS_FAILED');
    expect(imported.error).toMatch(
      /^cannot read the archive: its members unpack to more than 100 times/,
    );
  });
});

describe('duplicate member names (point 15)', () => {
  test('a good a.csv then a bad a.csv: refused the same at -j 1 and -j 2, and by the emulator', async () => {
    const zip = await write(
      'twice.zip',
      zipBytes([
        { name: 'a.csv', data: GOOD, method: 8 },
        { name: 'a.csv', data: BAD, method: 8 },
      ]),
    );
    const tar = await write(
      'twice.tar.gz',
      gzipSync(
        await tarOf([
          ['a.csv', GOOD],
          ['a.csv', BAD],
        ]),
      ),
    );
    const message = 'members 1 and 2 are both named "a.csv"';
    for (const archive of [zip, tar]) {
      for (const jobs of [1, 2]) {
        const checked = await check(batchOf('a.csv'), archive, jobs);
        expect(checked.code, `${archive} -j ${jobs}`).toBe(1);
        expect(checked.issues).toEqual([
          `archive_member_duplicate: ${archive}: ${message}; which one is imported is not defined, so the archive is refused`,
        ]);
      }
      const imported = await emulated(batchOf('a.csv'), archive);
      expect(imported.status).toBe('DATA_IMPORT_STATUS_FAILED');
      expect(imported.error).toContain('members 1 and 2 are both named "a.csv"');
    }
  });
});

describe('names that are not relative paths (point 19)', () => {
  test('an absolute member name is refused by check and by the emulator, tar and zip alike', async () => {
    const name = '/tmp/importkit-absolute.csv';
    const tar = await write('absolute.tar', await tarOf([[name, GOOD]]));
    const zip = await write('absolute.zip', zipBytes([{ name, data: GOOD, method: 0 }]));
    const unsafe = `member "${name}" is not a relative path inside the archive (it is absolute); the archive is refused`;
    for (const archive of [tar, zip]) {
      const checked = await check(batchOf(name), archive);
      expect(checked.code, archive).toBe(1);
      expect(checked.issues).toEqual([`archive_member_name_unsafe: ${archive}: ${unsafe}`]);
      const imported = await emulated(batchOf(name), archive);
      expect(imported.status).toBe('DATA_IMPORT_STATUS_FAILED');
      expect(imported.error).toContain(`member "${name}" is not a relative path`);
    }
  });
});

describe('a folder whose file a zip cannot name', () => {
  test('is refused by check and infer, as an archive of that name would be', async () => {
    const folder = join(dir, 'drive-like');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'ok.csv'), GOOD);
    // Legal on the disk; a zip reads it as a drive (yazl refuses to write it).
    await writeFile(join(folder, 'a: b.csv'), GOOD);
    const unsafe =
      'file "a: b.csv" cannot be a member of the zip the folder is sent as (it names a drive); the folder is refused';
    for (const jobs of [1, 2]) {
      const checked = await check(batchOf('ok.csv', 'a: b.csv'), folder, jobs);
      expect(checked.code).toBe(1);
      expect(checked.issues).toEqual([`archive_member_name_unsafe: ${folder}: ${unsafe}`]);
    }
    const inferred = await runCli(dir, ['infer', folder, '-o', join(dir, 'drive-like.yaml')]);
    expect(inferred.code).toBe(1);
    expect(inferred.stderr).toContain(`error archive_member_name_unsafe: ${folder}: ${unsafe}`);
    // Without it, the folder checks.
    await rm(join(folder, 'a: b.csv'));
    expect((await check(batchOf('ok.csv'), folder)).issues).toEqual([]);
  });
});

describe('unlisted tar.gz members count against the budget (point 18)', () => {
  test('a listed CSV and an unlisted 40 MiB member: refused at its header, by check and the emulator', async () => {
    const tgz = await write(
      'unlisted.tar.gz',
      gzipSync(
        await tarOf([
          ['a.csv', GOOD],
          ['big.bin', Buffer.alloc(40 * 1024 * 1024)],
        ]),
      ),
    );
    const checked = await check(batchOf('a.csv'), tgz);
    expect(checked.issues).toEqual([
      expect.stringMatching(/^archive_too_large: .*by member 2, "big\.bin"/),
    ]);
    const imported = await emulated(batchOf('a.csv'), tgz);
    expect(imported.status).toBe('DATA_IMPORT_STATUS_FAILED');
    expect(imported.error).toMatch(
      /^cannot read the archive: its members unpack to more than 100 times/,
    );
  });
});
