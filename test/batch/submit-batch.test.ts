/**
 * Submitting a batch against the emulator: a folder goes as a zip of exactly the listed
 * files (byte for byte, deflated), an archive as it is; a listing that does not match is
 * refused before anything is sent; the emulator checks each member against its config and
 * fails naming the member.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import yauzl from 'yauzl';
import { zipBytes } from '../../scripts/fixtures/zip-writer.js';
import type { Io } from '../../src/cli/io.js';
import { run } from '../../src/cli/run.js';
import { BatchCheckError, createClient } from '../../src/client/index.js';
import { type Emulator, startEmulator } from '../../src/emulator/index.js';
import type { BatchConfig } from '../../src/model/batch.js';
import type { DataImport } from '../../src/model/resources.js';
import { repoRoot } from '../helpers/paths.js';

const KEY = `batch-key-${Date.now()}`;
const fixtures = join(repoRoot, 'fixtures', 'batch');
const folder = join(fixtures, 'campaign');
const expected = (
  await import('../../fixtures/batch/campaign.expected.json', { with: { type: 'json' } })
).default as { document: { batchConfig: BatchConfig } };
const listed = Object.keys(expected.document.batchConfig.fileConfigs ?? {});

let emu: Emulator;
let dir: string;

function io() {
  const out: string[] = [];
  const err: string[] = [];
  const value: Io = {
    stdout: { write: (s) => void out.push(s) },
    stderr: { write: (s) => void err.push(s) },
    env: { IMPORTKIT_BASE_URL: emu.url, IMPORTKIT_API_KEY: KEY },
    cwd: dir,
  };
  return { io: value, out: () => out.join(''), err: () => err.join('') };
}

/** Writes a batch config into the temp folder; answers its name. */
async function config(name: string, batch: BatchConfig): Promise<string> {
  await writeFile(join(dir, name), JSON.stringify({ batchConfig: batch }, null, 2));
  return name;
}

interface Unzipped {
  bytes: Buffer;
  method: number;
  /** Its central directory record has a ZIP64 extra field. */
  zip64: boolean;
}

/** Every member of a zip: its bytes and compression method. */
async function unzip(path: string): Promise<Map<string, Unzipped>> {
  const zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false });
  const out = new Map<string, Unzipped>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', async (e: yauzl.Entry) => {
      const chunks: Buffer[] = [];
      for await (const c of await zip.openReadStreamPromise(e)) chunks.push(c as Buffer);
      out.set(e.fileName, {
        bytes: Buffer.concat(chunks),
        method: e.compressionMethod,
        zip64: e.extraFields.some((f) => f.id === 0x0001),
      });
      zip.readEntry();
    });
    zip.on('end', () => resolve());
    zip.on('error', reject);
    zip.readEntry();
  });
  zip.close();
  return out;
}

const importsCount = () => Object.keys(emu.store.data.imports).length;
const storedFile = (id: string) => emu.store.data.imports[id]?.filePath as string;
const idOf = (text: string) => /data import ([0-9a-f-]{36})/.exec(text)?.[1] as string;

beforeAll(async () => {
  emu = await startEmulator({ apiKeys: { [KEY]: 'batch' } });
  dir = await mkdtemp(join(tmpdir(), 'importkit-submit-batch-'));
});
afterAll(async () => {
  await emu.close();
  await rm(dir, { recursive: true, force: true });
});

describe('importkit submit <batch> <folder | archive>', () => {
  test('a folder is sent as a zip of exactly the listed files, byte for byte, deflated', async () => {
    const t = io();
    const name = await config('campaign.json', expected.document.batchConfig);
    const code = await run(['submit', name, folder, '--wait', '--poll-interval', '0.01'], t.io);
    expect(t.err()).toContain(`uploaded a zip of ${listed.length} files`);
    expect(code).toBe(0);
    const members = await unzip(storedFile(idOf(t.out())));
    expect([...members.keys()].sort()).toEqual([...listed].sort());
    for (const path of listed) {
      const original = await readFile(join(folder, ...path.split('/')));
      expect(members.get(path)?.bytes.equals(original), path).toBe(true);
      expect(members.get(path)?.method, path).toBe(8);
    }
    expect(t.out()).toContain('SUCCEEDED');
  });

  test.each(['campaign.zip', 'campaign.tar.gz'])('%s is sent as it is', async (archive) => {
    const t = io();
    const name = await config('campaign.json', expected.document.batchConfig);
    const code = await run(['submit', name, join(fixtures, archive), '--wait'], t.io);
    expect(code).toBe(0);
    const sent = await readFile(storedFile(idOf(t.out())));
    expect(sent.equals(await readFile(join(fixtures, archive)))).toBe(true);
  });

  test('a listing that does not match is refused before anything is sent', async () => {
    const batch = structuredClone(expected.document.batchConfig);
    const files = batch.fileConfigs ?? {};
    files['runs/day 1/run-l.csv'] = files['runs/day 1/run-1.csv'] as never;
    delete files['runs/day 1/run-1.csv'];
    const name = await config('misspelt.json', batch);
    const before = importsCount();
    for (const target of [folder, join(fixtures, 'campaign.zip')]) {
      const t = io();
      expect(await run(['submit', name, target], t.io)).toBe(1);
      expect(t.err()).toContain('batch_file_missing');
      expect(t.err()).toContain("Did you mean 'runs/day 1/run-1.csv'?");
      expect(t.err()).toContain('nothing was sent');
    }
    expect(importsCount()).toBe(before);
  });

  test('the emulator fails a batch whose member does not fit its config, naming it', async () => {
    const batch = structuredClone(expected.document.batchConfig);
    const own = batch.fileConfigs?.['other-layout.csv']?.csvConfig;
    if (own?.dataColumns)
      own.dataColumns['9'] = { name: 'ghost', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' };
    // `submit` checks an archive's members against their configs and sends nothing...
    const name = await config('ghost.json', batch);
    const before = importsCount();
    const t = io();
    const code = await run(['submit', name, join(fixtures, 'campaign.zip'), '--wait'], t.io);
    expect(code).toBe(1);
    expect(t.err()).toContain('nothing was sent');
    expect(importsCount()).toBe(before);
    // ...and the emulator checks their content when the archive is uploaded as it is.
    const c = createClient({ baseUrl: emu.url, apiKey: KEY });
    const target = await c.createImportFromUpload({ batchConfig: batch });
    await c.uploadFile(target.uploadUrl, join(fixtures, 'campaign.zip'));
    await c.waitForImport(target.dataImportId, { intervalMs: 10 }).catch(() => undefined);
    const failed = emu.store.data.imports[target.dataImportId]?.dataImport as DataImport;
    expect(failed.status).toBe('DATA_IMPORT_STATUS_FAILED');
    expect(failed.errorMessage).toMatch(/^member other-layout\.csv: .*column 9/);
    expect(failed.errorMessage).toContain('/batchConfig/fileConfigs/other-layout.csv');
  });

  test('the emulator fails a batch whose listed member is not in the archive, naming it', async () => {
    const c = createClient({ baseUrl: emu.url, apiKey: KEY });
    const batch = structuredClone(expected.document.batchConfig);
    batch.fileConfigs = { ...batch.fileConfigs, 'runs/day 9.csv': { type: 'DATA_TYPE_KEY_CSV' } };
    const target = await c.createImportFromUpload({ batchConfig: batch });
    await c.uploadFile(target.uploadUrl, join(fixtures, 'campaign.tar'));
    const done = await c.waitForImport(target.dataImportId, { intervalMs: 10 }).catch((e) => e);
    const di = emu.store.data.imports[target.dataImportId]?.dataImport as DataImport;
    expect(done).toBeInstanceOf(Error);
    expect(di.status).toBe('DATA_IMPORT_STATUS_FAILED');
    expect(di.errorMessage).toMatch(/^runs\/day 9\.csv is listed but not in the folder or archive/);
  });

  test('the emulator fails a member whose name leaves the archive, writing nothing outside', async () => {
    const c = createClient({ baseUrl: emu.url, apiKey: KEY });
    const data = await readFile(join(folder, 'other-layout.csv'));
    const archive = join(dir, 'escape.zip');
    await writeFile(archive, zipBytes([{ name: '../escape.csv', data, method: 0 }]));
    const batch: BatchConfig = {
      defaultCsvConfig: expected.document.batchConfig.fileConfigs?.['other-layout.csv']
        ?.csvConfig as never,
      fileConfigs: { '../escape.csv': { type: 'DATA_TYPE_KEY_CSV' } },
    };
    const target = await c.createImportFromUpload({ batchConfig: batch });
    await c.uploadFile(target.uploadUrl, archive);
    await c.waitForImport(target.dataImportId, { intervalMs: 10 }).catch(() => undefined);
    const rec = emu.store.data.imports[target.dataImportId];
    expect(rec?.dataImport.status).toBe('DATA_IMPORT_STATUS_FAILED');
    expect(rec?.dataImport.errorMessage).toMatch(/^cannot read the archive: .*\.\.\/escape\.csv/);
    const uploads = join(rec?.filePath as string, '..', '..');
    expect(existsSync(join(uploads, 'escape.csv'))).toBe(false);
  });
});

describe('createClient().importFile with a batch', () => {
  test('takes a folder: zipped as it streams, SUCCEEDED', async () => {
    const c = createClient({ baseUrl: emu.url, apiKey: KEY });
    const done = await c.importFile(folder, expected.document, { wait: { intervalMs: 10 } });
    expect(done.status).toBe('DATA_IMPORT_STATUS_SUCCEEDED');
    const members = await unzip(storedFile(done.dataImportId as string));
    expect([...members.keys()].sort()).toEqual([...listed].sort());
  });

  test('a folder sent with ZIP64 records forced is read back by the import: SUCCEEDED', async () => {
    const c = createClient({ baseUrl: emu.url, apiKey: KEY });
    const done = await c.importFile(folder, expected.document, {
      wait: { intervalMs: 10 },
      upload: { forceZip64: true },
    });
    expect(done.status).toBe('DATA_IMPORT_STATUS_SUCCEEDED');
    const stored = storedFile(done.dataImportId as string);
    const bytes = await readFile(stored);
    // The ZIP64 end of central directory record and its locator.
    expect(bytes.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(true);
    expect(bytes.includes(Buffer.from([0x50, 0x4b, 0x06, 0x07]))).toBe(true);
    const members = await unzip(stored);
    expect([...members.keys()].sort()).toEqual([...listed].sort());
    for (const path of listed) {
      const original = await readFile(join(folder, ...path.split('/')));
      expect(members.get(path)?.bytes.equals(original), path).toBe(true);
      expect(members.get(path)?.zip64, path).toBe(true);
    }
  });

  test('refuses a folder that does not fit with BatchCheckError, creating nothing', async () => {
    const c = createClient({ baseUrl: emu.url, apiKey: KEY });
    const batch = structuredClone(expected.document.batchConfig);
    batch.fileConfigs = { ...batch.fileConfigs, 'tdms/bench.tdms': { type: 'DATA_TYPE_KEY_CSV' } };
    const before = importsCount();
    const err = await c.importFile(folder, { batchConfig: batch }).catch((e) => e);
    expect(err).toBeInstanceOf(BatchCheckError);
    expect(err.code).toBe('batch_check_failed');
    expect(err.message).toMatch(/^.*campaign does not fit its batch config: tdms\/bench\.tdms: /);
    expect(err.issues.map((i: { code: string }) => i.code)).toContain('batch_type_mismatch');
    expect(importsCount()).toBe(before);
  });
});
