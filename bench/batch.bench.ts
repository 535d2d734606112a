/**
 * Batch inference: a folder of 1,000 small CSVs (two layouts, ~6 KB each, written once into
 * bench/.data/) and the stored zip of it, with `jobs` 1 and 2, against the baseline of
 * `inferConfig` on each file one after another in the same run. Prints files/s, bytes read
 * from the archive and peak RSS. Target: at least 300 files/s with 2 jobs.
 *
 * Then `inferBatch` on a stored zip of 100 Parquet files (see `_batch-parquet-zip.ts`; its
 * size is IMPORTKIT_BENCH_PARQUET_ZIP_MB, default 1024): bytes read against the archive's size.
 *
 * Then `submit` of a generated folder against the emulator (see `_batch-submit.ts`; its size
 * is IMPORTKIT_BENCH_SUBMIT_MB, default 200).
 *
 * Then `checkBatch` of a folder of Parquet and CSV files and of its stored and deflated
 * zips, sampled and `--full` (see `_batch-check.ts`; its size is IMPORTKIT_BENCH_CHECK_MB,
 * default 200). IMPORTKIT_BENCH_BATCH=infer, =parquet-zip, =submit or =check runs one part
 * only.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { zipBytes } from '../scripts/fixtures/zip-writer.js';
import { inferBatch } from '../src/infer/batch.js';
import { inferConfig } from '../src/infer/index.js';
import { benchCheck, checkChild } from './_batch-check.js';
import { benchParquetZip, parquetChild } from './_batch-parquet-zip.js';
import { benchSubmit } from './_batch-submit.js';
import { dataDir, fmtBytes, measure, table } from './_measure.js';

const FILES = 1000;

function csv(i: number): string {
  const rows: string[] = [i % 2 === 0 ? 'time,temp,pressure' : 'ts_ms,speed,ok'];
  for (let r = 0; r < 100; r += 1)
    rows.push(
      i % 2 === 0
        ? `2024-01-01T00:${String(Math.floor(r / 60)).padStart(2, '0')}:${String(r % 60).padStart(2, '0')}Z,${(r * 0.37).toFixed(3)},${1000 + r}`
        : `${1700000000000 + r * 10},${(r * 1.5).toFixed(2)},${r % 3 === 0}`,
    );
  return `${rows.join('\n')}\n`;
}

function prepare(): { folder: string; zip: string; files: string[] } {
  const folder = join(dataDir(), 'batch-1000');
  const zip = join(dataDir(), 'batch-1000.zip');
  const files = Array.from({ length: FILES }, (_, i) => `day-${i % 10}/file-${i}.csv`);
  if (!existsSync(zip)) {
    const members = files.map((name, i) => ({
      name,
      data: Buffer.from(csv(i)),
      method: 0 as const,
    }));
    for (const m of members) {
      mkdirSync(join(folder, m.name, '..'), { recursive: true });
      writeFileSync(join(folder, m.name), m.data);
    }
    writeFileSync(zip, zipBytes(members));
  }
  return { folder, zip, files };
}

async function benchInfer(): Promise<void> {
  const { folder, zip, files } = prepare();
  const rows: string[][] = [];
  const baseline = await measure(async () => {
    for (const f of files) await inferConfig(join(folder, f));
  });
  rows.push([
    'inferConfig per file (baseline)',
    '1',
    `${(baseline.ms / 1000).toFixed(2)} s`,
    `${Math.round(FILES / (baseline.ms / 1000))}`,
    '-',
    fmtBytes(baseline.peakRss),
  ]);
  for (const [what, path] of [
    ['inferBatch folder', folder],
    ['inferBatch stored zip', zip],
  ] as const) {
    for (const jobs of [1, 2]) {
      const m = await measure(() => inferBatch(path, { jobs }));
      rows.push([
        what,
        String(jobs),
        `${(m.ms / 1000).toFixed(2)} s`,
        `${Math.round(FILES / (m.ms / 1000))}`,
        path === zip ? fmtBytes(m.value.archiveBytesRead) : '-',
        fmtBytes(m.peakRss),
      ]);
    }
  }
  table(['run', 'jobs', 'time', 'files/s', 'archive bytes read', 'peak RSS'], rows);
}

const part = process.env.IMPORTKIT_BENCH_BATCH;
const runs = (name: string) => part === undefined || part === '' || part === name;
if (process.argv[2] === '--parquet-child') {
  const [dir, files, rows] = process.argv.slice(3) as [string, string, string];
  await parquetChild(dir, Number(files), Number(rows));
} else if (process.argv[2] === '--check-child') {
  const [batch, path, mode] = process.argv.slice(3) as [string, string, string];
  await checkChild(batch, path, mode === 'full');
} else {
  if (runs('infer')) await benchInfer();
  if (runs('parquet-zip')) {
    console.log('\n### stored zip of Parquet files\n');
    await benchParquetZip();
  }
  if (runs('submit')) {
    console.log('\n### submit\n');
    await benchSubmit();
  }
  if (runs('check')) {
    console.log('\n### check of a zip of Parquet and CSV files\n');
    await benchCheck();
  }
}
