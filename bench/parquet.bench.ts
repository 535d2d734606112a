/**
 * Parquet inference on files of 1 MB, 100 MB and 1 GB (written once by DuckDB into
 * bench/.data/): wall time, bytes read and peak RSS of `inferParquet` (footer only), against
 * a baseline in the same run: reading the whole file with parquet-wasm. Target: the 1 GB
 * file costs at most 1.2x the 1 MB file and reads under 1 MB of it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inferParquetSource } from '../src/formats/parquet/infer.js';
import { finishDraft } from '../src/infer/index.js';
import { countingSource, openFileSource } from '../src/inspect/byte-source.js';
import { best, dataDir, fmtBytes, MiB, measure, table } from './_measure.js';

/** Rows of a time + four DOUBLE columns, uncompressed: ~40 bytes a row. */
const SIZES = [
  { label: '1 MB', rows: 25_000 },
  { label: '100 MB', rows: 2_500_000 },
  { label: '1 GB', rows: 25_000_000 },
];

async function generate(path: string, rows: number): Promise<void> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:', { threads: '2' });
  const conn = await db.connect();
  await conn.run(`COPY (
      SELECT TIMESTAMP '2024-01-01' + to_microseconds(i * 1000) AS timestamp,
        random() AS speed, random() AS rpm, random() AS temperature, random() AS pressure
      FROM range(${rows}) t(i)
    ) TO '${path}' (FORMAT parquet, COMPRESSION uncompressed, ROW_GROUP_SIZE 1000000)`);
  conn.closeSync();
}

async function ours(
  path: string,
): Promise<{ bytesRead: number; columns: number; footerLength: number }> {
  const source = countingSource(await openFileSource(path));
  try {
    const draft = finishDraft(await inferParquetSource(source));
    return {
      bytesRead: source.bytesRead,
      columns: draft.document.parquetConfig?.flatDataset?.dataColumns?.length ?? 0,
      footerLength: draft.document.parquetConfig?.footerLength ?? 0,
    };
  } finally {
    await source.close();
  }
}

async function baseline(path: string): Promise<{ bytesRead: number; decoded: number }> {
  const { readParquet } = await import('parquet-wasm');
  const bytes = await readFile(path);
  const t = readParquet(bytes);
  const decoded = t.getArrayMemorySize();
  t.free();
  return { bytesRead: bytes.byteLength, decoded };
}

// Files are written by a child process so DuckDB's memory is not counted in our RSS.
if (process.argv[2] === '--generate') {
  await generate(process.argv[3] ?? '', Number(process.argv[4]));
  process.exit(0);
}
const dir = dataDir();
const files = [];
for (const s of SIZES) {
  const path = join(dir, `parquet-${s.rows}.parquet`);
  if (!existsSync(path)) {
    const r = spawnSync(
      process.execPath,
      [fileURLToPath(import.meta.url), '--generate', path, String(s.rows)],
      { stdio: 'inherit' },
    );
    if (r.status !== 0) throw new Error(`could not write ${path}`);
  }
  files.push({ ...s, path, size: statSync(path).size });
}

// Warm up module loading once so that no size pays for it.
await ours(files[0]?.path ?? '');

const rows: Array<Array<string | number>> = [];
const oursMs: number[] = [];
const results = [];
for (const f of files) {
  const m = await best(20, () => ours(f.path));
  if (m.value.columns !== 4) throw new Error(`${f.label}: expected 4 data columns`);
  oursMs.push(m.ms);
  results.push({ f, m });
}
for (const { f, m } of results) {
  let b: Awaited<ReturnType<typeof measure<{ bytesRead: number; decoded: number }>>> | undefined;
  let failure = '';
  try {
    b = await measure(() => baseline(f.path));
  } catch (err) {
    failure = err instanceof Error ? err.message.slice(0, 60) : String(err);
  }
  rows.push([
    `${f.label} (${fmtBytes(f.size)}, ${Math.ceil(f.rows / 1_000_000)} row groups)`,
    fmtBytes(m.value.footerLength),
    `${m.ms.toFixed(1)} ms`,
    fmtBytes(m.value.bytesRead),
    fmtBytes(m.peakRss),
    b ? `${b.ms.toFixed(0)} ms` : `failed: ${failure}`,
    b ? fmtBytes(b.value.bytesRead) : '-',
    b ? fmtBytes(b.peakRss) : '-',
    b ? `${(b.ms / m.ms).toFixed(0)}x faster` : '-',
    `${(m.ms / (oursMs[0] ?? m.ms)).toFixed(2)}x`,
  ]);
}
table(
  [
    'file',
    'footer',
    'infer (ours)',
    'read (ours)',
    'peak RSS (ours)',
    'parquet-wasm whole file',
    'read (baseline)',
    'peak RSS (baseline)',
    'ours vs baseline',
    'ours vs 1 MB',
  ],
  rows,
);
const last = results.at(-1);
if (last) {
  const ratio = last.m.ms / (oursMs[0] ?? last.m.ms);
  console.log(
    `\n1 GB vs 1 MB: ${ratio.toFixed(2)}x (target <= 1.2x); 1 GB bytes read ${fmtBytes(last.m.value.bytesRead)} (target < ${fmtBytes(MiB)})`,
  );
}
