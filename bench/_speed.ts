/**
 * The headline figures: one row per goal of the speed work, each reported by the benchmark
 * that measures it (ours beside its baseline, measured in the same run, with peak RSS).
 * `npm run bench` prints the rows its benchmarks reported at the end of the run and keeps
 * the latest row of each kind in `bench/.data/speed.json`; `npm run bench -- --readme`
 * rewrites the README's speed table from that file.
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';

/** What one benchmark measured for one row. */
export interface SpeedRow {
  key: SpeedKey;
  /** Ours, as measured: time or rate, and what it read. */
  ours: string;
  /** The baseline of the same run, as measured. */
  baseline: string;
  /** Ours against the baseline, in the sense the goal states (see SPEEDS). */
  ratio: number;
  /** Peak RSS of our run (all threads), bytes, where memory is part of the goal. */
  peakRss?: number;
  /** A rate the goal states absolutely (MB/s), where it does. */
  rate?: number;
  /**
   * For a row of several jobs: what as many one-job runs of ours did together when run at
   * once, in separate processes (their work a second against one run alone, in the same
   * run). What the machine gives that many threads that share nothing: cores that slow each
   * other down (shared caches, a virtual machine's host) slow these runs too. A reference,
   * not a bound: a one-job run that uses a second core (the engine's compiles, reads ahead)
   * loses it to the other run, and a read on several threads may do better.
   */
  together?: number;
}

/** A row as kept: what was measured, when, and under what load. */
export interface StoredRow extends SpeedRow {
  at: string;
  /** The machine's cores and its 1-minute load average as the row was reported. */
  cores: number;
  load: number;
}

interface Speed {
  what: string;
  baseline: string;
  goal: string;
  met: (row: SpeedRow) => boolean;
  /** The benchmark that measures it (`npm run bench -- <bench>`). */
  bench: string;
}

const MB150 = 150e6;
const underMemory = (r: SpeedRow) => r.peakRss === undefined || r.peakRss < MB150;

/** The rows, in the README's order. */
export const SPEEDS = {
  'csv-full': {
    what: 'CSV `check --full`, 1 GB, 1 job',
    baseline: 'DuckDB `read_csv` every cell, 1 thread',
    goal: '≥ 1.1× DuckDB',
    met: (r) => r.ratio >= 1.1,
    bench: 'check',
  },
  'csv-jobs': {
    what: 'CSV `check --full`, 1 GB, one job a core',
    baseline: 'ours, 1 job',
    goal: '≥ 1.7× on 2 cores',
    met: (r) => r.ratio >= 1.7,
    bench: 'check',
  },
  'parquet-full': {
    what: 'Parquet `check --full`, 20 M rows, 1 job',
    baseline: 'DuckDB `read_parquet` every column, 1 thread',
    goal: '≥ 1.0× DuckDB, < 150 MB',
    met: (r) => r.ratio >= 1 && underMemory(r),
    bench: 'check-parquet',
  },
  'parquet-jobs': {
    what: 'Parquet `check --full --jobs 2`',
    baseline: 'ours, 1 job',
    goal: '≥ 1.6×, < 150 MB',
    met: (r) => r.ratio >= 1.6 && underMemory(r),
    bench: 'check-parquet',
  },
  'parquet-jobs-large': {
    what: 'Parquet `check --full --jobs 2`, 100 M rows',
    baseline: 'ours, 1 job',
    goal: '≥ 1.6×, < 150 MB',
    met: (r) => r.ratio >= 1.6 && underMemory(r),
    bench: 'check-parquet',
  },
  'hdf5-jobs': {
    what: 'HDF5 `check --full --jobs 2`',
    baseline: 'ours, 1 job',
    goal: '≥ 1.6×',
    met: (r) => r.ratio >= 1.6,
    bench: 'check-hdf5',
  },
  'hdf5-jobs-large': {
    what: 'HDF5 `check --full --jobs 2`, a 1 GB file',
    baseline: 'ours, 1 job',
    goal: '≥ 1.6×',
    met: (r) => r.ratio >= 1.6,
    bench: 'check-hdf5',
  },
  'tdms-jobs': {
    what: 'TDMS `check --full --jobs 2`',
    baseline: 'ours, 1 job',
    goal: '≥ 1.6×',
    met: (r) => r.ratio >= 1.6,
    bench: 'check-tdms',
  },
  'tdms-jobs-large': {
    what: 'TDMS `check --full --jobs 2`, a 3.9 GB file',
    baseline: 'ours, 1 job',
    goal: '≥ 1.6×',
    met: (r) => r.ratio >= 1.6,
    bench: 'check-tdms',
  },
  'tdms-jobs-segments': {
    what: 'TDMS `check --full --jobs 2`, 1 GB in 100,000 segments',
    baseline: 'ours, 1 job',
    goal: '≥ 1.6×',
    met: (r) => r.ratio >= 1.6,
    bench: 'check-tdms',
  },
  'ulog-jobs': {
    what: 'ULog `check --full --jobs 2`',
    baseline: 'ours, 1 job',
    goal: '≥ 1.6×',
    met: (r) => r.ratio >= 1.6,
    bench: 'ulog',
  },
  normalize: {
    what: '`normalize`, every cell rewritten',
    baseline: 'a byte copy of the file',
    goal: '≥ 100 MB/s, < 150 MB',
    met: (r) => (r.rate ?? 0) >= 100 && underMemory(r),
    bench: 'normalize',
  },
  'lint-cold': {
    what: '`lint` one config, cold',
    baseline: '`node -e 0`',
    goal: '≤ 2×',
    met: (r) => r.ratio <= 2,
    bench: 'startup',
  },
  'infer-cold': {
    what: '`infer` a small CSV, cold',
    baseline: '`node -e 0`',
    goal: '≤ 3×',
    met: (r) => r.ratio <= 3,
    bench: 'startup',
  },
  submit: {
    what: '`submit` of a folder (client peak)',
    baseline: '`zip -r` of the folder',
    goal: '< 150 MB',
    met: underMemory,
    bench: 'batch',
  },
  'many-check': {
    what: '`check` of 10,000 small CSVs, one job a core',
    baseline: 'ours, `--jobs 1`',
    goal: 'every core busy: ≥ 1.6× on 2 cores',
    met: (r) => r.ratio >= 1.6,
    bench: 'many-files',
  },
  'many-lint': {
    what: '`lint` of 10,000 configs, default jobs (workers as they pay)',
    baseline: 'ours, `--jobs 1`',
    goal: 'every core busy: ≥ 1.6× on 2 cores',
    met: (r) => r.ratio >= 1.6,
    bench: 'many-files',
  },
} satisfies Record<string, Speed>;

export type SpeedKey = keyof typeof SPEEDS;

/** Where `npm run bench` asks its benchmarks to append their rows (one JSON a line). */
export const ROWS_ENV = 'IMPORTKIT_BENCH_ROWS';

/** Prints a row and hands it to `npm run bench` (when it runs this benchmark). */
export function reportSpeed(row: SpeedRow): void {
  const speed: Speed = SPEEDS[row.key];
  const together =
    row.together === undefined
      ? ''
      : ` As many one-job runs at once, in separate processes, did ${row.together.toFixed(2)}× one alone together.`;
  console.log(
    `\n${speed.what}: ${row.ratio.toFixed(2)}× ${speed.baseline} (goal ${speed.goal}): ${speed.met(row) ? 'met' : 'NOT met'} in this run.${together}`,
  );
  const file = process.env[ROWS_ENV];
  if (!file) return;
  if (!possible(row)) {
    console.log(
      `Not kept: ${row.together?.toFixed(2)}× is more than ${availableParallelism()} runs at once can do. The one-job run was slowed by other work on the machine; run the bench again.`,
    );
    return;
  }
  const stored: StoredRow = {
    ...row,
    at: new Date().toISOString(),
    cores: availableParallelism(),
    load: loadavg()[0] ?? 0,
  };
  appendFileSync(file, `${JSON.stringify(stored)}\n`);
}

/**
 * Whether a row's figures could come from this machine: runs at once each go at most as
 * fast as one alone, so together they do at most one a core (and a little over, within the
 * timing's error). More means the one-job run they are measured against was slowed.
 */
export function possible(row: SpeedRow, cores = availableParallelism()): boolean {
  return row.together === undefined || row.together <= cores * 1.02;
}

/** The rows appended to `file`, in order (none when there is no file). */
export function readRows(file: string): StoredRow[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as StoredRow);
}

/** The rows kept in `file` (`speed.json`), the latest of each kind; none when there is no file. */
export function readKept(file: string): StoredRow[] {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as StoredRow[]) : [];
}

/** Keeps the latest row of each kind: `kept` updated with `fresh`. */
export function keepLatest(kept: StoredRow[], fresh: StoredRow[]): StoredRow[] {
  const byKey = new Map(kept.map((r) => [r.key, r]));
  for (const r of fresh) byKey.set(r.key, r);
  return (Object.keys(SPEEDS) as SpeedKey[]).flatMap((k) => byKey.get(k) ?? []);
}

const MiB = 1024 * 1024;

/** The speed table as Markdown: one line per row of SPEEDS, "not measured" where none is kept. */
export function renderSpeedTable(rows: StoredRow[]): string {
  const byKey = new Map(rows.map((r) => [r.key, r]));
  const lines = [
    '| what | ours | baseline (same run) | ratio | peak RSS | goal | met | measured |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const [key, speed] of Object.entries(SPEEDS) as Array<[SpeedKey, Speed]>) {
    const r = byKey.get(key);
    if (!r) {
      lines.push(`| ${speed.what} | not measured | ${speed.baseline} | | | ${speed.goal} | | |`);
      continue;
    }
    const rss = r.peakRss === undefined ? '' : `${(r.peakRss / MiB).toFixed(0)} MiB`;
    const together = r.together === undefined ? '' : ` (runs at once: ${r.together.toFixed(2)}×)`;
    const when = `${r.at.slice(0, 10)}, ${r.cores} cores, load ${r.load.toFixed(1)}`;
    lines.push(
      `| ${speed.what} | ${r.ours} | ${speed.baseline}: ${r.baseline} | ${r.ratio.toFixed(2)}×${together} | ${rss} | ${speed.goal} | ${speed.met(r) ? 'yes' : 'no'} | ${when} |`,
    );
  }
  return lines.join('\n');
}

const BEGIN = '<!-- speed-table: written by `npm run bench -- --readme`; do not edit -->';
const END = '<!-- /speed-table -->';

/** `readme` with its speed table replaced by `table`; throws when it has no table markers. */
export function withSpeedTable(readme: string, table: string): string {
  const from = readme.indexOf(BEGIN);
  const to = readme.indexOf(END);
  if (from < 0 || to < from) throw new Error('the README has no speed-table markers');
  return `${readme.slice(0, from + BEGIN.length)}\n${table}\n${readme.slice(to)}`;
}

/** Rewrites the speed table of the README at `path` from the rows kept in `kept`. */
export function writeReadmeTable(path: string, kept: string): void {
  const rows = readKept(kept);
  if (rows.length === 0) throw new Error(`no figures kept in ${kept}: run \`npm run bench\` first`);
  writeFileSync(path, withSpeedTable(readFileSync(path, 'utf8'), renderSpeedTable(rows)));
}
