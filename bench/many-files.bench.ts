/**
 * Many small files: `importkit check <batchConfig> <folder>` of a folder of FILES small
 * CSVs (a time column and two channels, 50 rows each) and `importkit lint <folder>` of a
 * folder of FILES one-file configs, each a new process of the compiled CLI, with
 * `--jobs 1` and with the default (check: every core; lint: workers only once they pay for
 * their start, and `--jobs <cores>` beside it); and `importkit infer <folder>` of the CSVs
 * the same two ways. Prints files/s, wall time and the peak RSS of the process (its maxRSS,
 * worker threads included). For check and lint, as many `--jobs 1` runs as cores are also
 * run at once, each in a process of its own: what the machine gives threads that share
 * nothing (the README's "runs at once"). The folders are written once under bench/.data/
 * and kept.
 *
 * Size: IMPORTKIT_BENCH_MANY_FILES (default 10000).
 *
 * Measured at 10,000 files (one run each, back to back, on a shared 2-core machine,
 * 2026-11-28): check 6.47 s (1546 files/s, CPU 8.8 s) with --jobs 1, 5.97 s (1676 files/s,
 * CPU 10.2 s, peak RSS 204 MiB) with the default: 1.08×; lint 1.44 s with --jobs 1, 1.08 s
 * with two threads: 1.33×. One job already keeps more than one core busy (V8 compiles and
 * collects garbage on threads of its own: 1.1 to 1.4 cores), and a second thread has to
 * compile the same code again; the work a file is small (0.6 ms to check, 0.1 ms to lint).
 */
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bestTogether, dataDir, fmtBytes, runWithUsage, table } from './_measure.js';
import { reportSpeed } from './_speed.js';

const FILES = Number(process.env.IMPORTKIT_BENCH_MANY_FILES ?? 10_000);
const ROWS = 50;
const bin = join(import.meta.dirname, '..', '..', 'bin', 'importkit.js');

function csvOf(seed: number): string {
  const start = Date.UTC(2024, 0, 1) + seed * 60_000;
  const lines = ['time,temp,pressure'];
  for (let r = 0; r < ROWS; r += 1) {
    lines.push(
      `${new Date(start + r * 100).toISOString()},${((r * 37 + seed) % 1000) / 10},${1000 + (r % 97)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function configOf(seed: number): string {
  return [
    'csvConfig:',
    `  assetName: rig-${seed % 50}`,
    `  runName: run ${seed}`,
    '  firstDataRow: 2',
    '  timeColumn:',
    '    columnNumber: 1',
    '    format: TIME_FORMAT_ABSOLUTE_RFC3339',
    '  dataColumns:',
    '    "2":',
    '      name: temp',
    '      units: degC',
    '      dataType: CHANNEL_DATA_TYPE_DOUBLE',
    '    "3":',
    '      name: pressure',
    '      dataType: CHANNEL_DATA_TYPE_INT_32',
    '',
  ].join('\n');
}

/** The batch config that reads every CSV of the folder with one default config. */
function batchOf(names: string[]): string {
  const fileConfigs: Record<string, { type: string }> = {};
  for (const n of names) fileConfigs[n] = { type: 'DATA_TYPE_KEY_CSV' };
  const defaultCsvConfig = {
    firstDataRow: 2,
    timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_RFC3339' },
    dataColumns: {
      2: { name: 'temp', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' },
      3: { name: 'pressure', dataType: 'CHANNEL_DATA_TYPE_INT_32' },
    },
  };
  return JSON.stringify({ batchConfig: { assetName: 'rig', defaultCsvConfig, fileConfigs } });
}

/** The two folders and the batch config, written once (a folder is renamed in when whole). */
async function prepare() {
  const root = join(dataDir(), `many-files-${FILES}`);
  const csvs = join(root, 'csv');
  const configs = join(root, 'configs');
  const batch = join(root, 'batch.json');
  if (!existsSync(batch)) {
    await rm(root, { recursive: true, force: true });
    await mkdir(`${csvs}.part`, { recursive: true });
    await mkdir(`${configs}.part`, { recursive: true });
    const names: string[] = [];
    for (let i = 0; i < FILES; i += 1) {
      const name = `run-${String(i).padStart(5, '0')}.csv`;
      names.push(name);
      await writeFile(join(`${csvs}.part`, name), csvOf(i));
      await writeFile(
        join(`${configs}.part`, `run-${String(i).padStart(5, '0')}.yaml`),
        configOf(i),
      );
    }
    await rename(`${csvs}.part`, csvs);
    await rename(`${configs}.part`, configs);
    await writeFile(batch, batchOf(names));
  }
  return { csvs, configs, batch };
}

/** One run of the CLI in a new process: its wall time, CPU time and peak RSS; throws when it fails. */
function run(args: string[]): { ms: number; cpuMs: number; peakRss: number } {
  return runWithUsage([bin, ...args]);
}

// A child of runsAtOnce: one run of the CLI with these arguments, its time as JSON.
if (process.argv[2] === '--once') {
  console.log(JSON.stringify({ ms: run(process.argv.slice(3)).ms }));
  process.exit(0);
}

const { csvs, configs, batch } = await prepare();
/** Where `infer` writes its draft of the folder (rewritten by each run). */
const inferred = join(dataDir(), `many-files-${FILES}`, 'inferred.yaml');
const cores = availableParallelism();
/** Each run: its name, its arguments, and the run (index) its speed-up is over. */
const runs: Array<[string, string[], number]> = [
  ['check batch.json csv/ --jobs 1', ['check', batch, csvs, '--jobs', '1'], 0],
  [`check batch.json csv/ (default: ${cores} cores)`, ['check', batch, csvs], 0],
  ['lint configs/ --jobs 1', ['lint', configs, '--jobs', '1'], 2],
  [`lint configs/ (default: up to ${cores} cores, as they pay)`, ['lint', configs], 2],
  [`lint configs/ --jobs ${cores}`, ['lint', configs, '--jobs', String(cores)], 2],
  ['infer csv/ --jobs 1', ['infer', csvs, '-o', inferred, '--jobs', '1'], 5],
  [`infer csv/ (default: up to ${cores} cores, as they pay)`, ['infer', csvs, '-o', inferred], 5],
];
// Each run twice, in mirrored order (A B C C B A), the faster kept: one run of each was
// not enough, a one-job run slowed by other work inflating both the speed-up and what
// runs at once did against it.
const kept = new Map<number, ReturnType<typeof run>>();
for (const i of [...runs.keys(), ...[...runs.keys()].reverse()]) {
  const m = run((runs[i] as (typeof runs)[number])[1]);
  const had = kept.get(i);
  if (!had || m.ms < had.ms) kept.set(i, m);
}
const rows: string[][] = [];
const times: number[] = [];
const cpus: number[] = [];
const peaks: number[] = [];
for (const [i, [name]] of runs.entries()) {
  const m = kept.get(i) as ReturnType<typeof run>;
  times.push(m.ms);
  cpus.push(m.cpuMs);
  peaks.push(m.peakRss);
  rows.push([
    name,
    (m.ms / 1000).toFixed(2),
    `${(m.cpuMs / 1000).toFixed(2)} (${(m.cpuMs / m.ms).toFixed(2)} cores)`,
    (FILES / (m.ms / 1000)).toFixed(0),
    fmtBytes(m.peakRss),
  ]);
}
for (const [i, row] of rows.entries()) {
  const one = times[(runs[i] as (typeof runs)[number])[2]] as number;
  row.push((one / (times[i] as number)).toFixed(2));
}
console.log(
  `${FILES} files each; each run twice in mirrored order, the faster kept (${cores} cores).\n`,
);
table(['run', 'time s', 'CPU s', 'files/s', 'peak RSS', 'speed-up over --jobs 1'], rows);
for (const [k, key] of [
  [0, 'many-check'],
  [2, 'many-lint'],
] as const) {
  // With the CPU time: one job already keeps more than one core busy when V8 compiles.
  const rate = (i: number) =>
    `${(FILES / ((times[i] as number) / 1000)).toFixed(0)} files/s (CPU ${((cpus[i] as number) / 1000).toFixed(2)} s in ${((times[i] as number) / 1000).toFixed(2)} s)`;
  const one = times[k] as number;
  const all = times[k + 1] as number;
  // What the machine gives threads that share nothing: as many `--jobs 1` runs as cores,
  // at once, in processes of their own (twice, the better kept).
  const args = [fileURLToPath(import.meta.url), '--once', ...(runs[k] as (typeof runs)[number])[1]];
  const together = await bestTogether(cores, args, one, 2);
  reportSpeed({
    key,
    ours: rate(k + 1),
    baseline: rate(k),
    ratio: one / all,
    peakRss: peaks[k + 1] ?? 0,
    together,
  });
}
