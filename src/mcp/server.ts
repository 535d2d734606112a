/**
 * The MCP server: importkit's tools and resources over the official SDK's low-level
 * `Server`. It lists each tool's input and output as JSON Schemas (from the tools' zod
 * schemas), checks a call's arguments against them (an argument error is a tool error
 * with a code and a hint, like every other failure), runs the tool, and answers its
 * structured value with a one-line text. Failures never end the server: each becomes a
 * tool error carrying its issue. The API key, when set, is cut from every answer.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { type Client, createClient } from '../client/index.js';
import { type Issue, issue } from '../model/plain.js';
import { didYouMean, suggestClosest } from '../validate/index.js';
import { runApart } from './apart.js';
import { fail, failureIssue } from './failure.js';
import { resources } from './resources.js';
import { Sandbox } from './sandbox.js';
import type { ToolContext, ToolDef } from './tool.js';
import { SUBMIT_TOOLS, TOOLS } from './tools/index.js';

export interface McpOptions {
  /** Folders the tools may read (default: the working directory). */
  roots: readonly string[];
  /** The output folder (default: a new temporary folder, made on the first write). */
  out?: string | undefined;
  /** List submit and status. */
  allowSubmit: boolean;
  /** Time limit of one tool call, in ms. */
  timeoutMs: number;
  /** Heap limit of one tool call's thread, in MiB. */
  memoryMb: number;
  env: Record<string, string | undefined>;
  cwd: string;
  version: string;
}

/** The JSON Schema of a tool's input or output, as MCP lists it. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output') {
  return z.toJSONSchema(schema, { target: 'draft-7', io }) as {
    type: 'object';
    [key: string]: unknown;
  };
}

/** The issue of arguments that do not fit the tool's input schema: the first problem, with a hint. */
function argumentIssue(def: ToolDef, error: z.ZodError): Issue {
  // An unknown argument first: a misspelt name also leaves the right one missing.
  const first = error.issues.find((i) => i.code === 'unrecognized_keys') ?? error.issues[0];
  const at = first?.path.length ? `${first.path.join('.')}: ` : '';
  const known = Object.keys(def.input.shape);
  let hint = `the input schema of ${def.name} (tools/list) names its arguments: ${known.join(', ')}`;
  if (first?.code === 'unrecognized_keys') {
    const near = suggestClosest(String(first.keys[0]), known);
    if (near) hint = didYouMean(near);
  }
  return issue(
    'tool_argument_invalid',
    '',
    `${def.name}: ${at}${first?.message ?? 'invalid arguments'}`,
    {
      hint,
    },
  );
}

/** A failure as a tool error: the issue as text (and in `_meta`), never a stack trace. */
function errorResult(found: Issue): CallToolResult {
  const lines = [`error ${found.code}: ${found.message}`];
  if (found.hint) lines.push(`hint: ${found.hint}`);
  return {
    isError: true,
    content: [{ type: 'text', text: lines.join('\n') }],
    _meta: { issue: found },
  };
}

/** The answer with every occurrence of `secret` (as written, and JSON-escaped) cut out. */
function redacted<T>(answer: T, secret: string | undefined): T {
  if (!secret) return answer;
  const text = JSON.stringify(answer);
  const escaped = JSON.stringify(secret).slice(1, -1);
  if (!text.includes(escaped)) return answer;
  return JSON.parse(text.split(escaped).join('[redacted]')) as T;
}

/** The platform's client from the environment, as the command line makes it. */
function clientFrom(env: Record<string, string | undefined>): () => Client {
  let client: Client | undefined;
  return () => {
    const baseUrl = env.IMPORTKIT_BASE_URL;
    const apiKey = env.IMPORTKIT_API_KEY;
    if (!baseUrl || !apiKey)
      throw fail(
        'submit_not_configured',
        `${baseUrl ? 'IMPORTKIT_API_KEY' : 'IMPORTKIT_BASE_URL'} is not set in the server's environment`,
        'set IMPORTKIT_BASE_URL and IMPORTKIT_API_KEY in the MCP client’s env for this server (for local work: importkit serve prints both)',
      );
    client ??= createClient({ baseUrl, apiKey, userAgent: 'importkit-mcp' });
    return client;
  };
}

/** Makes the server; `connect` it to a transport. */
export async function createMcpServer(
  options: McpOptions,
): Promise<{ server: Server; sandbox: Sandbox }> {
  const sandbox = await Sandbox.open(options);
  const tools = new Map(
    [...TOOLS, ...(options.allowSubmit ? SUBMIT_TOOLS : [])].map((t) => [t.name, t]),
  );
  const listed = [...tools.values()].map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: jsonSchema(t.input, 'input'),
    outputSchema: jsonSchema(t.output, 'output'),
    annotations: {
      title: t.title,
      readOnlyHint: t.readOnly,
      destructiveHint: false,
      openWorldHint: !t.readOnly,
    },
  }));
  const table = resources();
  const client = clientFrom(options.env);
  const secret = options.env.IMPORTKIT_API_KEY;
  const server = new Server(
    { name: 'importkit', title: 'importkit', version: options.version },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        'importkit prepares data imports: inspect → infer → check → preview → fix → submit (with wait). Read importkit://docs/agents.md first; explain_issue tells what an issue code means and how to fix it.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const def = tools.get(request.params.name);
    if (!def) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const parsed = def.input.safeParse(request.params.arguments ?? {});
    if (!parsed.success) return errorResult(argumentIssue(def, parsed.error));
    const context = toolContext(options, sandbox, client, extra);
    try {
      const { value, text } = await def.run(parsed.data, context);
      return redacted({ content: [{ type: 'text', text }], structuredContent: value }, secret);
    } catch (err) {
      if (extra.signal.aborted) throw err;
      return redacted(errorResult(failureIssue(err)), secret);
    }
  });
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: table.map(({ read: _, ...r }) => r),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    const found = table.find((r) => r.uri === request.params.uri);
    const text = found?.read();
    if (!found || text === undefined)
      throw new McpError(ErrorCode.InvalidParams, `Resource not found: ${request.params.uri}`);
    return { contents: [{ uri: found.uri, mimeType: found.mimeType, text }] };
  });
  return { server, sandbox };
}

type Extra = Parameters<Parameters<Server['setRequestHandler']>[1]>[1];

/** A call's context: its sandbox, its jobs apart, and progress sent when the client asked. */
function toolContext(
  options: McpOptions,
  sandbox: Sandbox,
  client: () => Client,
  extra: Extra,
): ToolContext {
  const token = extra._meta?.progressToken;
  let last = -1;
  const progress = (done: number, total?: number, message?: string) => {
    if (token === undefined || done <= last) return;
    last = done;
    void extra
      .sendNotification({
        method: 'notifications/progress',
        params: {
          progressToken: token,
          progress: done,
          ...(total !== undefined && total > 0 ? { total } : {}),
          ...(message !== undefined ? { message } : {}),
        },
      })
      .catch(() => undefined);
  };
  return {
    sandbox,
    signal: extra.signal,
    progress,
    client,
    apart: (job, input) =>
      runApart(job, input, {
        signal: extra.signal,
        timeoutMs: options.timeoutMs,
        memoryMb: options.memoryMb,
        onProgress: (done, total) => progress(done, total),
      }),
  };
}
