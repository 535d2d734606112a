/**
 * `inferBatch` of archives holding one HDF5 file of ~64 MB (two chunked 1-D datasets of
 * 4,000,000 rows, time and values, written once by h5wasm into bench/.data/) beside a CSV:
 * a stored zip, a deflated zip, a tar and a tar.gz. Each runs in its own child process, so
 * its counts are its own: wall time, CPU time (all its threads), bytes the process read and wrote (Linux /proc/self/io
 * `rchar`/`wchar`: the HDF5 worker's reads count too), and peak RSS; against the baseline of
 * `inferConfig` on the plain file in the same run. The members are read in place, so the
 * archives write nothing; a stored member reads about what the plain file reads, a
 * compressed one is inflated as far as the HDF5 library reads it (again from its start on
 * a read behind what is kept).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { tarOf } from '../scripts/fixtures/tar-writer.js';
import { zipBytes } from '../scripts/fixtures/zip-writer.js';
import { dataDir, fmtBytes, table } from './_measure.js';

const ROWS = 4_000_000;
const CHUNK = 65_536;
const CSV = 'time,temp\n2024-01-01T00:00:00Z,1.5\n2024-01-01T00:00:01Z,2.5\n';

async function generate(path: string): Promise<void> {
  if (existsSync(path)) return;
  const mod = await import('h5wasm/node');
  const h5 = mod.default;
  await h5.ready;
  const time = new BigInt64Array(ROWS);
  const value = new Float64Array(ROWS);
  for (let i = 0; i < ROWS; i++) {
    time[i] = 1_735_689_600_000_000_000n + BigInt(i) * 1_000_000n;
    value[i] = Math.sin(i / 100) * 50 + (i % 7) * 0.25;
  }
  const f = new h5.File(path, 'w');
  try {
    f.create_dataset({ name: 'time', data: time, chunks: [CHUNK] });
    f.create_dataset({ name: 'value', data: value, chunks: [CHUNK] });
  } finally {
    f.close();
  }
}

async function prepare(): Promise<{ h5: string; archives: string[] }> {
  const dir = dataDir();
  const h5 = join(dir, `batch-hdf5-${ROWS}.h5`);
  await generate(h5);
  const names = ['stored.zip', 'deflated.zip', 'set.tar', 'set.tar.gz'].map((n) =>
    join(dir, `batch-hdf5-${n}`),
  );
  if (!names.every((n) => existsSync(n))) {
    const files: Array<[string, Buffer]> = [
      ['run.csv', Buffer.from(CSV)],
      ['data/flight.h5', readFileSync(h5)],
    ];
    const zip = (method: 0 | 8) => zipBytes(files.map(([name, data]) => ({ name, data, method })));
    const tarBytes = await tarOf(files);
    writeFileSync(names[0] as string, zip(0));
    writeFileSync(names[1] as string, zip(8));
    writeFileSync(names[2] as string, tarBytes);
    writeFileSync(names[3] as string, gzipSync(tarBytes));
  }
  return { h5, archives: names };
}

/** This process's bytes read and written so far (all its threads), from /proc/self/io. */
function io(): { read: number; written: number } {
  const text = readFileSync('/proc/self/io', 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return { read: field('rchar'), written: field('wchar') };
}

/** The child: one inference, then its numbers as JSON on stdout. */
async function child(kind: string, path: string): Promise<void> {
  const before = io();
  const cpu = process.cpuUsage();
  const started = performance.now();
  let listed = 0;
  if (kind === 'file') {
    const { inferConfig } = await import('../src/infer/index.js');
    const draft = await inferConfig(path);
    listed = draft.document.hdf5Config ? 1 : 0;
  } else {
    const { inferBatch } = await import('../src/infer/batch.js');
    listed = (await inferBatch(path)).listed.length;
  }
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const after = io();
  process.stdout.write(
    JSON.stringify({
      ms,
      cpuMs: (used.user + used.system) / 1000,
      read: after.read - before.read,
      written: after.written - before.written,
      rss:
        Number(/^VmHWM:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024,
      listed,
    }),
  );
}

interface Result {
  ms: number;
  cpuMs: number;
  read: number;
  written: number;
  rss: number;
  listed: number;
}

function run(kind: string, path: string): Result {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--run', kind, path], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0) throw new Error(`${kind} ${path}: ${r.stderr}`);
  return JSON.parse(r.stdout) as Result;
}

if (process.argv[2] === '--run') {
  await child(process.argv[3] ?? '', process.argv[4] ?? '');
} else {
  const { h5, archives } = await prepare();
  const size = readFileSync(h5).byteLength;
  const rows: Array<Array<string | number>> = [];
  const cases: Array<[string, string, string]> = [
    ['inferConfig, the plain file', 'file', h5],
    ['inferBatch, stored zip', 'batch', archives[0] as string],
    ['inferBatch, deflated zip', 'batch', archives[1] as string],
    ['inferBatch, tar', 'batch', archives[2] as string],
    ['inferBatch, tar.gz', 'batch', archives[3] as string],
  ];
  for (const [label, kind, path] of cases) {
    const r = run(kind, path);
    rows.push([
      label,
      `${(r.ms / 1000).toFixed(2)} s`,
      `${(r.cpuMs / 1000).toFixed(2)} s`,
      fmtBytes(r.read),
      fmtBytes(r.written),
      fmtBytes(r.rss),
      r.listed,
    ]);
  }
  console.log(`HDF5 member: ${fmtBytes(size)}, ${ROWS.toLocaleString('en')} rows.\n`);
  table(
    [
      'case',
      'wall',
      'CPU (all threads)',
      'read (process)',
      'written (process)',
      'peak RSS',
      'listed',
    ],
    rows,
  );
}
