/**
 * docs/agents.md shows a real exchange: its calls are made again through a real client and
 * the answers must be the page's, word for word (the output folder written `<out>`); and
 * `importkit mcp --print-skill` prints the page.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { buildForMcp, type McpSession, startMcp } from '../helpers/mcp.js';
import { repoRoot } from '../helpers/paths.js';

const PAGE = join(repoRoot, 'docs', 'agents.md');
let out: string;
let mcp: McpSession;

/** The JSON blocks after the page's "A real exchange" heading, in pairs: call, answer. */
async function exchange(): Promise<Array<{ call: string; answer: string }>> {
  const text = (await readFile(PAGE, 'utf8')).split('## A real exchange')[1] ?? '';
  const blocks = [...text.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1] as string);
  const pairs: Array<{ call: string; answer: string }> = [];
  for (let i = 0; i + 1 < blocks.length; i += 2)
    pairs.push({ call: blocks[i] as string, answer: blocks[i + 1] as string });
  return pairs;
}

beforeAll(async () => {
  await buildForMcp();
  out = await mkdtemp(join(tmpdir(), 'importkit-mcp-docs-'));
  mcp = await startMcp(['--root', join(repoRoot, 'fixtures', 'preview'), '--out', out]);
  const draft = await mcp.call('infer', { path: 'channels.csv', assetName: 'rig-7' });
  expect(draft.text).toBe(
    `draft csv config for channels.csv written to ${out}/channels.csv.draft.json; no errors or warnings`,
  );
}, 240_000);

afterAll(async () => {
  await mcp?.close();
  await rm(out, { recursive: true, force: true });
});

describe('docs/agents.md', async () => {
  const pairs = await exchange();

  test('shows three calls and their answers', () => {
    expect(pairs.map((p) => JSON.parse(p.call).name)).toEqual([
      'check',
      'explain_issue',
      'preview',
    ]);
  });

  test.each(pairs.map((p) => [JSON.parse(p.call).name as string, p]))(
    'the %s answer is the one shown',
    async (_name, { call, answer }) => {
      const { name, arguments: args } = JSON.parse(call.replaceAll('<out>', out));
      const got = await mcp.call(name, args);
      const shown = JSON.parse(answer.replaceAll('<out>', out));
      expect({ content: got.result.content, structuredContent: got.value }).toEqual(shown);
    },
  );

  test('importkit mcp --print-skill prints the page', async () => {
    const printed = await runCli(repoRoot, ['mcp', '--print-skill']);
    expect(printed).toEqual({ code: 0, stdout: await readFile(PAGE, 'utf8'), stderr: '' });
  });
});
