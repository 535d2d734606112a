/**
 * `importkit check --full` on a 20 M-row Parquet file (written once by DuckDB into
 * bench/.data/), reading every column the config names, with one job and with the default
 * jobs (the cores: this thread and workers reading runs of row groups), beside DuckDB
 * `read_parquet` with one thread reading every column of the same file (min, max, NaN
 * count, enum membership). Each runs in its own process: wall time, CPU time and that
 * process's peak RSS (its workers included).
 * Also the two decoders on the first row groups of the same file (all columns, values
 * touched): parquet-wasm, read as the check reads it, and hyparquet; and the time with one
 * INT32 column read as an ENUM of 8,001 keys, beside DuckDB counting its values that are
 * no key (before ENUM keys were looked up as numbers: 1.52 s against 0.66 s after).
 * Goal: ≥ 1.0 × DuckDB's speed (1 thread), peak RSS < 150 MB at any job count.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkConfig } from '../src/check/index.js';
import { decodeParquet } from '../src/formats/parquet/values.js';
import { parquetWasm } from '../src/formats/parquet/wasm.js';
import type { ImportDocument } from '../src/model/document.js';
import { bestTogether, dataDir, fmtBytes, MiB, table } from './_measure.js';
import { reportSpeed } from './_speed.js';

const ROWS = 20_000_000;
/** Rows of the larger file. */
const LARGE_ROWS = 5 * ROWS;
/** Rows the decoder comparison reads (the first row groups). */
const DECODE_ROWS = 2_000_000;

async function generate(path: string, rows = ROWS): Promise<void> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:', { threads: '2' });
  const conn = await db.connect();
  await conn.run(`COPY (
      SELECT 1709294400000000000 + i * 1000000 AS time_ns,
        CASE WHEN i % 4000000 = 7 THEN 'nan'::DOUBLE ELSE round(random() * 100, 1) END AS speed,
        (random() * 8000)::INTEGER AS rpm,
        round(20 + random() * 5, 2)::FLOAT AS temperature,
        (i % 100000)::INTEGER AS count,
        ['IDLE', 'RUN', 'STOP'][1 + (i % 3)::INTEGER] AS state
      FROM range(${rows}) t(i)
    ) TO '${path}' (FORMAT parquet)`);
  conn.closeSync();
}

const channel = (name: string, dataType: string) => ({
  path: name,
  channelConfig: { name, dataType },
});

const DOC = {
  parquetConfig: {
    assetName: 'bench',
    flatDataset: {
      timeColumn: { path: 'time_ns', format: 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS' },
      dataColumns: [
        channel('speed', 'CHANNEL_DATA_TYPE_DOUBLE'),
        channel('rpm', 'CHANNEL_DATA_TYPE_INT_32'),
        channel('temperature', 'CHANNEL_DATA_TYPE_FLOAT'),
        channel('count', 'CHANNEL_DATA_TYPE_INT_32'),
        {
          path: 'state',
          channelConfig: {
            name: 'state',
            dataType: 'CHANNEL_DATA_TYPE_ENUM',
            enumTypes: [
              { name: 'IDLE', key: 0 },
              { name: 'RUN', key: 1 },
              { name: 'STOP', key: 2 },
            ],
          },
        },
      ],
    },
  },
} as ImportDocument;

async function ours(path: string, jobs?: number, doc = DOC): Promise<string> {
  const issues = await checkConfig(doc, path, { full: true, ...(jobs ? { jobs } : {}) });
  return issues.map((i) => i.code).join(' ') || 'no issue';
}

/** Keys of the integer column read as an ENUM (rpm holds 0 to 8,000: every value is a key). */
const ENUM_KEYS = 8_001;

/** The time and one integer column, `rpm`, as an ENUM of ENUM_KEYS keys (one job). */
const ENUM_DOC = {
  parquetConfig: {
    assetName: 'bench',
    flatDataset: {
      timeColumn: DOC.parquetConfig?.flatDataset?.timeColumn,
      dataColumns: [
        {
          path: 'rpm',
          channelConfig: {
            name: 'rpm',
            dataType: 'CHANNEL_DATA_TYPE_ENUM',
            enumTypes: Array.from({ length: ENUM_KEYS }, (_, key) => ({ name: `r${key}`, key })),
          },
        },
      ],
    },
  },
} as ImportDocument;

/** DuckDB on the same two columns: time's order, and rpm's values that are no key. */
async function duckdbEnum(path: string): Promise<string> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:', { threads: '1' });
  const conn = await db.connect();
  try {
    const r = await conn.runAndReadAll(`SELECT count(*), min(time_ns), max(time_ns),
        count(*) FILTER (WHERE rpm NOT IN (SELECT range FROM range(${ENUM_KEYS})))
      FROM read_parquet('${path}')`);
    return `${r.getRows()[0]?.[3]} unknown keys`;
  } finally {
    conn.closeSync();
  }
}

async function duckdb(path: string): Promise<string> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:', { threads: '1' });
  const conn = await db.connect();
  try {
    const r = await conn.runAndReadAll(`SELECT count(*), min(time_ns), max(time_ns),
        count(*) FILTER (WHERE isnan(speed) OR isinf(speed)), min(speed), max(speed),
        min(rpm), max(rpm), min(temperature), max(temperature), min(count), max(count),
        count(*) FILTER (WHERE state NOT IN ('IDLE', 'RUN', 'STOP'))
      FROM read_parquet('${path}')`);
    return `${r.getRows()[0]?.[0]} rows`;
  } finally {
    conn.closeSync();
  }
}

/** Touches every value of a decoded column (what a check costs at least). */
function touch(values: ArrayLike<unknown>): number {
  let n = 0;
  for (let i = 0; i < values.length; i++) if (values[i] !== null) n += 1;
  return n;
}

/**
 * Decodes the first rows with parquet-wasm as the check does (views of its memory, see
 * formats/parquet/arrow.ts, and reads of formats/parquet/file-blob.ts); the time counts from after the module loads.
 */
async function wasmDecode(path: string): Promise<string> {
  await parquetWasm();
  const start = performance.now();
  let rows = 0;
  let seen = 0;
  const columns = ['time_ns', 'speed', 'rpm', 'temperature', 'count', 'state'];
  const done = new Error('enough rows');
  try {
    await decodeParquet(path, columns, (_, chunk, base) => {
      if (base >= DECODE_ROWS) throw done;
      const values = chunk.numbers ?? chunk.utf8?.offsets;
      if (values) seen += touch(values);
      rows = Math.max(rows, base + chunk.length);
    });
  } catch (err) {
    if (err !== done) throw err;
  }
  return `${rows} rows in ${(performance.now() - start).toFixed(0)} ms (${seen} values)`;
}

/** Decodes the first row groups with hyparquet; the time counts from after the module loads. */
async function hyparquetDecode(path: string): Promise<string> {
  const { asyncBufferFromFile, parquetMetadataAsync, parquetRead } = await import('hyparquet');
  const start = performance.now();
  const file = await asyncBufferFromFile(path);
  const metadata = await parquetMetadataAsync(file);
  let rows = 0;
  let seen = 0;
  for (const group of metadata.row_groups) {
    if (rows >= DECODE_ROWS) break;
    const end = rows + Number(group.num_rows);
    await parquetRead({
      file,
      metadata,
      rowStart: rows,
      rowEnd: end,
      onChunk: (c) => {
        seen += touch(c.columnData as ArrayLike<unknown>);
      },
    });
    rows = end;
  }
  return `${rows} rows in ${(performance.now() - start).toFixed(0)} ms (${seen} values)`;
}

/** The jobs of the parallel run (the goal is stated for 2 cores). */
const JOBS = 2;

const RUNS: Record<string, (path: string) => Promise<string>> = {
  ours: (path) => ours(path, 1),
  oursJobs: (path) => ours(path, JOBS),
  duckdb,
  oursEnum: (path) => ours(path, 1, ENUM_DOC),
  duckdbEnum,
  wasmDecode,
  hyparquetDecode,
};

/** Runs one measurement in a new process: its wall time and its peak RSS. */
function child(name: string, path: string): { ms: number; cpu: number; rss: number; note: string } {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--run', name, path], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`${name} exited with ${r.status}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1) as string);
}

if (process.argv[2] === '--generate') {
  await generate(process.argv[3] as string, Number(process.argv[4] ?? ROWS));
  process.exit(0);
}
if (process.argv[2] === '--run') {
  const run = RUNS[process.argv[3] as string] as (path: string) => Promise<string>;
  const start = performance.now();
  const note = await run(process.argv[4] as string);
  const ms = performance.now() - start;
  const used = process.resourceUsage();
  const cpu = (used.userCPUTime + used.systemCPUTime) / 1000;
  console.log(JSON.stringify({ ms, cpu, rss: used.maxRSS * 1024, note }));
  process.exit(0);
}

const path = join(dataDir(), `check-parquet-${ROWS}.parquet`);
if (!existsSync(path)) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--generate', path], {
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error(`could not write ${path}`);
}
const size = statSync(path).size;
// Each run twice, in mirrored order (A B C C B A), the faster kept: other work on the
// machine weighs less on the ratios.
type Measured = ReturnType<typeof child>;
/** Each of `names` run twice on `file`, in mirrored order, the faster of each kept. */
function fasterOfTwo(names: string[], file: string): Map<string, Measured> {
  const best = new Map<string, Measured>();
  for (const name of [...names, ...[...names].reverse()]) {
    const m = child(name, file);
    const had = best.get(name);
    if (!had || m.ms < had.ms) best.set(name, m);
  }
  return best;
}
/**
 * JOBS one-job runs of ours on `file` at once, twice, the faster kept: what they did together
 * against one run alone (`alone` ms): what the machine gives JOBS threads that share nothing.
 */
async function runsAtOnce(file: string, alone: number): Promise<number> {
  const args = [fileURLToPath(import.meta.url), '--run', 'ours', file];
  return bestTogether(JOBS, args, alone, 2);
}
const best = fasterOfTwo(['ours', 'oursJobs', 'duckdb'], path);
const o = best.get('ours') as Measured;
const j = best.get('oursJobs') as Measured;
const d = best.get('duckdb') as Measured;
const w = child('wasmDecode', path);
const h = child('hyparquetDecode', path);
const mbps = (ms: number, bytes = size) => `${(bytes / 1e6 / (ms / 1000)).toFixed(0)} MB/s`;
const rowsPerS = (ms: number, rows: number) =>
  `${(((rows / ms) * 1000) / 1e6).toFixed(2)} M rows/s`;
console.log(`File: ${ROWS.toLocaleString('en')} rows, ${fmtBytes(size)}, 6 columns.\n`);
/** A table row: `base` the run it is compared with, `bytes` what its speed counts. */
const row = (run: string, m: Measured, base = d, bytes = size) => [
  run,
  `${(m.ms / 1000).toFixed(2)} s`,
  `${(m.cpu / 1000).toFixed(2)} s`,
  mbps(m.ms, bytes),
  `${(m.rss / MiB).toFixed(0)} MiB`,
  `${(base.ms / m.ms).toFixed(2)}×`,
  m.note,
];
table(
  ['run', 'time', 'CPU', 'speed', 'peak RSS', 'vs DuckDB 1 thread', 'result'],
  [
    row('importkit check --full, 1 job', o),
    row(`importkit check --full, ${JOBS} jobs`, j),
    row('DuckDB read_parquet, 1 thread', d),
  ],
);
console.log(
  '\nDecoders on the first row groups, every column (time from after the module loads):\n',
);
const decoded = (note: string) => ({
  rows: Number(/^(\d+) rows/.exec(note)?.[1]),
  ms: Number(/in (\d+) ms/.exec(note)?.[1]),
});
const dw = decoded(w.note);
const dh = decoded(h.note);
table(
  ['decoder', 'rows', 'speed', 'peak RSS (process)', 'vs hyparquet'],
  [
    [
      'parquet-wasm (used)',
      dw.rows,
      rowsPerS(dw.ms, dw.rows),
      `${(w.rss / MiB).toFixed(0)} MiB`,
      `${(dw.rows / dw.ms / (dh.rows / dh.ms)).toFixed(2)}×`,
    ],
    ['hyparquet', dh.rows, rowsPerS(dh.ms, dh.rows), `${(h.rss / MiB).toFixed(0)} MiB`, '1.00×'],
  ],
);
const said = (m: { ms: number; rss: number }, bytes = size) =>
  `${(m.ms / 1000).toFixed(2)} s (${mbps(m.ms, bytes)}), ${fmtBytes(m.rss)}`;
reportSpeed({
  key: 'parquet-full',
  ours: said(o),
  baseline: said(d),
  ratio: d.ms / o.ms,
  peakRss: o.rss,
});
reportSpeed({
  key: 'parquet-jobs',
  ours: said(j),
  baseline: said(o),
  ratio: o.ms / j.ms,
  peakRss: j.rss,
  together: await runsAtOnce(path, o.ms),
});
// An integer column read as an ENUM: every value looked up among the keys.
const enums = fasterOfTwo(['oursEnum', 'duckdbEnum'], path);
const oe = enums.get('oursEnum') as Measured;
const de = enums.get('duckdbEnum') as Measured;
console.log(
  `\nThe time and one INT32 column as an ENUM of ${ENUM_KEYS.toLocaleString('en')} keys:\n`,
);
table(
  ['run', 'time', 'CPU', 'speed', 'peak RSS', 'vs DuckDB 1 thread', 'result'],
  [row('importkit check --full, 1 job', oe, de), row('DuckDB read_parquet, 1 thread', de, de)],
);
// Five times the rows (about 1.4 GB, as large as the other formats' --jobs files): what a
// thread costs to start (modules, the compile, a worker's load) is the same, and weighs
// less against the values.
const largePath = join(dataDir(), `check-parquet-${LARGE_ROWS}.parquet`);
if (!existsSync(largePath)) {
  const r = spawnSync(
    process.execPath,
    [fileURLToPath(import.meta.url), '--generate', largePath, String(LARGE_ROWS)],
    { stdio: 'inherit' },
  );
  if (r.status !== 0) throw new Error(`could not write ${largePath}`);
}
const largeSize = statSync(largePath).size;
const large = fasterOfTwo(['ours', 'oursJobs'], largePath);
const lo = large.get('ours') as Measured;
const lj = large.get('oursJobs') as Measured;
console.log(
  `\nThe same columns, ${LARGE_ROWS.toLocaleString('en')} rows (${fmtBytes(largeSize)}):\n`,
);
table(
  ['run', 'time', 'CPU', 'speed', 'peak RSS', 'vs 1 job', 'result'],
  [
    row('importkit check --full, 1 job', lo, lo, largeSize),
    row(`importkit check --full, ${JOBS} jobs`, lj, lo, largeSize),
  ],
);
reportSpeed({
  key: 'parquet-jobs-large',
  ours: said(lj, largeSize),
  baseline: said(lo, largeSize),
  ratio: lo.ms / lj.ms,
  peakRss: lj.rss,
  together: await runsAtOnce(largePath, lo.ms),
});
console.log(
  '\nGoal: check --full ≥ 1.0× DuckDB (1 thread), peak RSS < 150 MB at any job count. The',
  'machine may be busy with other work: compare the ratios of one run, not runs.',
);
