/**
 * `checkBatch` on a zip of Parquet and CSV files (half the bytes each: FILES Parquet files
 * written once by DuckDB, a time column and six DOUBLE channels, and FILES CSV files of a
 * time column and two channels), stored and deflated, sampled and `--full`. Each run is a
 * child process of its own, so its time and peak RSS (the process's maxRSS) are its own;
 * the bytes the run wrote under the temp folder are counted too (an archive checked in
 * place writes none).
 *
 * Size: IMPORTKIT_BENCH_CHECK_MB (default 200, the whole folder), e.g.
 *   IMPORTKIT_BENCH_BATCH=check nice npm run bench -- batch
 *
 * Measured at 200 MiB (one run each, back to back, on a shared 2-core machine at load
 * average about 6), spilling each listed member to a temp folder first, then checking in
 * place: stored zip 5.40 s → 1.21 s sampled, 10.66 s → 6.06 s --full (peak RSS 144 → 142
 * MiB, 175 → 167 MiB); deflated zip 13.84 s → 3.63 s sampled, 15.70 s → 7.70 s --full
 * (peak RSS 138 → 163 MiB, 177 → 194 MiB: each open deflated member keeps its first 8 MiB
 * and the last 1 MiB its stream passed); temp written 200 MiB → 0. The folder itself took
 * 1.77 s and 3.53 s.
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, statSync, watch } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import yazl from 'yazl';
import { checkBatch } from '../src/check/index.js';
import { inferBatch } from '../src/infer/batch.js';
import { dataDir, fmtBytes, listFiles, MiB, table } from './_measure.js';

const FILES = 10;
/** Bytes a Parquet row takes uncompressed: the timestamp and six channels, 8 bytes each. */
const PARQUET_ROW_BYTES = 8 * 7;

/** A CSV of about `bytes` bytes: ISO times every 10 ms, a fraction and an integer. */
async function writeCsv(path: string, bytes: number, seed: number): Promise<void> {
  const out = createWriteStream(path);
  const start = Date.UTC(2024, 0, 1) + seed * 86_400_000;
  out.write('time,temp,pressure\n');
  let written = 0;
  for (let r = 0; written < bytes; r += 1) {
    const line = `${new Date(start + r * 10).toISOString()},${((r * 37 + seed) % 1000) / 10},${1000 + (r % 97)}\n`;
    written += line.length;
    if (!out.write(line)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
}

async function zipOf(dir: string, zip: string, compress: boolean): Promise<void> {
  const out = new yazl.ZipFile();
  for (const f of await listFiles(dir)) out.addFile(join(dir, f), f, { compress });
  out.end();
  await pipeline(out.outputStream, createWriteStream(`${zip}.part`));
  await rename(`${zip}.part`, zip);
}

/** The folder, its stored and deflated zips, and the batch inferred from it, made once. */
async function prepare(mb: number) {
  const dir = join(dataDir(), `check-batch-${mb}mb`);
  const stored = `${dir}.zip`;
  const deflated = `${dir}-deflated.zip`;
  const batch = `${dir}.batch.json`;
  if (!existsSync(batch)) {
    await rm(dir, { recursive: true, force: true });
    const half = (mb * MiB) / 2 / FILES;
    const rows = Math.max(4, Math.floor(half / PARQUET_ROW_BYTES));
    const self = fileURLToPath(new URL('./batch.bench.js', import.meta.url));
    const r = spawnSync(
      process.execPath,
      [self, '--parquet-child', join(dir, 'parquet'), String(FILES), String(rows)],
      { stdio: 'inherit' },
    );
    if (r.status !== 0) throw new Error(`could not write the Parquet files into ${dir}`);
    await mkdir(join(dir, 'csv'), { recursive: true });
    for (let i = 0; i < FILES; i += 1) await writeCsv(join(dir, 'csv', `run-${i}.csv`), half, i);
    await zipOf(dir, stored, false);
    await zipOf(dir, deflated, true);
    const draft = await inferBatch(dir);
    await writeFile(batch, JSON.stringify(draft.document.batchConfig));
  }
  return { dir, stored, deflated, batch };
}

/** Bytes of the files under `dir` (what a run left or wrote there). */
async function bytesUnder(dir: string): Promise<number> {
  let n = 0;
  for (const f of await listFiles(dir).catch(() => [])) n += (await stat(join(dir, f))).size;
  return n;
}

/**
 * The child: checks the batch against `path` (in a private temp folder, watched) and prints
 * its time, its peak RSS and the most bytes seen under the temp folder, as JSON.
 */
export async function checkChild(batchFile: string, path: string, full: boolean): Promise<void> {
  const batch = JSON.parse(await readFile(batchFile, 'utf8'));
  const temp = await mkdtemp(join(tmpdir(), 'importkit-bench-check-'));
  process.env.TMPDIR = temp;
  let tempPeak = 0;
  const watcher = watch(temp, { recursive: true }, () => {
    bytesUnder(temp).then((n) => {
      tempPeak = Math.max(tempPeak, n);
    });
  });
  const start = performance.now();
  const issues = await checkBatch(batch, path, { full, jobs: 2 });
  const ms = performance.now() - start;
  watcher.close();
  await rm(temp, { recursive: true, force: true });
  const peakRss = process.resourceUsage().maxRSS * 1024;
  console.log(JSON.stringify({ ms, peakRss, tempPeak, issues: issues.length }));
}

export async function benchCheck(): Promise<void> {
  const mb = Number(process.env.IMPORTKIT_BENCH_CHECK_MB ?? 200);
  const { dir, stored, deflated, batch } = await prepare(mb);
  const self = fileURLToPath(new URL('./batch.bench.js', import.meta.url));
  const rows: string[][] = [];
  for (const [what, path] of [
    ['folder', dir],
    ['stored zip', stored],
    ['deflated zip', deflated],
  ] as const) {
    for (const full of [false, true]) {
      const r = spawnSync(
        process.execPath,
        [self, '--check-child', batch, path, full ? 'full' : 'sampled'],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
      );
      if (r.status !== 0) throw new Error(`the check of ${path} failed`);
      const m = JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}');
      rows.push([
        `checkBatch ${what}`,
        existsSync(path) && statSync(path).isFile() ? fmtBytes(statSync(path).size) : '-',
        full ? '--full' : 'sampled',
        `${(m.ms / 1000).toFixed(2)} s`,
        fmtBytes(m.peakRss),
        fmtBytes(m.tempPeak),
        String(m.issues),
      ]);
    }
  }
  table(['run', 'archive', 'mode', 'time', 'peak RSS', 'temp written (peak)', 'issues'], rows);
}
