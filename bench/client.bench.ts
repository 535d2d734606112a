/**
 * The client against the emulator, each in its own process:
 * 1. 1,000 small CSV files imported through `client.importFile` (create, upload, wait),
 *    against the same HTTP calls made with bare `fetch` (baseline): imports per second,
 *    and the emulator's RSS before and after (and its peak).
 * 2. A 200 MB generated file uploaded by a child process running the client (streamed)
 *    against the same child reading the file whole and posting it (baseline): peak RSS.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, open, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '../src/client/index.js';
import { dataDir, fmtBytes, MiB, table } from './_measure.js';
import { BENCH_KEY as KEY, serveEmulator } from './_serve.js';

const FILES = 1000;
const CONCURRENCY = 16;

function rssOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) =>
    Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((r) => {
    child.once('exit', () => r());
    child.kill('SIGTERM');
  });
}

async function smallFiles(): Promise<string[]> {
  const dir = join(dataDir(), 'client-small');
  await mkdir(dir, { recursive: true });
  const paths: string[] = [];
  for (let i = 0; i < FILES; i++) {
    const p = join(dir, `f${String(i).padStart(4, '0')}.csv`);
    paths.push(p);
    if (existsSync(p)) continue;
    const rows = ['time,temp,pressure'];
    for (let r = 0; r < 20; r++) {
      rows.push(
        `${new Date(Date.UTC(2024, 0, 1, 0, 0, r + i)).toISOString()},${(r * 0.5 + i).toFixed(2)},${1000 + r}`,
      );
    }
    await writeFile(p, `${rows.join('\n')}\n`);
  }
  return paths;
}

const doc = {
  csvConfig: {
    assetName: 'bench-rig',
    runName: 'bench',
    firstDataRow: 2,
    timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_RFC3339' as const },
    dataColumns: {
      '2': { name: 'temp', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' as const },
      '3': { name: 'pressure', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' as const },
    },
  },
};

async function pool<T>(items: T[], n: number, fn: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) {
        const item = items[next++] as T;
        await fn(item);
      }
    }),
  );
}

/** The same calls without the client: create, upload the bytes, poll every 10 ms. */
async function bareImport(url: string, path: string): Promise<void> {
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  const created = (await (
    await fetch(`${url}/api/v2/data-imports:upload`, {
      method: 'POST',
      headers,
      body: JSON.stringify(doc),
    })
  ).json()) as { uploadUrl: string; dataImportId: string };
  const up = await fetch(created.uploadUrl, {
    method: 'POST',
    headers: {
      authorization: headers.authorization,
      'content-disposition': 'attachment; filename="f.csv"',
    },
    body: await readFile(path),
  });
  await up.arrayBuffer();
  for (;;) {
    const r = (await (
      await fetch(`${url}/api/v2/data-imports/${created.dataImportId}`, { headers })
    ).json()) as { dataImport: { status: string } };
    if (r.dataImport.status === 'DATA_IMPORT_STATUS_SUCCEEDED') return;
    if (r.dataImport.status === 'DATA_IMPORT_STATUS_FAILED') throw new Error('import failed');
    await new Promise((res) => setTimeout(res, 10));
  }
}

async function importsPerSecond(): Promise<void> {
  const paths = await smallFiles();
  const rows: Array<Array<string | number>> = [];
  const results: Record<string, number> = {};
  for (const [name, run] of [
    ['bare fetch (baseline)', (url: string) => pool(paths, CONCURRENCY, (p) => bareImport(url, p))],
    [
      'importkit client',
      (url: string) => {
        const client = createClient({ baseUrl: url, apiKey: KEY });
        return pool(paths, CONCURRENCY, async (p) => {
          await client.importFile(p, doc, { wait: { intervalMs: 10, maxIntervalMs: 10 } });
        });
      },
    ],
  ] as const) {
    const { url, child } = await serveEmulator();
    const pid = child.pid ?? 0;
    // One import first, so both runs start with the emulator's modules loaded.
    await bareImport(url, paths[0] ?? '');
    const before = rssOf(pid);
    const t0 = performance.now();
    await run(url);
    const s = (performance.now() - t0) / 1000;
    const after = rssOf(pid);
    await stop(child);
    results[name] = FILES / s;
    rows.push([
      name,
      FILES,
      `${s.toFixed(1)} s`,
      (FILES / s).toFixed(0),
      fmtBytes(before.rss),
      fmtBytes(after.rss),
      fmtBytes(after.peak),
    ]);
  }
  table(
    ['run', 'imports', 'time', 'imports/s', 'emulator RSS before', 'after', 'emulator peak'],
    rows,
  );
  const ratio = (results['importkit client'] ?? 0) / (results['bare fetch (baseline)'] ?? 1);
  console.log(
    `\nclient / baseline imports per second: ${ratio.toFixed(2)}× (concurrency ${CONCURRENCY})\n`,
  );
}

/** Run as a child: `upload <mode> <url> <file>`; prints its peak RSS as JSON. */
async function uploadChild(mode: string, url: string, file: string): Promise<void> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  const t0 = performance.now();
  if (mode === 'client') {
    await createClient({ baseUrl: url, apiKey: KEY }).uploadFile(`${url}/upload`, file);
  } else {
    const body = await readFile(file);
    const r = await fetch(`${url}/upload`, {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${KEY}` },
    });
    await r.arrayBuffer();
  }
  const ms = performance.now() - t0;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage.rss());
  console.log(JSON.stringify({ peak, ms }));
}

function runChild(args: string[]): Promise<{ peak: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout?.on('data', (d) => {
      out += String(d);
    });
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`child exited ${code}`)),
    );
  });
}

/** A sink in its own process: reads each body and counts it. */
function sink(): Promise<{ url: string; child: ChildProcess }> {
  const code = `
    const http = require('node:http');
    const s = http.createServer((req, res) => { let n = 0; req.on('data', (c) => { n += c.length; });
      req.on('end', () => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify({ n })); }); });
    s.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + s.address().port));`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve) => {
    child.stdout?.once('data', (d) => resolve({ url: String(d).trim(), child }));
  });
}

async function bigUpload(): Promise<void> {
  const file = join(dataDir(), 'client-200mb.csv');
  const size = 200 * MiB;
  if (!existsSync(file)) {
    const fh = await open(file, 'w');
    const line = Buffer.from('2024-01-01T00:00:00.000Z,1.2345,6789\n');
    const block = Buffer.alloc(MiB);
    for (let o = 0; o < MiB; o += line.length) line.copy(block, o);
    for (let i = 0; i < 200; i++) await fh.write(block);
    await fh.close();
  }
  const { url, child } = await sink();
  const rows: Array<Array<string | number>> = [];
  const peaks: Record<string, number> = {};
  for (const mode of ['whole', 'client']) {
    const r = await runChild(['upload', mode, url, file]);
    peaks[mode] = r.peak;
    rows.push([
      mode === 'client' ? 'importkit uploadFile (streamed)' : 'readFile + fetch (baseline)',
      fmtBytes(size),
      `${(r.ms / 1000).toFixed(2)} s`,
      `${(size / MiB / (r.ms / 1000)).toFixed(0)} MiB/s`,
      fmtBytes(r.peak),
    ]);
  }
  await stop(child);
  table(['upload', 'file', 'time', 'rate', 'peak RSS of the uploading process'], rows);
  const client = peaks.client ?? 0;
  console.log(
    `\npeak RSS client / baseline: ${(client / (peaks.whole ?? 1)).toFixed(2)}×; client peak ${fmtBytes(client)} ${client < 150 * MiB ? '<' : '≥'} 150 MiB\n`,
  );
}

const [cmd, ...rest] = process.argv.slice(2);
if (cmd === 'upload') {
  await uploadChild(rest[0] ?? '', rest[1] ?? '', rest[2] ?? '');
} else {
  console.log('### 1,000 small imports through the emulator\n');
  await importsPerSecond();
  console.log('### 200 MB upload\n');
  await bigUpload();
}
