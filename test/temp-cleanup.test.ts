/**
 * The suite runs under one temp root (test/setup/temp-root.ts), and the commands that make
 * temp folders remove them: after each one here, a private temp directory holds nothing new.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { createClient } from '../src/client/index.js';
import { startEmulator } from '../src/emulator/index.js';
import { inferConfig } from '../src/infer/index.js';
import { platformExamples } from './helpers/paths.js';
import { TEMP_ROOT_VAR } from './setup/temp-root.js';

const KEY = 'temp-cleanup-key';
const saved = process.env.TMPDIR;
let privateDir: string | undefined;

/** Points the OS temp directory at a new empty folder for this test. */
async function privateTemp(): Promise<string> {
  privateDir = await mkdtemp(join(tmpdir(), 'importkit-temp-check-'));
  process.env.TMPDIR = privateDir;
  expect(tmpdir()).toBe(privateDir);
  return privateDir;
}

afterEach(async () => {
  process.env.TMPDIR = saved;
  if (privateDir) await rm(privateDir, { recursive: true, force: true });
  privateDir = undefined;
});

describe('temp files', () => {
  test('the run has one temp root of its own, and os.tmpdir() is it', () => {
    const root = process.env[TEMP_ROOT_VAR] ?? '';
    expect(root).toMatch(/importkit-test-run-/);
    expect(tmpdir()).toBe(root);
  });

  test('the emulator without a data dir leaves nothing in the temp directory after close()', async () => {
    const dir = await privateTemp();
    const emu = await startEmulator({ apiKeys: { [KEY]: 'acme' } });
    try {
      expect((await readdir(dir)).length).toBe(1);
      const client = createClient({ baseUrl: emu.url, apiKey: KEY });
      const file = join(platformExamples, 'csv-absolute-datetime.csv');
      const draft = await inferConfig(file);
      (draft.document as { csvConfig: { assetName?: string } }).csvConfig.assetName = 'tmp';
      const done = await client.importFile(file, draft.document as never, {
        wait: { intervalMs: 10, timeoutMs: 20_000 },
      });
      expect(done.status).toBe('DATA_IMPORT_STATUS_SUCCEEDED');
      const detected = await client.detectConfig(Buffer.from('t,v\n1,2\n'), 'DATA_TYPE_KEY_CSV');
      expect(detected.csvConfig).toBeDefined();
    } finally {
      await emu.close();
    }
    expect(await readdir(dir)).toEqual([]);
  });
});
