/**
 * `importkit check --full` on generated CSV files of 100 MB and 1 GB: MB/s and peak RSS,
 * beside two baselines measured in the same run on the same file: a bare papaparse parse
 * (streamed, no dynamicTyping, rows discarded) and DuckDB with one thread counting the rows
 * of `read_csv` with the same column types. Target: ≥ 150 MB/s, no slower than DuckDB,
 * peak RSS < 150 MB. Ours runs first so its RSS is not inflated by the baselines.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import Papa from 'papaparse';
import { checkConfig } from '../src/check/index.js';
import type { ImportDocument } from '../src/model/document.js';
import { dataDir, fmtBytes, MiB, measure, table } from './_measure.js';

const SIZES = [
  { label: '100 MB', bytes: 100 * 1000 * 1000 },
  { label: '1 GB', bytes: 1000 * 1000 * 1000 },
];

const HEADER = 'time_ms,a,b,c,d,e,f,g,h,count,flag\n';

/** A deterministic table: unix ms time, 8 doubles, an integer and a boolean (~95 bytes a row). */
async function generate(path: string, bytes: number): Promise<void> {
  if (existsSync(path) && statSync(path).size >= bytes) return;
  const handle = await open(path, 'w');
  try {
    let seed = 42;
    const rand = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    let written = 0;
    let t = 1_728_320_409_982;
    await handle.write(HEADER);
    written += HEADER.length;
    while (written < bytes) {
      let chunk = '';
      for (let i = 0; i < 20_000; i++) {
        t += 10;
        const d = Array.from({ length: 8 }, () => (rand() * 200 - 100).toFixed(4));
        chunk += `${t},${d.join(',')},${Math.floor(rand() * 100_000)},${rand() < 0.5 ? 'true' : 'false'}\n`;
      }
      await handle.write(chunk);
      written += chunk.length;
    }
  } finally {
    await handle.close();
  }
}

const DOC: ImportDocument = {
  csvConfig: {
    firstDataRow: 2,
    timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS' },
    dataColumns: {
      ...Object.fromEntries(
        'abcdefgh'
          .split('')
          .map((n, i) => [
            String(i + 2),
            { name: n, dataType: 'CHANNEL_DATA_TYPE_DOUBLE' as const },
          ]),
      ),
      '10': { name: 'count', dataType: 'CHANNEL_DATA_TYPE_INT_32' },
      '11': { name: 'flag', dataType: 'CHANNEL_DATA_TYPE_BOOL' },
    },
  },
};

function papaparse(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let rows = 0;
    Papa.parse(createReadStream(path), {
      step: () => {
        rows += 1;
      },
      complete: () => resolve(rows),
      error: reject,
    });
  });
}

async function duckdb(path: string): Promise<number> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:', { threads: '1' });
  const conn = await db.connect();
  try {
    const columns = `{'time_ms': 'BIGINT', ${'abcdefgh'
      .split('')
      .map((c) => `'${c}': 'DOUBLE'`)
      .join(', ')}, 'count': 'INTEGER', 'flag': 'BOOLEAN'}`;
    const reader = await conn.runAndReadAll(
      `SELECT count(*) FROM read_csv('${path}', header = true, columns = ${columns})`,
    );
    return Number(reader.getRows()[0]?.[0]);
  } finally {
    conn.closeSync();
  }
}

// Ours for every size first, then the baselines: RSS is per process, and DuckDB's memory
// (and papaparse's garbage) would otherwise count against the check that runs after them.
const files = [];
for (const size of SIZES) {
  const path = join(dataDir(), `check-${size.label.replace(' ', '')}.csv`);
  await generate(path, size.bytes);
  files.push({ label: size.label, path, bytes: statSync(path).size });
}
const results = [];
for (const f of files) {
  const ours = await measure(() => checkConfig(DOC, f.path, { full: true }));
  results.push({ ...f, ours, errors: ours.value.filter((i) => i.severity === 'error').length });
}
const rows: Array<Array<string | number>> = [];
for (const r of results) {
  const mbps = (ms: number) => (r.bytes / 1e6 / (ms / 1000)).toFixed(0);
  const papa = await measure(() => papaparse(r.path));
  const duck = await measure(() => duckdb(r.path));
  rows.push([
    r.label,
    fmtBytes(r.bytes),
    `${mbps(r.ours.ms)} MB/s`,
    `${(r.ours.peakRss / MiB).toFixed(0)} MiB`,
    `${mbps(papa.ms)} MB/s`,
    `${mbps(duck.ms)} MB/s`,
    `${(papa.ms / r.ours.ms).toFixed(2)}×`,
    `${(duck.ms / r.ours.ms).toFixed(2)}×`,
    r.errors,
  ]);
}
table(
  [
    'file',
    'size',
    'check --full',
    'peak RSS (check)',
    'papaparse',
    'DuckDB 1 thread',
    'vs papaparse',
    'vs DuckDB',
    'errors found',
  ],
  rows,
);
console.log(
  '\nTarget: check --full ≥ 150 MB/s, no slower than DuckDB with one thread (vs DuckDB ≥ 1×), peak RSS < 150 MiB.',
);
