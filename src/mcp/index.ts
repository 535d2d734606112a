/**
 * MCP: importkit's steps as tools an AI agent calls over the Model Context Protocol
 * (`importkit mcp`, stdio). The public entry of this stage: the command line loads it only
 * for `importkit mcp`, so no other command loads the SDK.
 */
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { MAX_CONFIG_BYTES } from '../validate/index.js';
import { docText } from './docs.js';
import { createMcpServer, type McpOptions } from './server.js';

export type { McpOptions } from './server.js';
export { createMcpServer } from './server.js';

/**
 * The largest message the server reads: a config of MAX_CONFIG_BYTES given inline, written
 * as JSON text (escaping can double it), with room to spare.
 */
const MAX_MESSAGE_BYTES = 4 * MAX_CONFIG_BYTES;

/**
 * Serves the tools on `stdin`/`stdout` until the client closes `stdin`. Writes one line to
 * `log` (stderr) saying where it reads and writes. Throws a ToolFailure for a root or an
 * output folder that does not exist.
 */
export async function serveMcp(
  options: McpOptions,
  streams: { stdin: Readable; stdout: Writable; log: (line: string) => void },
): Promise<void> {
  const { server, sandbox } = await createMcpServer(options);
  const transport = new StdioServerTransport(streams.stdin, streams.stdout, {
    maxBufferSize: MAX_MESSAGE_BYTES,
  });
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    streams.stdin.once('end', () => void server.close());
    streams.stdin.once('close', () => void server.close());
  });
  await server.connect(transport);
  streams.log(
    `importkit mcp: serving on stdio; reads under ${sandbox.roots.join(', ')}; writes to ${sandbox.outFolder ?? 'a temporary folder made on the first write'}${options.allowSubmit ? '; submit and status enabled' : ''}`,
  );
  await closed;
}

/** The agents' guide (docs/agents.md), as `importkit mcp --print-skill` prints it. */
export function skillText(): string | undefined {
  return docText('agents.md');
}
