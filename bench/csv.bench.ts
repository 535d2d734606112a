/**
 * CSV inference on generated files of 1 MB, 100 MB and 1 GB (written once by DuckDB into
 * bench/.data/): wall time, bytes read and peak RSS of `inferConfig` (head + three slices),
 * against two baselines in the same run: a full papaparse parse of the file (streamed, no
 * typing) and DuckDB's `sniff_csv` on the same file. Targets: the 1 GB file costs at most
 * 1.5x the 1 MB file, peak RSS stays under 150 MB, and inference beats `sniff_csv`.
 *
 * CPU time is shown beside wall time: on a shared, loaded machine it is the steadier number.
 * Set CSV_BENCH_SKIP_FULL_1GB=1 to skip the full papaparse parse of the 1 GB file (~30 s).
 */
import { createReadStream, statSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { inspectCsv } from '../src/formats/csv/inspect.js';
import { inferConfig } from '../src/infer/index.js';
import { CSV_SIZES, generateCsv } from './_csv-files.js';
import { best, dataDir, fmtBytes, MiB, measure, table } from './_measure.js';

const SIZES = CSV_SIZES;
const generate = generateCsv;

async function ours(path: string): Promise<{ columns: number; format: string }> {
  const draft = await inferConfig(path);
  const cfg = draft.document.csvConfig;
  return {
    columns: Object.keys(cfg?.dataColumns ?? {}).length,
    format: cfg?.timeColumn?.format ?? '-',
  };
}

/** Every row through papaparse, streamed from the file (chunks, no typing). */
function papaFull(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let rows = 0;
    Papa.parse<string[]>(createReadStream(path) as unknown as File, {
      chunk: (r) => {
        rows += r.data.length;
      },
      complete: () => resolve(rows),
      error: (err: Error) => reject(err),
    });
  });
}

/** Best of `n` runs by wall time, with the CPU time (all threads of this process) of each run. */
async function bestWithCpu<T>(n: number, fn: () => Promise<T>) {
  let cpu = Number.POSITIVE_INFINITY;
  const m = await best(n, async () => {
    const c0 = process.cpuUsage();
    const v = await fn();
    const c = process.cpuUsage(c0);
    cpu = Math.min(cpu, (c.user + c.system) / 1000);
    return v;
  });
  return { ...m, cpu };
}

const dir = dataDir();
const files = SIZES.map((s) => ({ ...s, path: join(dir, `csv-${s.label.replace(' ', '')}.csv`) }));
for (const f of files) await generate(f.path, f.rows);

// Ours first, so its peak RSS is not the baselines'.
const results = [];
for (const f of files) {
  await ours(f.path); // warm up (lazy imports)
  const m = await bestWithCpu(3, () => ours(f.path));
  const profile = await inspectCsv(f.path);
  results.push({ ...f, size: statSync(f.path).size, ours: m, bytesRead: profile.bytesRead });
}

const { DuckDBInstance } = await import('@duckdb/node-api');
const db = await DuckDBInstance.create(':memory:', { threads: '2' });
const conn = await db.connect();
const sniff = async (path: string) => {
  const reader = await conn.runAndReadAll(`SELECT Delimiter, HasHeader FROM sniff_csv('${path}')`);
  return reader.getRows().length;
};

const rows: Array<Array<string | number>> = [];
const summary: string[] = [];
for (const r of results) {
  await sniff(r.path);
  const s = await bestWithCpu(3, () => sniff(r.path));
  const skipFull = r.label === '1 GB' && process.env.CSV_BENCH_SKIP_FULL_1GB === '1';
  const p = skipFull ? undefined : await measure(() => papaFull(r.path));
  rows.push([
    r.label,
    fmtBytes(r.size),
    `${r.ours.ms.toFixed(1)} ms`,
    `${r.ours.cpu.toFixed(0)} ms`,
    fmtBytes(r.bytesRead),
    fmtBytes(r.ours.peakRss),
    `${r.ours.value.columns} ${r.ours.value.format.replace('TIME_FORMAT_', '')}`,
    `${s.ms.toFixed(1)} ms`,
    `${s.cpu.toFixed(0)} ms`,
    p ? `${(p.ms / 1000).toFixed(2)} s` : 'skipped',
    `${(r.ours.ms / s.ms).toFixed(2)}x (CPU ${(r.ours.cpu / s.cpu).toFixed(2)}x)`,
    p ? `${(r.ours.ms / p.ms).toFixed(4)}x` : '-',
  ]);
}
table(
  [
    'file',
    'size',
    'infer',
    'infer CPU',
    'bytes read',
    'peak RSS',
    'draft',
    'sniff_csv',
    'sniff_csv CPU',
    'papaparse full',
    'infer / sniff_csv',
    'infer / papaparse',
  ],
  rows,
);
const first = results[0];
const last = results[results.length - 1];
if (first && last) {
  const ratio = last.ours.ms / first.ours.ms;
  const cpuRatio = last.ours.cpu / first.ours.cpu;
  const rss = Math.max(...results.map((r) => r.ours.peakRss));
  summary.push(
    `1 GB / 1 MB infer time: ${ratio.toFixed(2)}x wall, ${cpuRatio.toFixed(2)}x CPU (target <= 1.5x): ${ratio <= 1.5 ? 'met' : 'NOT met'}`,
    `peak RSS of infer: ${fmtBytes(rss)} (target < 150 MB): ${rss < 150 * MiB ? 'met' : 'NOT met'}`,
  );
}
console.log(`\n${summary.join('\n')}`);
conn.closeSync();
