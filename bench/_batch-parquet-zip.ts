/**
 * `inferBatch` on a stored zip of 100 Parquet files (a time column and six DOUBLE channels,
 * four row groups each, written once by DuckDB into bench/.data/ and zipped stored with
 * yazl: Parquet is compressed already). Prints files/s, wall time, peak RSS and the bytes
 * read from the archive against its size. Target: under 1% of the archive read.
 *
 * Size: IMPORTKIT_BENCH_PARQUET_ZIP_MB (default 1024, the issue's 1 GB; e.g. 100 for a
 * quick run). For the issue's figure:
 *   IMPORTKIT_BENCH_BATCH=parquet-zip nice npm run bench -- batch
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, statSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import yazl from 'yazl';
import { inferBatch } from '../src/infer/batch.js';
import { dataDir, fmtBytes, listFiles, MiB, measure, table } from './_measure.js';

const FILES = 100;
const CHANNELS = 6;
const ROW_GROUPS = 4;
/** Bytes a row takes uncompressed: the timestamp and the channels, 8 bytes each. */
const ROW_BYTES = 8 * (1 + CHANNELS);

/** The child: writes `files` Parquet files of `rows` rows each into `dir` with DuckDB. */
export async function parquetChild(dir: string, files: number, rows: number): Promise<void> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:', { threads: '2' });
  const conn = await db.connect();
  const channels = Array.from({ length: CHANNELS }, (_, c) => `random() AS ch${c}`).join(', ');
  for (let i = 0; i < files; i += 1) {
    const day = join(dir, `day-${i % 5}`);
    await mkdir(day, { recursive: true });
    await conn.run(`COPY (
        SELECT TIMESTAMP '2024-01-01' + to_microseconds(${i * rows * 1000} + r * 1000) AS timestamp,
          ${channels}
        FROM range(${rows}) t(r)
      ) TO '${join(day, `run-${String(i).padStart(3, '0')}.parquet`)}'
      (FORMAT parquet, COMPRESSION uncompressed, ROW_GROUP_SIZE ${Math.ceil(rows / ROW_GROUPS)})`);
  }
  conn.closeSync();
}

/** The stored zip of FILES Parquet files summing to about `mb` MiB, made once. */
async function prepare(mb: number): Promise<string> {
  const zip = join(dataDir(), `parquet-batch-${mb}mb.zip`);
  if (existsSync(zip)) return zip;
  const dir = join(dataDir(), `parquet-batch-${mb}mb`);
  await rm(dir, { recursive: true, force: true });
  const rows = Math.max(ROW_GROUPS, Math.floor((mb * MiB) / FILES / ROW_BYTES));
  const self = fileURLToPath(new URL('./batch.bench.js', import.meta.url));
  const r = spawnSync(
    process.execPath,
    [self, '--parquet-child', dir, String(FILES), String(rows)],
    {
      stdio: 'inherit',
    },
  );
  if (r.status !== 0) throw new Error(`could not write the Parquet files into ${dir}`);
  const out = new yazl.ZipFile();
  for (const f of await listFiles(dir)) out.addFile(join(dir, f), f, { compress: false });
  out.end();
  await pipeline(out.outputStream, createWriteStream(`${zip}.part`));
  await rename(`${zip}.part`, zip);
  await rm(dir, { recursive: true, force: true });
  return zip;
}

export async function benchParquetZip(): Promise<void> {
  const mb = Number(process.env.IMPORTKIT_BENCH_PARQUET_ZIP_MB ?? 1024);
  const zip = await prepare(mb);
  const size = statSync(zip).size;
  const rows: string[][] = [];
  let worst = 0;
  for (const jobs of [1, 2]) {
    const m = await measure(() => inferBatch(zip, { jobs }));
    const listed = m.value.listed.length;
    if (listed !== FILES) throw new Error(`expected ${FILES} files listed, got ${listed}`);
    const share = m.value.archiveBytesRead / size;
    worst = Math.max(worst, share);
    rows.push([
      `inferBatch stored zip of ${FILES} Parquet files`,
      fmtBytes(size),
      String(jobs),
      `${(m.ms / 1000).toFixed(2)} s`,
      `${Math.round(FILES / (m.ms / 1000))}`,
      `${fmtBytes(m.value.archiveBytesRead)} (${(share * 100).toFixed(3)}%)`,
      fmtBytes(m.peakRss),
    ]);
  }
  table(['run', 'archive', 'jobs', 'time', 'files/s', 'archive bytes read', 'peak RSS'], rows);
  console.log(`\nbytes read / archive size: at most ${(worst * 100).toFixed(3)}% (target < 1%)`);
}
