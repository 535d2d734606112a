/**
 * The MCP SDK is loaded by `importkit mcp` alone: no command's static import graph (the
 * mcp command's included: it imports the server when it runs) reaches the SDK.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { importGraph } from '../helpers/imports.js';

const src = join(import.meta.dirname, '..', '..', 'src');
const commands = readdirSync(join(src, 'cli', 'commands')).filter((f) => f.endsWith('.ts'));

test.each(commands)('src/cli/commands/%s does not load the MCP SDK', (file) => {
  const { packages } = importGraph([
    join(src, 'cli', 'index.ts'),
    join(src, 'cli', 'commands', file),
  ]);
  expect([...packages].filter((p) => p.startsWith('@modelcontextprotocol/'))).toEqual([]);
});

test('the server itself does (the graph sees the SDK)', () => {
  const { packages } = importGraph([join(src, 'mcp', 'index.ts')]);
  expect(
    [...packages].filter((p) => p.startsWith('@modelcontextprotocol/')).length,
  ).toBeGreaterThan(0);
});
