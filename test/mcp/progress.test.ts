/**
 * Long tools through a real client: `check` with `full` sends the protocol's progress
 * notifications when the client asks for them, and a cancelled `preview` ends its thread
 * and writes nothing, while the server answers the next call.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildForMcp, type McpSession, startMcp } from '../helpers/mcp.js';

let dir: string;
let out: string;
let mcp: McpSession;
const ROWS = 600_000;

/** A CSV of ROWS rows (about 20 MB): long enough that a full read reports progress. */
async function writeLongCsv(path: string): Promise<void> {
  const stream = createWriteStream(path);
  stream.write('time,a,b\n');
  const start = Date.UTC(2024, 0, 1);
  for (let i = 0; i < ROWS; i += 10_000) {
    const lines: string[] = [];
    for (let j = i; j < i + 10_000; j++)
      lines.push(`${new Date(start + j * 1000).toISOString()},${j},${j % 7}`);
    stream.write(`${lines.join('\n')}\n`);
  }
  await new Promise<void>((resolve, reject) => stream.end(() => resolve()).on('error', reject));
}

beforeAll(async () => {
  await buildForMcp();
  dir = await mkdtemp(join(tmpdir(), 'importkit-mcp-progress-'));
  out = join(dir, 'out');
  await mkdir(out);
  await writeLongCsv(join(dir, 'long.csv'));
  mcp = await startMcp(['--root', dir, '--out', out]);
}, 240_000);

afterAll(async () => {
  await mcp?.close();
  await rm(dir, { recursive: true, force: true });
});

test('check with full reports progress in bytes up to the file size, then fits', async () => {
  const draft = await mcp.call('infer', { path: 'long.csv' });
  expect(draft.isError).toBe(false);
  const seen: Array<{ progress: number; total?: number | undefined }> = [];
  const checked = await mcp.call(
    'check',
    { configPath: draft.value.draft, data: 'long.csv', full: true },
    { onprogress: (p) => seen.push(p), resetTimeoutOnProgress: true },
  );
  expect(checked.isError).toBe(false);
  expect(checked.value.fits).toBe(true);
  expect(seen.length).toBeGreaterThan(0);
  const progress = seen.map((p) => p.progress);
  expect(progress).toEqual([...progress].sort((a, b) => a - b));
  expect(new Set(progress).size).toBe(progress.length);
  for (const p of seen) expect(p.progress).toBeLessThanOrEqual(p.total ?? Infinity);
}, 120_000);

test('a cancelled preview ends and writes nothing; the server goes on', async () => {
  const draft = await mcp.call('infer', { path: 'long.csv' });
  const controller = new AbortController();
  const call = mcp.call(
    'preview',
    { configPath: draft.value.draft, data: 'long.csv', full: true, output: 'cancelled.html' },
    { signal: controller.signal, onprogress: () => controller.abort('enough') },
  );
  await expect(call).rejects.toThrow();
  const next = await mcp.call('explain_issue', { code: 'path_outside_roots' });
  expect(next.isError).toBe(false);
  // A full check of the same file takes as long as the cancelled preview's own reading:
  // had its thread gone on, its page would be written by now.
  const again = await mcp.call('check', {
    configPath: draft.value.draft,
    data: 'long.csv',
    full: true,
  });
  expect(again.value.fits).toBe(true);
  expect(await readdir(out)).not.toContain('cancelled.html');
}, 120_000);
