/**
 * A real MCP client (the SDK's `Client` over `StdioClientTransport`) talking to the real
 * binary, `node bin/importkit.js mcp`, spawned as an agent's client spawns it.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ensureBuilt } from './built.js';
import { repoRoot } from './paths.js';

export const BIN = join(repoRoot, 'bin', 'importkit.js');

/** Builds dist/ when the sources are newer (the server runs the compiled code). */
export function buildForMcp(): Promise<void> {
  return ensureBuilt('dist/src/mcp/server.js');
}

export interface McpSession {
  client: Client;
  /** What the server wrote on stderr so far. */
  stderr(): string;
  /** The answer of a tool call, with its structured value and, on a tool error, its issue. */
  call(
    name: string,
    args: Record<string, unknown>,
    options?: Parameters<Client['callTool']>[2],
  ): Promise<ToolCall>;
  close(): Promise<void>;
}

export interface ToolCall {
  result: CallToolResult;
  isError: boolean;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: a tool's structured value, read by each test as it knows it
  value: any;
  issue: { code: string; message: string; hint?: string } | undefined;
}

/** Spawns `importkit mcp ...args` in `cwd` and connects a client to it. */
export async function startMcp(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    cwd: options.cwd ?? repoRoot,
    env: { PATH: process.env.PATH ?? '', TMPDIR: process.env.TMPDIR ?? '', ...options.env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'importkit-tests', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    async call(name, callArgs, callOptions) {
      const result = (await client.callTool(
        { name, arguments: callArgs },
        undefined,
        callOptions,
      )) as CallToolResult;
      const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
      return {
        result,
        isError: result.isError === true,
        text,
        value: result.structuredContent,
        issue: (result._meta as { issue?: ToolCall['issue'] } | undefined)?.issue,
      };
    },
    close: () => client.close(),
  };
}
