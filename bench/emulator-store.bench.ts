/**
 * The emulator's store filled with the largest bodies it accepts: `importkit serve
 * --data-dir` in a child process takes IMPORTKIT_BENCH_CREATES (default 32) creates, each
 * a CSV config of about 4 MiB made of strings of the largest allowed length. For the first
 * and the last creates: the wall time of the request and the bytes the server process
 * wrote (Linux /proc/<pid>/io `wchar`), as a ratio against the first (the baseline,
 * measured in the same run); then the size of the data folder, the time a restart takes
 * to read it back, and the restarted server's peak RSS.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { dataDir, fmtBytes, listFiles, table } from './_measure.js';
import { BENCH_KEY as KEY, serveEmulator } from './_serve.js';

const CREATES = Number(process.env.IMPORTKIT_BENCH_CREATES ?? 32);
/** The emulator's limits (docs/client.md): a 4 MiB body, strings of 64 KiB at most. */
const STRING = 64 * 1024 - 16;
const BODY = 4 * 1024 * 1024 - 64 * 1024;

function wcharOf(pid: number): number {
  return Number(/^wchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? 0);
}

function peakRssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((r) => {
    child.once('exit', () => r());
    child.kill('SIGTERM');
  });
}

/** A CSV config of about BODY bytes: an asset name and channel descriptions of STRING bytes. */
function bigBody(i: number): string {
  const text = (c: string) => `${i}`.padEnd(STRING, c);
  const dataColumns: Record<string, unknown> = {};
  const channels = Math.floor(BODY / STRING) - 2;
  for (let c = 0; c < channels; c++) {
    dataColumns[String(c + 2)] = {
      name: `c${c}`,
      description: text(String.fromCharCode(97 + (c % 26))),
      dataType: 'CHANNEL_DATA_TYPE_DOUBLE',
    };
  }
  return JSON.stringify({
    csvConfig: {
      assetName: text('a'),
      runName: text('r'),
      firstDataRow: 2,
      timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_RFC3339' },
      dataColumns,
    },
  });
}

async function create(url: string, body: string): Promise<number> {
  const r = await fetch(`${url}/api/v2/data-imports:upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body,
  });
  await r.arrayBuffer();
  return r.status;
}

async function main(): Promise<void> {
  const folder = await mkdtemp(join(dataDir(), 'emulator-store-'));
  try {
    const first = await serveEmulator(['--data-dir', folder]);
    const pid = first.child.pid ?? 0;
    const rows: Array<Array<string | number>> = [];
    let base: { ms: number; wrote: number } | undefined;
    const statuses = new Map<number, number>();
    for (let i = 0; i < CREATES; i++) {
      const body = bigBody(i);
      const before = wcharOf(pid);
      const start = performance.now();
      const status = await create(first.url, body);
      const ms = performance.now() - start;
      const wrote = wcharOf(pid) - before;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      base ??= { ms, wrote };
      if (i === 0 || i === CREATES - 1 || (i + 1) % 8 === 0) {
        rows.push([
          i + 1,
          fmtBytes(Buffer.byteLength(body)),
          status,
          ms.toFixed(0),
          (ms / base.ms).toFixed(2),
          fmtBytes(wrote),
          (wrote / base.wrote).toFixed(2),
        ]);
      }
    }
    await stop(first.child);
    table(['create', 'body', 'status', 'ms', 'ms / first', 'server wrote', 'wrote / first'], rows);
    console.log(`\nstatuses: ${[...statuses].map(([s, n]) => `${n} × ${s}`).join(', ')}`);
    let size = 0;
    for (const f of await listFiles(folder)) {
      if (!f.startsWith('uploads/')) size += statSync(join(folder, f)).size;
    }
    const second = await serveEmulator(['--data-dir', folder]);
    const peak = peakRssOf(second.child.pid ?? 0);
    await stop(second.child);
    console.log(
      `store on disk: ${fmtBytes(size)}; restart to listening: ${second.ms.toFixed(0)} ms (first start ${first.ms.toFixed(0)} ms), peak RSS after the restart ${fmtBytes(peak)}`,
    );
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

await main();
