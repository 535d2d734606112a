/**
 * `normalize` against a plain byte copy of the same file, in the same run: the 1 GB CSV of
 * the CSV benchmark (nothing to rewrite: the byte path, scanning for repeated header lines),
 * and a ~70 MB file with `;` and decimal commas (every cell rewritten: the record path).
 * Target: normalize at >= 100 MB/s on the 1 GB file. Peak RSS shows the memory stays bounded.
 */
import { createReadStream, createWriteStream, existsSync, rmSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { normalizeCsv } from '../src/normalize/index.js';
import { CSV_SIZES, generateCsv } from './_csv-files.js';
import { best, dataDir, fmtBytes, MiB, table } from './_measure.js';

const dir = dataDir();
const big = CSV_SIZES[CSV_SIZES.length - 1] as { label: string; rows: number };
const bigPath = join(dir, `csv-${big.label.replace(' ', '')}.csv`);
await generateCsv(bigPath, big.rows);

/** ~70 MB of `time;a;b;c` rows with decimal commas, written once. */
async function generateDecimalComma(path: string): Promise<void> {
  if (existsSync(path)) return;
  const h = await open(path, 'w');
  await h.write('time;a;b;c\n');
  const t0 = Date.UTC(2024, 0, 1);
  for (let block = 0; block < 1500; block++) {
    const lines: string[] = [];
    for (let i = 0; i < 1000; i++) {
      const n = block * 1000 + i;
      const t = new Date(t0 + n * 10).toISOString();
      lines.push(`${t};${(n % 1000) / 8},5;${n % 977},25;${(n % 313) * 3},125`.replace(/\./g, ','));
    }
    await h.write(`${lines.join('\n')}\n`);
  }
  await h.close();
}
const commaPath = join(dir, 'csv-decimal-comma.csv');
await generateDecimalComma(commaPath);

const out = join(dir, 'normalize-out.csv');
const copy = (from: string) =>
  pipeline(createReadStream(from, { highWaterMark: 4 * MiB }), createWriteStream(out));
const rows: Array<Array<string | number>> = [];
const summary: string[] = [];
for (const [label, path] of [
  ['1 GB (byte path)', bigPath],
  ['; and decimal commas (record path)', commaPath],
] as const) {
  const size = statSync(path).size;
  const runs = size > 500 * MiB ? 2 : 3;
  const c = await best(runs, () => copy(path));
  const n = await best(runs, () => normalizeCsv(path, out));
  const rate = (ms: number) => size / MiB / (ms / 1000);
  rows.push([
    label,
    fmtBytes(size),
    `${(c.ms / 1000).toFixed(2)} s`,
    `${rate(c.ms).toFixed(0)} MiB/s`,
    `${(n.ms / 1000).toFixed(2)} s`,
    `${rate(n.ms).toFixed(0)} MiB/s`,
    fmtBytes(n.peakRss),
    `${(n.ms / c.ms).toFixed(2)}x`,
    JSON.stringify(n.value.counts).replace(/"/g, ''),
  ]);
  if (path === bigPath)
    summary.push(
      `normalize on the 1 GB file: ${rate(n.ms).toFixed(0)} MiB/s (target >= 100 MB/s): ${rate(n.ms) * 1.048576 >= 100 ? 'met' : 'NOT met'}; ${(n.ms / c.ms).toFixed(2)}x the byte copy`,
    );
}
rmSync(out, { force: true });
table(
  [
    'file',
    'size',
    'byte copy',
    'copy rate',
    'normalize',
    'normalize rate',
    'peak RSS',
    'normalize / copy',
    'changes',
  ],
  rows,
);
console.log(`\n${summary.join('\n')}`);
