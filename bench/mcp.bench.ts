/**
 * `importkit mcp` beside the command line doing the same work, as an agent's client sees
 * it: (1) start to first answer, a new server process spawned by the SDK's client until
 * `initialize` and `tools/list` are answered, beside `importkit lint one.yaml` (the
 * measured cold start) and `node -e 0`; (2) `infer` of the 1 GB bench CSV, a tool call
 * to a running server (its own worker thread), beside `importkit infer` as a new process.
 * Runs alternate so both see the same machine load; medians. Set IMPORTKIT_BENCH_MCP_CSV
 * to `100 MB` or `1 MB` for a quicker run.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { benchCsv } from './_csv-files.js';
import { dataDir, table } from './_measure.js';

const STARTS = 7;
const INFERS = 3;
const bin = join(import.meta.dirname, '..', '..', 'bin', 'importkit.js');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** Wall time of one new process, in ms; throws when it fails. */
function timed(args: string[]): number {
  const t = performance.now();
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited with ${r.status}: ${r.stderr}`);
  return ms;
}

/** A connected client of a new server reading under `root`, and the ms it took to list tools. */
async function started(root: string, out: string): Promise<{ client: Client; ms: number }> {
  const t = performance.now();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', '--root', root, '--out', out],
    stderr: 'ignore',
  });
  const client = new Client({ name: 'importkit-bench', version: '1.0.0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const ms = performance.now() - t;
  if (tools.length === 0) throw new Error('no tools listed');
  return { client, ms };
}

const dir = join(dataDir(), 'mcp');
mkdirSync(dir, { recursive: true });
const config = join(dir, 'one.yaml');
writeFileSync(
  config,
  'csvConfig:\n  firstDataRow: 2\n  timeColumn:\n    columnNumber: 1\n    format: TIME_FORMAT_ABSOLUTE_RFC3339\n  dataColumns:\n    "2": { name: speed, dataType: CHANNEL_DATA_TYPE_DOUBLE }\n',
);
const out = mkdtempSync(join(tmpdir(), 'importkit-bench-mcp-'));

try {
  // 1. Start to first answer.
  timed(['-e', '0']);
  timed([bin, 'lint', config]);
  (await started(dir, out)).client.close();
  const node: number[] = [];
  const lint: number[] = [];
  const mcp: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    node.push(timed(['-e', '0']));
    lint.push(timed([bin, 'lint', config]));
    const s = await started(dir, out);
    mcp.push(s.ms);
    await s.client.close();
  }
  const floor = median(node);
  table(
    ['start to first answer', 'median ms', '× node -e 0'],
    [
      ['node -e 0', floor.toFixed(0), '1.00'],
      [
        'importkit lint one.yaml (exit)',
        median(lint).toFixed(0),
        (median(lint) / floor).toFixed(2),
      ],
      [
        'importkit mcp: initialize → tools/list',
        median(mcp).toFixed(0),
        (median(mcp) / floor).toFixed(2),
      ],
    ],
  );

  // 2. infer of the bench CSV.
  const label = process.env.IMPORTKIT_BENCH_MCP_CSV ?? '1 GB';
  const csv = await benchCsv(label);
  const server = await started(dirname(csv), out);
  const cli: number[] = [];
  const tool: number[] = [];
  for (let i = 0; i < INFERS; i++) {
    cli.push(timed([bin, 'infer', csv, '-o', join(out, 'cli.yaml')]));
    const t = performance.now();
    const r = await server.client.callTool({ name: 'infer', arguments: { path: csv } }, undefined, {
      timeout: 600_000,
    });
    tool.push(performance.now() - t);
    if (r.isError) throw new Error(`infer failed: ${JSON.stringify(r.content)}`);
  }
  await server.client.close();
  table(
    [`infer, ${label} CSV`, 'median ms', '× CLI'],
    [
      ['importkit infer (new process)', median(cli).toFixed(0), '1.00'],
      [
        'importkit mcp: tools/call infer',
        median(tool).toFixed(0),
        (median(tool) / median(cli)).toFixed(2),
      ],
    ],
  );
} finally {
  rmSync(out, { recursive: true, force: true });
}
