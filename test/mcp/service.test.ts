/**
 * submit and status through a real client: absent unless the server was started with
 * --allow-submit; with it, a draft submitted with `wait` reaches SUCCEEDED on the
 * in-process emulator, and the API key appears in no answer and in nothing the server logs.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Emulator, startEmulator } from '../../src/emulator/index.js';
import { buildForMcp, type McpSession, startMcp } from '../helpers/mcp.js';
import { repoRoot } from '../helpers/paths.js';

const KEY = 'mcp-secret-key-0123456789';
const fixtures = join(repoRoot, 'fixtures');
let emu: Emulator;
let out: string;
const sessions: McpSession[] = [];

async function started(args: string[], env: Record<string, string> = {}): Promise<McpSession> {
  const session = await startMcp(['--root', fixtures, '--out', out, ...args], { env });
  sessions.push(session);
  return session;
}

beforeAll(async () => {
  await buildForMcp();
  emu = await startEmulator({ apiKeys: { [KEY]: 'mcp' }, stepDelayMs: 20 });
  out = await mkdtemp(join(tmpdir(), 'importkit-mcp-service-'));
}, 240_000);

afterAll(async () => {
  for (const s of sessions) await s.close();
  await emu?.close();
  await rm(out, { recursive: true, force: true });
});

describe('importkit mcp without --allow-submit', () => {
  test('lists no submit or status, and refuses a call to them', async () => {
    const mcp = await started([], { IMPORTKIT_BASE_URL: emu.url, IMPORTKIT_API_KEY: KEY });
    const names = (await mcp.client.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain('submit');
    expect(names).not.toContain('status');
    await expect(mcp.call('submit', { configPath: 'x', data: 'y' })).rejects.toThrow(
      /Unknown tool: submit/,
    );
    expect((await mcp.call('schema', { kind: 'csv' })).isError).toBe(false);
  });
});

describe('importkit mcp --allow-submit', () => {
  test('a draft submitted with wait reaches SUCCEEDED; status reads it; the key is in no answer', async () => {
    const mcp = await started(['--allow-submit'], {
      IMPORTKIT_BASE_URL: emu.url,
      IMPORTKIT_API_KEY: KEY,
    });
    const tools = (await mcp.client.listTools()).tools;
    const submit = tools.find((t) => t.name === 'submit');
    expect(submit?.annotations?.readOnlyHint).toBe(false);
    expect(tools.map((t) => t.name)).toContain('status');

    const draft = await mcp.call('infer', {
      path: 'preview/channels.csv',
      assetName: 'rig-7',
      runName: 'mcp run',
    });
    expect(draft.isError).toBe(false);
    const progress: number[] = [];
    const sent = await mcp.call(
      'submit',
      { configPath: draft.value.draft, data: 'preview/channels.csv', wait: true },
      { onprogress: (p) => progress.push(p.progress) },
    );
    expect(sent.isError).toBe(false);
    expect(sent.value.status).toBe('DATA_IMPORT_STATUS_SUCCEEDED');
    expect(sent.text).toMatch(/^data import \S+: SUCCEEDED/);
    expect(progress.length).toBeGreaterThan(0);
    const shown = await mcp.call('status', { dataImportId: sent.value.dataImportId });
    expect(shown.value.status).toBe('DATA_IMPORT_STATUS_SUCCEEDED');
    for (const answer of [draft, sent, shown])
      expect(JSON.stringify(answer.result)).not.toContain(KEY);
    expect(mcp.stderr()).not.toContain(KEY);
  });

  test('a config that does not fit its data is refused before anything is sent', async () => {
    const mcp = await started(['--allow-submit'], {
      IMPORTKIT_BASE_URL: emu.url,
      IMPORTKIT_API_KEY: KEY,
    });
    const config = await readFile(join(fixtures, 'preview/wrong-unit.csv.yaml'), 'utf8');
    const before = Object.keys(emu.store.data.imports).length;
    const answer = await mcp.call('submit', { config, data: 'preview/channels.csv' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain('nothing was sent');
    expect(Object.keys(emu.store.data.imports).length).toBe(before);
  });

  test('a key the service refuses is named by its code, never shown', async () => {
    const wrong = `${KEY}-wrong`;
    const mcp = await started(['--allow-submit'], {
      IMPORTKIT_BASE_URL: emu.url,
      IMPORTKIT_API_KEY: wrong,
    });
    const answer = await mcp.call('status', { dataImportId: 'nope' });
    expect(answer.isError).toBe(true);
    expect(answer.issue?.code).toMatch(/^[a-z_]+$/);
    expect(JSON.stringify(answer.result)).not.toContain(wrong);
    expect(mcp.stderr()).not.toContain(wrong);
  });

  test('without the address and key: submit_not_configured', async () => {
    const mcp = await started(['--allow-submit']);
    const answer = await mcp.call('status', { dataImportId: 'x' });
    expect(answer.issue?.code).toBe('submit_not_configured');
    expect(answer.issue?.hint).toContain('IMPORTKIT_API_KEY');
  });
});
