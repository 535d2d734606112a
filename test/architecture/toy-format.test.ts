/**
 * Adding a format is one folder and one line in the format table. The toy "kv" format
 * (`toy-format/`: its entry and its code) is added with `registerFormat(kv)` and nothing
 * else, and every stage reaches it: detection, inspect, infer (the draft validated), the
 * validator, check, the command line (inspect, infer, lint, check and its swapped-argument
 * message), the batch walk (which leaves a format without a DataTypeKey out, naming it),
 * the emulator's import flow and the docs index. Removed again, it is gone from all of them.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { renderFormatIndex } from '../../scripts/docs.js';
import { checkConfig } from '../../src/check/index.js';
import { runImport } from '../../src/emulator/imports.js';
import type { ImportRecord } from '../../src/emulator/store-state.js';
import { emptyState } from '../../src/emulator/store-state.js';
import { inferBatch, inferConfig } from '../../src/infer/index.js';
import {
  aFileOf,
  detectFormat,
  formats,
  inspectFile,
  openFileSource,
  registerFormat,
} from '../../src/inspect/index.js';
import type { ImportDocument } from '../../src/model/index.js';
import { validateConfig } from '../../src/validate/index.js';
import { runCli } from '../helpers/cli.js';
import { kv } from './toy-format/index.js';

let dir: string;
let kvPath: string;
let csvPath: string;
let folder: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-toy-format-'));
  kvPath = join(dir, 'settings.txt');
  csvPath = join(dir, 'data.csv');
  folder = join(dir, 'batch');
  await writeFile(kvPath, '#kv\n1709294400=12\n1709294460=13\n');
  await writeFile(csvPath, 'time,value\n2024-01-01T00:00:00Z,1\n');
  await mkdir(folder);
  await writeFile(join(folder, 'settings.kv'), '#kv\n1709294400=12\n');
  await writeFile(join(folder, 'data.csv'), 'time,value\n2024-01-01T00:00:00Z,1\n');
  await writeFile(
    join(dir, 'kv.yaml'),
    'kvConfig:\n  assetName: toy\n  keys: ["1709294400", "99"]\n',
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const BUILT_IN = ['csv', 'parquet', 'hdf5', 'tdms', 'ch10', 'ulog'];

/** Runs an import of `document` with the file at `file` through the emulator's flow. */
async function emulatorImport(document: Record<string, unknown>, file: string) {
  const data = emptyState();
  let seq = 0;
  const store = { data, touch: () => {}, save: async () => {}, nextSeq: () => ++seq };
  const rec = {
    orgId: 'org',
    userId: 'user',
    source: 'upload',
    uploadToken: 't',
    document,
    filePath: file,
    fileName: 'settings.kv',
    seq: 0,
    dataImport: { dataImportId: 'i1', status: 'DATA_IMPORT_STATUS_PENDING' },
  } as ImportRecord;
  const ctx = {
    store,
    uploadsDir: dir,
    now: () => '2026-01-01T00:00:00Z',
    newId: () => `id${++seq}`,
    stepDelayMs: 0,
    fetchTimeoutMs: 1000,
    log: () => {},
    urlMap: [],
  };
  await runImport(rec, ctx as unknown as Parameters<typeof runImport>[1]);
  return rec.dataImport;
}

describe('adding a format: one folder, one table line', () => {
  test('the table lists the built-in formats, in the order detection tries them', () => {
    expect(formats().map((f) => f.id)).toEqual(BUILT_IN);
  });

  test('a registered format reaches every stage, the CLI, batches, the emulator and the docs', async () => {
    const remove = registerFormat(kv);
    try {
      const source = await openFileSource(kvPath);
      const detection = await detectFormat(source).finally(() => source.close());
      expect(detection).toEqual({ format: 'kv', gzip: false, by: 'magic' });
      expect((await inspectFile(kvPath)).fields[0]?.samples).toEqual(['1709294400', '1709294460']);

      const draft = await inferConfig(kvPath);
      expect(draft.document).toEqual({
        kvConfig: { assetName: 'toy', keys: ['1709294400', '1709294460'] },
      });
      expect(draft.issues).toEqual([]);
      expect(validateConfig({ kvConfig: { keys: [1] } }).issues.map((i) => i.path)).toEqual([
        '/kvConfig/keys',
      ]);

      const doc = { kvConfig: { keys: ['1709294400', '99'] } } as ImportDocument;
      expect((await checkConfig(doc, kvPath)).map((i) => i.message)).toEqual([
        `99 is not in ${kvPath}`,
      ]);
      expect([aFileOf('kv'), aFileOf('parquet')]).toEqual(['a KV file', 'a Parquet file']);
      expect((await checkConfig(doc, csvPath)).map((i) => i.message)).toEqual([
        `${csvPath} is a CSV file, but the config is a KvConfig`,
      ]);

      const inspected = await runCli(dir, ['inspect', kvPath]);
      expect(inspected.code).toBe(0);
      expect(inspected.stdout).toContain('1709294460');
      const inferred = await runCli(dir, ['infer', kvPath]);
      expect([inferred.code, inferred.stdout]).toEqual([0, expect.stringContaining('kvConfig:')]);
      expect((await runCli(dir, ['lint', 'kv.yaml'])).code).toBe(0);
      const checked = await runCli(dir, ['check', 'kv.yaml', kvPath]);
      expect([checked.code, checked.stdout]).toEqual([1, expect.stringContaining('99 is not in')]);
      const swapped = await runCli(dir, ['lint', join(folder, 'settings.kv')]);
      expect(swapped.stderr).toContain('looks like a KV data file');

      const batch = await inferBatch(folder);
      expect(batch.listed).toEqual(['data.csv']);
      expect(batch.issues.map((i) => [i.code, i.message])).toContainEqual([
        'batch_file_left_out',
        'settings.kv: left out, a KV file (a batch imports CSV, Parquet, HDF5, TDMS, CH10 and ULog)',
      ]);

      const fits = await emulatorImport(
        { kvConfig: { assetName: 'toy', keys: ['1709294400'] } },
        kvPath,
      );
      expect(fits).toMatchObject({
        status: 'DATA_IMPORT_STATUS_SUCCEEDED',
        dataStartTime: '2024-03-01T12:00:00.000Z',
        dataStopTime: '2024-03-01T12:01:00.000Z',
      });
      const fails = await emulatorImport({ kvConfig: { assetName: 'toy', keys: ['7'] } }, kvPath);
      expect(fails.status).toBe('DATA_IMPORT_STATUS_FAILED');
      expect(fails.errorMessage).toContain('7 is not in');

      expect(renderFormatIndex()).toContain(
        '| [KV](configs/kv.md) | `kvConfig` | key=value lines |',
      );
    } finally {
      remove();
    }
    expect(formats().map((f) => f.id)).toEqual(BUILT_IN);
    expect(aFileOf('kv')).toBe('not a format importkit knows');
    // Removed, the file is plain text again (read as CSV) and a kv config names no format.
    expect((await inspectFile(kvPath)).format).toBe('csv');
    expect(validateConfig({ kvConfig: { keys: [] } }).issues.map((i) => i.code)).toContain(
      'unknown_key',
    );
    expect(renderFormatIndex()).not.toContain('KV');
  });

  test('an id or a config key that is taken is refused', () => {
    expect(() => registerFormat({ ...kv, id: 'csv' })).toThrow(/already/);
    expect(() => registerFormat({ ...kv, config: { key: 'csvConfig', title: 'X' } })).toThrow(
      /already/,
    );
    expect(formats().map((f) => f.id)).toEqual(BUILT_IN);
  });
});
