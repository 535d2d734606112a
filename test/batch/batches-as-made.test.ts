/**
 * Batches as people make them, through the command line: archives made with `zip -r` and
 * `tar czf` (from inside the folder, names starting with `./`, or from above it) infer,
 * lint, check and import; member names that are JavaScript's object machinery
 * (`__proto__`, `constructor`) are data and round-trip; an empty batch is an error in
 * lint, check and the emulator.
 */
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { tarOf } from '../../scripts/fixtures/tar-writer.js';
import { zipBytes } from '../../scripts/fixtures/zip-writer.js';
import type { Io } from '../../src/cli/io.js';
import { run } from '../../src/cli/run.js';
import { createClient } from '../../src/client/index.js';
import { type Emulator, startEmulator } from '../../src/emulator/index.js';
import { repoRoot } from '../helpers/paths.js';

const KEY = `made-key-${Date.now()}`;
let emu: Emulator;
let dir: string;

beforeAll(async () => {
  emu = await startEmulator({ apiKeys: { [KEY]: 'made' }, stepDelayMs: 0 });
  dir = await mkdtemp(join(tmpdir(), 'importkit-batches-as-made-'));
});
afterAll(async () => {
  await emu.close();
  await rm(dir, { recursive: true, force: true });
});

/** Runs the command line in the temp folder against the emulator. */
async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = {
    stdout: { write: (s) => void out.push(s) },
    stderr: { write: (s) => void err.push(s) },
    env: { IMPORTKIT_BASE_URL: emu.url, IMPORTKIT_API_KEY: KEY },
    cwd: dir,
  };
  const code = await run(argv, io);
  return { code, out: out.join(''), err: err.join('') };
}

const has = (command: string) => spawnSync(command, ['--version']).status === 0;

const csv = (n: number) =>
  `time,v\n${Array.from({ length: 20 }, (_, i) => `2024-01-01T00:00:${String(i).padStart(2, '0')}Z,${n + i}.5`).join('\n')}\n`;

/**
 * infer → lint → check (→ submit --wait, with `submit`) of `archive`: each step's exit
 * code, and the names listed.
 */
async function roundTrip(archive: string, draft: string, submit = true) {
  const inferred = await cli('infer', archive, '-o', draft);
  const listed = Object.keys(
    (parse(await readFile(join(dir, draft), 'utf8')) as { batchConfig: { fileConfigs: object } })
      .batchConfig.fileConfigs,
  );
  const linted = await cli('lint', draft);
  const checked = await cli('check', draft, archive);
  const submitted = submit
    ? await cli('submit', draft, archive, '--wait', '--poll-interval', '0.01')
    : { code: 0, out: 'SUCCEEDED (not submitted)', err: '' };
  return {
    codes: [inferred.code, linted.code, checked.code, submitted.code],
    listed,
    checked: checked.err + checked.out,
    submitted: submitted.out + submitted.err,
  };
}

describe('archives made the usual ways', () => {
  /** A folder `campaign` of three CSV files, one in a subfolder. */
  const FILES: Array<[string, string]> = [
    ['a.csv', csv(1)],
    ['b.csv', csv(2)],
    ['sub/c.csv', csv(3)],
  ];
  let campaign: string;
  beforeAll(async () => {
    campaign = join(dir, 'campaign');
    for (const [name, text] of FILES) {
      await mkdir(join(campaign, name, '..'), { recursive: true });
      await writeFile(join(campaign, name), text);
    }
  });

  /** The archive `name` with members `prefix + path`: by the command when present, else by code. */
  async function made(name: string, prefix: string, command: string[] | undefined) {
    const archive = join(dir, name);
    const tool = command?.[0];
    if (command && tool && has(tool)) {
      const cwd = prefix === './' || prefix === '' ? campaign : dir;
      const r = spawnSync(tool, command.slice(1).concat(), { cwd });
      expect(r.status, String(r.stderr)).toBe(0);
      return archive;
    }
    console.log(`${tool} is missing: ${name} is written by code with the same member names`);
    const members = FILES.map(
      ([p, text]) => [`${prefix}${p}`, Buffer.from(text)] as [string, Buffer],
    );
    if (name.endsWith('.zip'))
      await writeFile(
        archive,
        zipBytes(members.map(([n, data]) => ({ name: n, data, method: 8 }))),
      );
    else await writeFile(archive, gzipSync(await tarOf(members)));
    return archive;
  }

  // The emulator imports the one whose names the platform unpacks elsewhere (`./a.csv`).
  const CASES: Array<[string, string, (archive: string) => string[], boolean]> = [
    ['dot.tar.gz', './', (a) => ['tar', 'czf', a, '.'], true],
    ['dir.tar.gz', 'campaign/', (a) => ['tar', 'czf', a, 'campaign'], false],
    ['dot.zip', '', (a) => ['zip', '-qr', a, '.'], false],
    ['dir.zip', 'campaign/', (a) => ['zip', '-qr', a, 'campaign'], false],
  ];
  for (const [name, prefix, command, submit] of CASES) {
    test(`${name}: infer lists every file, lint and check agree${submit ? ', and the import' : ''}`, async () => {
      const archive = await made(name, prefix, command(join(dir, name)));
      const r = await roundTrip(archive, `${name}.yaml`, submit);
      expect(r.listed).toEqual(FILES.map(([p]) => `${prefix}${p}`));
      expect(r.codes, r.submitted).toEqual([0, 0, 0, 0]);
      expect(r.checked).toContain(`${name} fits ${name}.yaml`);
      expect(r.submitted).toContain('SUCCEEDED');
    });
  }
});

describe('member names are data', () => {
  test('Parquet members named __proto__ and constructor: listed, linted, checked and imported', async () => {
    const folder = join(dir, 'machinery');
    await mkdir(folder, { recursive: true });
    const parquet = join(repoRoot, 'fixtures', 'batch', 'campaign', 'parquet', 'rows.parquet');
    for (const name of ['__proto__', 'constructor', 'toString'])
      await copyFile(parquet, join(folder, name));
    const r = await roundTrip(folder, 'machinery.yaml');
    expect(r.listed).toEqual(['__proto__', 'constructor', 'toString']);
    expect(r.codes).toEqual([0, 0, 0, 0]);
    expect(r.submitted).toContain('SUCCEEDED');
  });
});

describe('an empty batch is an error', () => {
  const EMPTY = { batchConfig: { assetName: 'empty', fileConfigs: {} } };
  const MESSAGE = 'The batch lists no file in fileConfigs: it would import nothing.';

  test('lint and check report batch_empty; the emulator fails the import', async () => {
    await writeFile(join(dir, 'empty.json'), JSON.stringify(EMPTY));
    const folder = join(dir, 'empty-folder');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'a.csv'), csv(1));
    const linted = await cli('lint', 'empty.json');
    expect(linted.code).toBe(1);
    expect(linted.out + linted.err).toContain(`batch_empty ${MESSAGE}`);
    const checked = await cli('check', 'empty.json', folder);
    expect(checked.code).toBe(1);
    expect(checked.out + checked.err).toContain(`batch_empty ${MESSAGE}`);
    const c = createClient({ baseUrl: emu.url, apiKey: KEY });
    const archive = join(dir, 'empty.zip');
    await writeFile(archive, zipBytes([{ name: 'a.csv', data: Buffer.from(csv(1)), method: 8 }]));
    const target = await c.createImportFromUpload(EMPTY);
    await c.uploadFile(target.uploadUrl, archive);
    await c.waitForImport(target.dataImportId, { intervalMs: 10 }).catch(() => undefined);
    const di = emu.store.data.imports[target.dataImportId]?.dataImport;
    expect(di?.status).toBe('DATA_IMPORT_STATUS_FAILED');
    expect(di?.errorMessage).toBe(`invalid config: ${MESSAGE} (at /batchConfig/fileConfigs)`);
  });
});

describe('one channel name, one type and one unit in the batch’s asset', () => {
  const csvConfig = (dataType: string, units?: string) => ({
    firstDataRow: 2,
    timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_RFC3339' },
    dataColumns: { '2': { name: 'channel_0', dataType, ...(units ? { units } : {}) } },
  });
  const BATCH = {
    batchConfig: {
      assetName: 'rig',
      defaultCsvConfig: csvConfig('CHANNEL_DATA_TYPE_DOUBLE'),
      fileConfigs: {
        'a.csv': { type: 'DATA_TYPE_KEY_CSV' },
        'b.csv': { type: 'DATA_TYPE_KEY_CSV' },
        'c.csv': {
          type: 'DATA_TYPE_KEY_CSV',
          csvConfig: csvConfig('CHANNEL_DATA_TYPE_INT_32', 'V'),
        },
        'd.csv': {
          type: 'DATA_TYPE_KEY_CSV',
          csvConfig: csvConfig('CHANNEL_DATA_TYPE_DOUBLE', 'V'),
        },
      },
    },
  };

  test('lint and check --verbose name both files and their configs', async () => {
    await writeFile(join(dir, 'rig.json'), JSON.stringify(BATCH));
    const folder = join(dir, 'rig');
    await mkdir(folder, { recursive: true });
    for (const f of ['a.csv', 'b.csv', 'c.csv', 'd.csv']) await writeFile(join(folder, f), csv(1));
    const linted = await cli('lint', 'rig.json', '--reporter', 'json');
    expect(linted.code).toBe(1);
    const issues = (
      JSON.parse(linted.out) as {
        files: Array<{
          issues: Array<{ code: string; severity: string; path: string; message: string }>;
        }>;
      }
    ).files.flatMap((f) =>
      f.issues.map(({ code, severity, path, message }) => ({ code, severity, path, message })),
    );
    const c = '/batchConfig/fileConfigs/c.csv/csvConfig/dataColumns/2';
    const d = '/batchConfig/fileConfigs/d.csv/csvConfig/dataColumns/2';
    const a = 'a.csv (/batchConfig/defaultCsvConfig/dataColumns/2)';
    expect(issues).toEqual([
      {
        code: 'batch_channel_type_conflict',
        severity: 'error',
        path: `${c}/dataType`,
        message: `Channel "channel_0" is INT_32 in c.csv (${c}) but DOUBLE in ${a}; a channel of the batch's asset has one type.`,
      },
      {
        code: 'batch_channel_units_conflict',
        severity: 'warning',
        path: `${c}/units`,
        message: `Channel "channel_0" has units "V" in c.csv (${c}) but no units in ${a}.`,
      },
      {
        code: 'batch_channel_units_conflict',
        severity: 'warning',
        path: `${d}/units`,
        message: `Channel "channel_0" has units "V" in d.csv (${d}) but no units in ${a}.`,
      },
    ]);
    const checked = await cli('check', 'rig.json', folder, '--verbose');
    expect(checked.code).toBe(1);
    expect(checked.out + checked.err).toContain('batch_channel_type_conflict');
  });
});
