/**
 * `importkit check --full` on a ~200 MB HDF5 file (written once by h5wasm into bench/.data/,
 * chunked and grown block by block; then a ~1 GB one of the same layout), reading every value of the datasets the config names
 * a slice at a time in the HDF5 worker (`--jobs 1`), and in two HDF5 threads (`--jobs 2`:
 * ranges of rows of each dataset, tallies joined in order), beside the naive way in the same
 * run: h5wasm reading every dataset whole in one go and tallying the same things (NaN/±inf,
 * integer range, enum keys, time order). Each runs in its own process: wall time and that
 * process's peak RSS (the worker threads' memory included). The machine may be shared:
 * compare the ratios of one run, not times across runs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkConfig } from '../src/check/index.js';
import type { ImportDocument } from '../src/model/document.js';
import { bestTogether, dataDir, fmtBytes, MiB, table } from './_measure.js';
import { reportSpeed } from './_speed.js';

/** Bytes a row holds: time 8, speed 8, temperature 4, count 8, state 4, a [N, 2] pair 16. */
const ROW_BYTES = 8 + 8 + 4 + 8 + 4 + 16;
const ROWS = 4_200_000;
/** Rows of the larger file (about 1 GB, as the other formats' files): start-up weighs less. */
const LARGE_ROWS = 5 * ROWS;
const CHUNK = 65_536;
const BLOCK = 1 << 20;
const T0 = 1_735_689_600_000_000_000n;

type H5 = typeof import('h5wasm/node')['default'];
type H5Dataset = InstanceType<H5['Dataset']>;

const ONE_D: Array<[string, () => ArrayBufferView]> = [
  ['time', () => new BigInt64Array(0)],
  ['speed', () => new Float64Array(0)],
  ['temperature', () => new Float32Array(0)],
  ['count', () => new BigInt64Array(0)],
  ['state', () => new Int32Array(0)],
];

/** One block of rows [start, end) of every dataset. */
function block(start: number, end: number) {
  const n = end - start;
  const out = {
    time: new BigInt64Array(n),
    speed: new Float64Array(n),
    temperature: new Float32Array(n),
    count: new BigInt64Array(n),
    state: new Int32Array(n),
    pair: new Float64Array(2 * n),
  };
  for (let i = 0; i < n; i++) {
    const r = start + i;
    out.time[i] = T0 + BigInt(r) * 1_000_000n;
    out.speed[i] = r % 1_000_003 === 7 ? Number.NaN : Math.sin(r / 1000) * 100;
    out.temperature[i] = 20 + (r % 500) / 100;
    out.count[i] = BigInt(r % 100_000);
    out.state[i] = r % 3;
    out.pair[2 * i] = r;
    out.pair[2 * i + 1] = Math.cos(r / 1000);
  }
  return out;
}

async function generate(path: string, deflate?: number, rows = ROWS): Promise<void> {
  const done = `${path}.done`;
  if (existsSync(path) && existsSync(done)) return;
  rmSync(done, { force: true });
  const mod = await import('h5wasm/node');
  const h5: H5 = mod.default;
  await h5.ready;
  const f = new h5.File(path, 'w');
  try {
    const packed = deflate === undefined ? {} : { compression: deflate };
    const grow = { maxshape: [null], chunks: [CHUNK], ...packed };
    for (const [name, empty] of ONE_D) {
      f.create_dataset({ name, data: empty() as never, shape: [0], ...grow });
    }
    f.create_dataset({
      name: 'pair',
      data: new Float64Array(0),
      shape: [0, 2],
      maxshape: [null, 2],
      chunks: [CHUNK, 2],
      ...packed,
    });
    const ds = (p: string) => f.get(p) as H5Dataset;
    for (let start = 0; start < rows; start += BLOCK) {
      const end = Math.min(rows, start + BLOCK);
      const b = block(start, end);
      for (const [name] of ONE_D) {
        ds(name).resize([end]);
        ds(name).write_slice([[start, end]], b[name as keyof typeof b] as never);
      }
      ds('pair').resize([end, 2]);
      ds('pair').write_slice([[start, end], []], b.pair);
    }
  } finally {
    f.close();
  }
  writeFileSync(done, '');
}

const entry = (valueDataset: string, dataType: string, extra: Record<string, unknown> = {}) => ({
  timeDataset: '/time',
  valueDataset,
  ...extra,
  channelConfig: { name: valueDataset.slice(1), dataType },
});

const DOC = {
  hdf5Config: {
    assetName: 'bench',
    timeFormat: 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS',
    data: [
      entry('/speed', 'CHANNEL_DATA_TYPE_DOUBLE'),
      entry('/temperature', 'CHANNEL_DATA_TYPE_FLOAT'),
      entry('/count', 'CHANNEL_DATA_TYPE_INT_32'),
      {
        ...entry('/state', 'CHANNEL_DATA_TYPE_ENUM'),
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
      entry('/pair', 'CHANNEL_DATA_TYPE_DOUBLE', { valueIndex: '1' }),
    ],
  },
} as ImportDocument;

async function ours(path: string, jobs?: number): Promise<string> {
  const issues = await checkConfig(DOC, path, { full: true, ...(jobs ? { jobs } : {}) });
  return issues.map((i) => i.code).join(' ') || 'no issue';
}

/** Counts what the check counts, on a whole array. */
function tallyWhole(v: ArrayLike<number | bigint>): { nonFinite: number; backwards: number } {
  let nonFinite = 0;
  let backwards = 0;
  for (let i = 0; i < v.length; i++) {
    const x = v[i] as number | bigint;
    if (typeof x === 'number' && !Number.isFinite(x)) nonFinite += 1;
    if (i > 0 && x < (v[i - 1] as number | bigint)) backwards += 1;
  }
  return { nonFinite, backwards };
}

/** The naive way: every dataset read whole with h5wasm, in one go, then tallied. */
async function naive(path: string): Promise<string> {
  const mod = await import('h5wasm/node');
  await mod.default.ready;
  const f = new mod.default.File(path, 'r');
  let nonFinite = 0;
  let backwards = 0;
  try {
    const all = f.paths().map((name) => (f.get(name) as H5Dataset).value);
    for (const v of all) {
      const t = tallyWhole(v as unknown as ArrayLike<number | bigint>);
      nonFinite += t.nonFinite;
      backwards += t.backwards;
    }
  } finally {
    f.close();
  }
  return `${nonFinite} NaN/inf, ${backwards} steps down`;
}

const RUNS: Record<string, (path: string) => Promise<string>> = {
  ours,
  ours2: (path) => ours(path, 2),
  // The same, timed on a second check in the process: the modules, h5wasm and the threads
  // loaded by the first, what is left is reading the structure and the values.
  'ours-again': (path) => ours(path),
  'ours2-again': (path) => ours(path, 2),
  naive,
};

/** Runs one measurement in a new process: its wall time and its peak RSS. */
function child(
  name: string,
  path: string,
): { ms: number; cpu: number; rss: number; note: string } | string {
  const r = spawnSync(
    process.execPath,
    ['--max-old-space-size=8000', fileURLToPath(import.meta.url), '--run', name, path],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 600_000 },
  );
  if (r.status !== 0) return `failed (${r.signal ?? r.status})`;
  return JSON.parse(r.stdout.trim().split('\n').at(-1) as string);
}

if (process.argv[2] === '--run') {
  const name = process.argv[3] as string;
  const run = RUNS[name] as (path: string) => Promise<string>;
  if (name.endsWith('-again')) await run(process.argv[4] as string);
  const start = performance.now();
  const note = await run(process.argv[4] as string);
  const ms = performance.now() - start;
  const used = process.resourceUsage();
  // CPU time of every thread of the process, from its start: what a busy machine shares out.
  const cpu = (used.userCPUTime + used.systemCPUTime) / 1000;
  console.log(JSON.stringify({ ms, cpu, rss: used.maxRSS * 1024, note }));
  process.exit(0);
}

const path = join(dataDir(), `check-hdf5-${ROWS}.h5`);
await generate(path);
const size = statSync(path).size;
// Interleaved (one job, two jobs, naive, twice) so that a burst of other work on the machine
// weighs on each alike; each row is the faster of its two runs.
const best = (a: ReturnType<typeof child>, b: ReturnType<typeof child>) =>
  typeof a === 'string' ? b : typeof b === 'string' || a.ms <= b.ms ? a : b;
let o = child('ours', path);
let o2 = child('ours2', path);
let a = child('ours-again', path);
let a2 = child('ours2-again', path);
let n = child('naive', path);
o = best(o, child('ours', path));
o2 = best(o2, child('ours2', path));
a = best(a, child('ours-again', path));
a2 = best(a2, child('ours2-again', path));
n = best(n, child('naive', path));
const ratio = (r: typeof o, base: typeof o) =>
  typeof r === 'string' || typeof base === 'string' ? '' : `${(base.ms / r.ms).toFixed(2)}×`;
/** A table row: `one` the --jobs 1 run it is compared with, `bytes` what its speed counts. */
const row = (label: string, r: typeof o, one = o, bytes = size) =>
  typeof r === 'string'
    ? [label, r, '', '', '', '', '', '']
    : [
        label,
        `${(r.ms / 1000).toFixed(2)} s`,
        `${(r.cpu / 1000).toFixed(2)} s`,
        `${(bytes / 1e6 / (r.ms / 1000)).toFixed(0)} MB/s`,
        `${(r.rss / MiB).toFixed(0)} MiB`,
        ratio(r, one),
        ratio(r, n),
        r.note,
      ];
/** A row without the comparison with the naive read (which reads another file). */
const withoutNaive = (r: string[]) => [...r.slice(0, 6), '', ...r.slice(7)];
/** --jobs 1 and --jobs 2 on `file`, interleaved, each the faster of two runs. */
const oneAndTwo = (file: string): [typeof o, typeof o] => {
  const one = child('ours', file);
  const two = child('ours2', file);
  return [best(one, child('ours', file)), best(two, child('ours2', file))];
};
console.log(
  `File: ${ROWS.toLocaleString('en')} rows, ${fmtBytes(size)} (${ROW_BYTES} bytes a row), 6 datasets.\n`,
);
table(
  ['run', 'time', 'CPU', 'speed', 'peak RSS', 'vs --jobs 1', 'vs naive', 'result'],
  [
    row('importkit check --full --jobs 1', o),
    row('importkit check --full --jobs 2', o2),
    row('the same, --jobs 1, a second check', a, a),
    row('the same, --jobs 2, a second check', a2, a),
    row('h5wasm, every dataset whole', n),
  ],
);
const said = (m: { ms: number; rss: number }) =>
  `${(m.ms / 1000).toFixed(2)} s, ${fmtBytes(m.rss)}`;
/**
 * The speed row of `two` (--jobs 2) against `one` (--jobs 1) on `file`, when both ran; with
 * what two --jobs 1 runs at once do together (twice, the better kept): what the machine gives
 * two threads that share nothing.
 */
const reportJobs = async (
  key: 'hdf5-jobs' | 'hdf5-jobs-large',
  file: string,
  one: typeof o,
  two: typeof o,
) => {
  if (typeof one === 'string' || typeof two === 'string') return;
  const args = ['--max-old-space-size=8000', fileURLToPath(import.meta.url), '--run', 'ours', file];
  reportSpeed({
    key,
    ours: said(two),
    baseline: said(one),
    ratio: one.ms / two.ms,
    peakRss: two.rss,
    together: await bestTogether(2, args, one.ms, 2),
  });
};
await reportJobs('hdf5-jobs', path, o, o2);
// The same values, deflated (level 1): reading is mostly inflating, in each HDF5 thread.
const packedPath = join(dataDir(), `check-hdf5-${ROWS}-deflate.h5`);
await generate(packedPath, 1);
const packedSize = statSync(packedPath).size;
const [p1, p2] = oneAndTwo(packedPath);
console.log(
  `\nThe same file deflated (level 1, ${fmtBytes(packedSize)}; speed in MB of values read a second):\n`,
);
table(
  ['run', 'time', 'CPU', 'speed', 'peak RSS', 'vs --jobs 1', 'vs naive', 'result'],
  [
    row('importkit check --full --jobs 1', p1, p1),
    row('importkit check --full --jobs 2', p2, p1),
  ].map(withoutNaive),
);
// The same layout, five times the rows (about 1 GB, the size the other formats' --jobs rows
// read): what a thread costs to start (h5wasm's load, the file's structure) is the same, and
// weighs less against the values.
const largePath = join(dataDir(), `check-hdf5-${LARGE_ROWS}.h5`);
await generate(largePath, undefined, LARGE_ROWS);
const largeSize = statSync(largePath).size;
const [l1, l2] = oneAndTwo(largePath);
console.log(
  `\nThe same layout, ${LARGE_ROWS.toLocaleString('en')} rows (${fmtBytes(largeSize)}):\n`,
);
table(
  ['run', 'time', 'CPU', 'speed', 'peak RSS', 'vs --jobs 1', 'vs naive', 'result'],
  [
    row('importkit check --full --jobs 1', l1, l1, largeSize),
    row('importkit check --full --jobs 2', l2, l1, largeSize),
  ].map(withoutNaive),
);
await reportJobs('hdf5-jobs-large', largePath, l1, l2);
console.log(
  '\nEach row is the faster of two runs, interleaved, each in a process of its own; a second check is timed after a first one in the same process (its "vs --jobs 1" is against the second check with one job). CPU: every thread of the process, from its start (the first check too).',
);
console.log(
  'Each thread reads one slice of rows (1 MiB of values) of one dataset at a time; with 2 jobs, two HDF5 threads share ranges of rows of each dataset (aligned to its chunks).',
);
