/**
 * The generated CSV files the CSV benchmarks share (written once by DuckDB into
 * bench/.data/): a datetime column and four DOUBLE columns with four decimals, ~60 bytes a
 * row, at 1 MB, 100 MB and 1 GB.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { dataDir } from './_measure.js';

export const CSV_SIZES = [
  { label: '1 MB', rows: 18_200 },
  { label: '100 MB', rows: 1_820_000 },
  { label: '1 GB', rows: 18_200_000 },
];

/** Writes the file unless it is there. */
export async function generateCsv(path: string, rows: number): Promise<void> {
  if (existsSync(path)) return;
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:', { threads: '2' });
  const conn = await db.connect();
  await conn.run(`COPY (
      SELECT TIMESTAMP '2024-01-01' + to_microseconds(i * 1000) AS timestamp,
        round(random() * 100, 4) AS speed, round(random() * 100, 4) AS rpm,
        round(random() * 100, 4) AS temperature, round(random() * 100, 4) AS pressure
      FROM range(${rows}) t(i)
    ) TO '${path}' (FORMAT csv, HEADER true)`);
  conn.closeSync();
}

/** The bench CSV of a size label (`1 MB`), generated when missing. */
export async function benchCsv(label: string): Promise<string> {
  const size = CSV_SIZES.find((s) => s.label === label);
  if (!size) throw new Error(`no bench CSV of ${label}`);
  const path = join(dataDir(), `csv-${label.replace(' ', '')}.csv`);
  await generateCsv(path, size.rows);
  return path;
}
