/**
 * A second, independent client: the MCP Inspector's command-line mode
 * (@modelcontextprotocol/inspector-cli) starts `importkit mcp` itself and lists its tools.
 */
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, expect, test } from 'vitest';
import { BIN, buildForMcp } from '../helpers/mcp.js';
import { repoRoot } from '../helpers/paths.js';

const INSPECTOR = join(
  repoRoot,
  'node_modules',
  '@modelcontextprotocol',
  'inspector-cli',
  'build',
  'index.js',
);

beforeAll(() => buildForMcp(), 240_000);

test('the MCP Inspector lists the tools, each with its input schema', async () => {
  // The inspector finds its own package.json by a path it tests from the working folder
  // and imports from its module: both agree only when run from its build folder.
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [INSPECTOR, process.execPath, BIN, 'mcp', '--root', repoRoot, '--method', 'tools/list'],
    { cwd: dirname(INSPECTOR), timeout: 60_000 },
  );
  const { tools } = JSON.parse(stdout) as {
    tools: Array<{ name: string; inputSchema: { type: string } }>;
  };
  expect(tools.map((t) => t.name)).toEqual([
    'inspect',
    'infer',
    'lint',
    'check',
    'preview',
    'explain_issue',
    'schema',
    'normalize',
  ]);
  for (const t of tools) expect(t.inputSchema.type).toBe('object');
}, 90_000);
