/**
 * `normalize` against a plain byte copy of the same file, in the same run: the 1 GB CSV of
 * the CSV benchmark (nothing to rewrite: the byte path, scanning for repeated header lines),
 * a ~70 MB file with `;` and decimal commas (the record path), and a ~300 MB file where every
 * cell changes: day-first dates, local times with a zone name, decimal commas.
 * Targets: normalize at >= 100 MB/s on the 1 GB file and on the file where every cell
 * changes, with peak RSS < 150 MB there. Peak RSS shows the memory stays bounded.
 */
import { createReadStream, createWriteStream, existsSync, rmSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { normalizeCsv } from '../src/normalize/index.js';
import { CSV_SIZES, generateCsv } from './_csv-files.js';
import { best, dataDir, fmtBytes, MiB, table } from './_measure.js';
import { reportSpeed } from './_speed.js';

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

const two = (n: number) => String(n).padStart(2, '0');

/**
 * ~300 MB of `time;zoned;a;b` rows where every cell is rewritten: `30.03.2024 23:58:00.125`
 * (day-first), `2024-03-30 23:58:00 CET` or `… Europe/Berlin`, and two decimal commas.
 */
async function generateEveryCell(path: string): Promise<void> {
  if (existsSync(path)) return;
  const h = await open(path, 'w');
  await h.write('time;zoned;a;b\n');
  const t0 = Date.UTC(2024, 0, 1);
  for (let block = 0; block < 4500; block++) {
    const lines: string[] = [];
    for (let i = 0; i < 1000; i++) {
      const n = block * 1000 + i;
      const d = new Date(t0 + n * 1010);
      const [y, mo, day] = [d.getUTCFullYear(), two(d.getUTCMonth() + 1), two(d.getUTCDate())];
      const clock = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
      const zone = n % 2 ? 'Europe/Berlin' : 'CET';
      const a = `${n % 1000},${n % 8}`;
      const b = `${n % 977},${(n % 4) * 25}`;
      lines.push(
        `${day}.${mo}.${y} ${clock}.${String(n % 1000).padStart(3, '0')};${y}-${mo}-${day} ${clock} ${zone};${a};${b}`,
      );
    }
    await h.write(`${lines.join('\n')}\n`);
  }
  await h.close();
}
const everyPath = join(dir, 'csv-every-cell.csv');
await generateEveryCell(everyPath);

const out = join(dir, 'normalize-out.csv');
const copy = (from: string) =>
  pipeline(createReadStream(from, { highWaterMark: 4 * MiB }), createWriteStream(out));
const rows: Array<Array<string | number>> = [];
const summary: string[] = [];
for (const [label, path, jobs] of [
  ['every cell rewritten (record path), one thread a core', everyPath, undefined],
  ['every cell rewritten (record path), 1 job', everyPath, 1],
  ['1 GB (byte path)', bigPath, undefined],
  ['; and decimal commas (record path)', commaPath, undefined],
] as const) {
  const size = statSync(path).size;
  const runs = size > 500 * MiB ? 2 : 3;
  const c = await best(runs, () => copy(path));
  const n = await best(runs, () => normalizeCsv(path, out, jobs ? { jobs } : {}));
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
  const mb = (ms: number) => size / 1e6 / (ms / 1000);
  if (path === everyPath && jobs === 1)
    summary.push(`normalize, every cell rewritten, 1 job: ${mb(n.ms).toFixed(0)} MB/s`);
  if (path === everyPath && jobs === undefined) {
    reportSpeed({
      key: 'normalize',
      ours: `${mb(n.ms).toFixed(0)} MB/s on ${fmtBytes(size)}, one thread a core`,
      baseline: `${mb(c.ms).toFixed(0)} MB/s`,
      ratio: c.ms / n.ms,
      rate: mb(n.ms),
      peakRss: n.peakRss,
    });
    summary.push(
      `normalize, every cell rewritten: ${mb(n.ms).toFixed(0)} MB/s (byte copy ${mb(c.ms).toFixed(0)} MB/s, ${(n.ms / c.ms).toFixed(2)}x its time), peak RSS ${fmtBytes(n.peakRss)} (targets >= 100 MB/s, < 150 MB): ${mb(n.ms) >= 100 ? 'met' : 'NOT met'}, ${n.peakRss < 150e6 ? 'met' : 'NOT met'}`,
    );
  }
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
