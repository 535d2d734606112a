/**
 * The MCP server's safety through a real client: reads only under --root (after `..` and
 * symbolic links are resolved), writes only into --out, refuses a FIFO and a 10 GB file in
 * bounded time, pages a 20,000-column profile, answers every failure as a tool error with
 * its issue code, and stays up. A property test calls the tools with random arguments.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildForMcp, type McpSession, startMcp } from '../helpers/mcp.js';

let dir: string;
let root: string;
let out: string;
let outside: string;
let mcp: McpSession;
const CSV = 'time,a,b\n2024-01-01T00:00:00Z,1,2\n2024-01-01T00:00:01Z,3,4\n';
const WIDE_COLUMNS = 20_000;

/** Every file under `folder`, relative to it, sorted. */
async function listing(folder: string): Promise<string[]> {
  return (await readdir(folder, { recursive: true })).sort();
}

beforeAll(async () => {
  await buildForMcp();
  dir = await mkdtemp(join(tmpdir(), 'importkit-mcp-safety-'));
  root = join(dir, 'root');
  out = join(dir, 'out');
  outside = join(dir, 'outside');
  await mkdir(root);
  await mkdir(outside);
  await writeFile(join(root, 'run.csv'), CSV);
  await writeFile(join(outside, 'secret.csv'), CSV);
  await symlink(join(outside, 'secret.csv'), join(root, 'link.csv'));
  await symlink(outside, join(root, 'away'));
  spawnSync('mkfifo', [join(root, 'pipe.csv')]);
  // 10 GB, sparse: no disk is used, every byte reads as 0.
  await writeFile(join(root, 'huge.csv'), '');
  await truncate(join(root, 'huge.csv'), 10 * 1024 ** 3);
  const header = Array.from({ length: WIDE_COLUMNS }, (_, i) => `c${i}`).join(',');
  const row = Array.from({ length: WIDE_COLUMNS }, (_, i) => String(i)).join(',');
  await writeFile(join(root, 'wide.csv'), `${header}\n${row}\n${row}\n`);
  mcp = await startMcp(['--root', root, '--out', out, '--timeout', '60', '--memory', '256']);
}, 240_000);

afterAll(async () => {
  await mcp?.close();
  await rm(dir, { recursive: true, force: true });
});

/** A call that must be a tool error with `code`, after which the server still answers. */
async function refused(name: string, args: Record<string, unknown>, code: string) {
  const answer = await mcp.call(name, args);
  expect(answer.isError).toBe(true);
  expect(answer.issue?.code).toBe(code);
  expect(answer.text).toMatch(new RegExp(`^error ${code}: `));
  expect(answer.text).not.toMatch(/\n\s+at /);
  const again = await mcp.call('inspect', { path: 'run.csv' });
  expect(again.isError).toBe(false);
  return answer;
}

describe('importkit mcp reads only under its roots', () => {
  test('an absolute path outside', async () => {
    const a = await refused('inspect', { path: join(outside, 'secret.csv') }, 'path_outside_roots');
    expect(a.issue?.hint).toContain(root);
  });

  test('a traversal with ..', async () => {
    await refused('infer', { path: '../outside/secret.csv' }, 'path_outside_roots');
    await refused(
      'check',
      { configPath: '../../etc/passwd', data: 'run.csv' },
      'path_outside_roots',
    );
  });

  test('a symbolic link inside a root that leads out, to a file or through a folder', async () => {
    await refused('inspect', { path: 'link.csv' }, 'path_outside_roots');
    await refused('inspect', { path: 'away/secret.csv' }, 'path_outside_roots');
  });

  test('a file that is not there says where relative paths are read from', async () => {
    const a = await refused('inspect', { path: 'nope.csv' }, 'file_not_found');
    expect(a.issue?.hint).toContain(root);
  });
});

describe('importkit mcp refuses hostile inputs in bounded time', () => {
  test('a FIFO is answered from its kind, never opened', async () => {
    await refused('inspect', { path: 'pipe.csv' }, 'not_a_file');
    await refused('check', { config: 'csvConfig: {}', data: 'pipe.csv' }, 'not_a_file');
  });

  test('a 10 GB file of zero bytes: inspect reads a part and says what it is not', async () => {
    const a = await mcp.call('inspect', { path: 'huge.csv' });
    expect(a.isError).toBe(true);
    expect(a.issue?.code).not.toBe('tool_failed');
    expect(a.issue?.code).not.toBe('tool_limit_exceeded');
  });

  test('a config file of 10 GB is refused by its size before it is read', async () => {
    const a = await refused('lint', { configPath: 'huge.csv' }, 'input_too_large');
    expect(a.text).toContain('huge.csv');
  });

  test('a 20,000-column CSV: inspect answers the first page of fields and the count', async () => {
    const a = await mcp.call('inspect', { path: 'wide.csv' });
    expect(a.isError).toBe(false);
    expect(a.value.fields.total).toBe(WIDE_COLUMNS);
    expect(a.value.fields.items).toHaveLength(100);
    expect(a.value.fields.nextOffset).toBe(100);
    const next = await mcp.call('inspect', { path: 'wide.csv', offset: 19_990, limit: 50 });
    expect(next.value.fields.items).toHaveLength(10);
    expect(next.value.fields.nextOffset).toBeUndefined();
    // Two inspections of 20,000 columns take 1 to 2 s of CPU each: on a machine under heavy
    // load, more than the default 30 s of wall time.
  }, 120_000);
});

describe('importkit mcp writes only into --out', () => {
  test('an output name with a folder or .. is refused', async () => {
    await refused('infer', { path: 'run.csv', output: '../escape.json' }, 'output_name_invalid');
    await refused(
      'infer',
      { path: 'run.csv', output: join(root, 'x.json') },
      'output_name_invalid',
    );
    expect(await listing(root)).not.toContain('escape.json');
  });

  test('a draft goes into --out, and check reads it there', async () => {
    const draft = await mcp.call('infer', { path: 'run.csv' });
    expect(draft.isError).toBe(false);
    expect(draft.value.draft).toBe(join(out, 'run.csv.draft.json'));
    const checked = await mcp.call('check', { configPath: draft.value.draft, data: 'run.csv' });
    expect(checked.isError).toBe(false);
    expect(checked.value.fits).toBe(true);
  });

  test('unknown and misspelt arguments are tool errors naming the right one', async () => {
    const a = await refused('inspect', { pathh: 'run.csv' }, 'tool_argument_invalid');
    expect(a.issue?.hint).toContain("'path'");
    await refused('check', { data: 'run.csv' }, 'tool_argument_invalid');
  });

  test('random arguments to every tool: no crash, nothing written outside --out', async () => {
    const before = await listing(root);
    const paths = fc.oneof(
      fc.constantFrom(
        'run.csv',
        'link.csv',
        'pipe.csv',
        'wide.csv',
        'away/secret.csv',
        '../outside/secret.csv',
        '/etc/passwd',
        '/dev/zero',
        '.',
        '..',
        '',
        'a\0b',
        join(out, 'run.csv.draft.json'),
      ),
      fc.string({ maxLength: 12 }),
    );
    const names = fc.oneof(
      fc.constantFrom('../x', '/tmp/x', 'ok.json', '..', '.', 'a/b', 'x\n'),
      fc.string({ maxLength: 8 }),
    );
    const call = fc.record({
      name: fc.constantFrom(
        'inspect',
        'infer',
        'lint',
        'check',
        'preview',
        'normalize',
        'schema',
        'explain_issue',
      ),
      args: fc.record(
        {
          path: paths,
          data: paths,
          configPath: paths,
          config: fc.oneof(fc.string({ maxLength: 40 }), fc.constant('csvConfig: {}')),
          output: names,
          code: fc.string({ maxLength: 10 }),
          kind: fc.string({ maxLength: 10 }),
          limit: fc.integer({ min: -2, max: 2000 }),
          full: fc.boolean(),
          delimiter: fc.constantFrom(',', ';', 'tab', '|', 'x'),
          timeColumn: fc.oneof(fc.string({ maxLength: 4 }), fc.integer({ min: 0, max: 9 })),
        },
        { requiredKeys: [] },
      ),
    });
    // Arguments each tool takes (an unknown one is refused before anything is read).
    const takes = new Map(
      (await mcp.client.listTools()).tools.map((t) => [
        t.name,
        new Set(Object.keys(t.inputSchema.properties ?? {})),
      ]),
    );
    await fc.assert(
      fc.asyncProperty(call, async ({ name, args }) => {
        const known = Object.entries(args).filter(([k]) => takes.get(name)?.has(k));
        const answer = await mcp.call(name, Object.fromEntries(known));
        if (answer.isError) {
          expect(answer.issue?.code).toMatch(/^[a-z0-9_]+$/);
          expect(answer.issue?.code).not.toBe('tool_failed');
        }
      }),
      { numRuns: 40, seed: 20261127 },
    );
    expect((await mcp.client.listTools()).tools.length).toBeGreaterThan(0);
    expect(await listing(root)).toEqual(before);
    expect(await listing(outside)).toEqual(['secret.csv']);
  }, 120_000);
});
