/**
 * Cold start: `importkit lint one.yaml`, `importkit infer small.csv` and `importkit check
 * one-config small.csv` (the compiled CLI from dist, a new process each time, as a
 * pre-commit hook or an editor runs it) beside `node -e 0`, the floor any Node program
 * pays. Runs alternate so that all see the same machine load; the best (least) of RUNS
 * each is the figure, the median beside it. Each command also runs once under a module
 * hook that writes down every module it loads: their number and bytes show what it loads
 * before doing work; and once more with a hook that prints its peak RSS as it exits. Goals:
 * lint ≤ 2 × node -e 0, infer ≤ 3 ×; check is reported.
 *
 * Measured (best of 10, on a shared 2-core machine at load average 4 to 6, where the ratio
 * moves by ±0.5 from run to run): before, lint 2.06 ×, infer 5.02 ×, check 4.61 × (97, 239
 * and 253 modules: infer and check built zod's schemas for the canonical key order, and
 * loaded fflate); after, lint 1.61 to 2.21 ×, infer 2.85 to 3.49 ×, check 2.81 to 2.97 ×
 * (88, 129 and 143 modules). What is left is Node's ESM loader, about 1.5 ms a module, and
 * the parsers a command needs (yaml to write the draft, papaparse to read the CSV).
 *
 * Then validation read the document's JSON Schema alone (not all eight), a plain draft was
 * written without the yaml package, and worker threads stopped loading the validator. The
 * two builds run alternately in one run (best of 15, load average 3 to 4): lint 2.01 → 1.83 ×,
 * infer 3.14 → 2.65 ×, check 3.05 → 2.75 ×; counting CommonJS modules too, 90 → 84, 202 →
 * 125 and 149 → 143 modules. A TDMS worker's start went from 2.75 to 2.06 × an empty
 * worker's (88 → 53 modules); a separate run of this bench per build still put lint at 2.09 ×
 * and infer at 3.08 × in a noisy minute: the goals hold at best only within that noise.
 *
 * Then the CLI ran from a bundle (scripts/bundle-cli.ts: dist/cli/, its workers entries of
 * it). One run of this bench each, the modules loaded one by one and then the bundle: lint
 * 1.89 → 1.57 ×, infer 2.79 → 2.33 ×, check 2.99 → 2.50 × (77 → 21, 139 → 40 and 156 → 46
 * modules). A TDMS or ULog worker's start, best of 10 alternated: 53 → 36 ms and 51 → 36
 * ms (an empty worker: 23 ms).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { dataDir, fmtBytes, runWithUsage, table } from './_measure.js';
import { reportSpeed, type SpeedKey } from './_speed.js';

const RUNS = 10;
const bin = join(import.meta.dirname, '..', '..', 'bin', 'importkit.js');

/** A typical one-file config: a CSV import of twelve channels. */
function oneConfig(): string {
  const lines = [
    'csvConfig:',
    '  assetName: rig-7',
    '  runName: bench run',
    '  firstDataRow: 2',
    '  timeColumn:',
    '    columnNumber: 1',
    '    format: TIME_FORMAT_ABSOLUTE_RFC3339',
    '  dataColumns:',
  ];
  for (let c = 0; c < 12; c++) {
    lines.push(
      `    "${c + 2}":`,
      `      name: channel_${c}`,
      `      units: ${c % 2 ? 'm/s' : 'V'}`,
      `      dataType: ${c % 4 === 0 ? 'CHANNEL_DATA_TYPE_INT_32' : 'CHANNEL_DATA_TYPE_DOUBLE'}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The data `one.yaml` reads: a time column and twelve channels, 100 rows. */
function smallCsv(): string {
  const rows = [['time', ...Array.from({ length: 12 }, (_, c) => `channel_${c}`)].join(',')];
  for (let r = 0; r < 100; r++) {
    const time = new Date(Date.UTC(2024, 2, 1) + r * 1000).toISOString();
    rows.push(
      [time, ...Array.from({ length: 12 }, (_, c) => (c % 4 === 0 ? r + c : (r + c) / 4))].join(
        ',',
      ),
    );
  }
  return `${rows.join('\n')}\n`;
}

/** Wall time of one run of a new process, in ms; throws when it fails. */
function timed(args: string[]): number {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited with ${r.status}: ${r.stderr}`);
  return ms;
}

/** A hook that appends the URL of every module loaded to the file IMPORTKIT_LOAD_TRACE names. */
const HOOK = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.IMPORTKIT_LOAD_TRACE, url + '\\n');
  return next(url, context);
}`;
/**
 * Registers HOOK, and at exit adds the CommonJS modules loaded (from require's cache), which
 * the hook does not see (the yaml package's 72 files, say).
 */
const REGISTER = `import { createRequire, register } from 'node:module';
import { appendFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOK)}`)});
process.on('exit', () => {
  for (const f of Object.keys(createRequire(process.cwd() + '/').cache))
    appendFileSync(process.env.IMPORTKIT_LOAD_TRACE, pathToFileURL(f).href + '\\n');
});`;

/** The modules one run of `args` loads (ES and CommonJS; node: built-ins aside), and their bytes on disk. */
function modulesOf(args: string[], trace: string): { count: number; bytes: number } {
  rmSync(trace, { force: true });
  const r = spawnSync(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(REGISTER)}`, ...args],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, IMPORTKIT_LOAD_TRACE: trace } },
  );
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited with ${r.status}: ${r.stderr}`);
  const files = new Set(
    readFileSync(trace, 'utf8')
      .split('\n')
      .filter((u) => u.startsWith('file:')),
  );
  let bytes = 0;
  for (const u of files) bytes += statSync(fileURLToPath(u)).size;
  return { count: files.size, bytes };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

const dir = join(dataDir(), 'startup');
mkdirSync(dir, { recursive: true });
const config = join(dir, 'one.yaml');
writeFileSync(config, oneConfig());
const csv = join(dir, 'small.csv');
writeFileSync(csv, smallCsv());

const commands: Array<{ name: string; args: string[]; goal?: number; key?: SpeedKey }> = [
  { name: 'node -e 0', args: ['-e', '0'] },
  { name: 'importkit lint one.yaml', args: [bin, 'lint', config], goal: 2, key: 'lint-cold' },
  { name: 'importkit infer small.csv', args: [bin, 'infer', csv], goal: 3, key: 'infer-cold' },
  { name: 'importkit check one.yaml small.csv', args: [bin, 'check', config, csv] },
];

// One run of each first, so that all find their files in the page cache.
for (const c of commands) timed(c.args);
const times = commands.map(() => [] as number[]);
for (let i = 0; i < RUNS; i++) {
  for (const [k, c] of commands.entries()) times[k]?.push(timed(c.args));
}
const base = Math.min(...(times[0] as number[]));
// One more run of each, with a hook that reports its peak RSS (the timed runs load none).
const peaks = commands.map((c) => runWithUsage(c.args).peakRss);
const rows = commands.map((c, k) => {
  const ms = times[k] as number[];
  const loaded = c.args[0] === bin ? modulesOf(c.args, join(dir, 'load.trace')) : undefined;
  return [
    c.name,
    Math.min(...ms).toFixed(0),
    median(ms).toFixed(0),
    (Math.min(...ms) / base).toFixed(2),
    c.goal === undefined ? '' : `≤ ${c.goal.toFixed(2)}`,
    loaded ? String(loaded.count) : '',
    loaded ? `${(loaded.bytes / 1024).toFixed(0)} KiB` : '',
    fmtBytes(peaks[k] as number),
  ];
});
rmSync(join(dir, 'load.trace'), { force: true });
console.log(
  `Best and median of ${RUNS} runs each, alternating; ${process.execPath} ${process.version}.`,
);
console.log(
  'Modules: files loaded (ES and CommonJS; node: built-ins aside), from a trace of one run.\n',
);
table(
  ['command', 'best ms', 'median ms', '× node -e 0', 'goal', 'modules', 'module bytes', 'peak RSS'],
  rows,
);
for (const [k, c] of commands.entries()) {
  if (c.goal === undefined) continue;
  const ratio = Math.min(...(times[k] as number[])) / base;
  if (c.key)
    reportSpeed({
      key: c.key,
      ours: `${Math.min(...(times[k] as number[])).toFixed(0)} ms`,
      baseline: `${base.toFixed(0)} ms`,
      ratio,
      peakRss: peaks[k] as number,
    });
  console.log(
    `${c.name}: ${ratio.toFixed(2)} × node -e 0, goal ≤ ${c.goal.toFixed(2)}: ${ratio <= c.goal ? 'met' : 'NOT met'} in this run.`,
  );
}

// A `--jobs` worker thread's start: from `new Worker` to its first message (a TDMS or ULog
// part reader posts `ready` once its modules are loaded), beside a worker that loads nothing.
// The workers as the CLI starts them: entries of its bundle (scripts/bundle-cli.ts).
const cliBundle = join(import.meta.dirname, '..', 'cli');
const workers: Array<{ name: string; url: URL; file?: string }> = [
  {
    name: 'empty worker',
    url: new URL(
      `data:text/javascript,${encodeURIComponent("import { parentPort } from 'node:worker_threads'; parentPort.postMessage({ ready: true });")}`,
    ),
  },
  ...['tdms-worker.js', 'ulog-check-worker.js'].map((f) => {
    const file = join(cliBundle, `formats-${f}`);
    return { name: `${f.split('-')[0]} worker`, url: pathToFileURL(file), file };
  }),
];

/** Ms from starting a worker to its first message. */
function workerStart(url: URL): Promise<number> {
  return new Promise((done, fail) => {
    const t = process.hrtime.bigint();
    const w = new Worker(url, { workerData: { path: csv } });
    w.once('message', () => {
      const ms = Number(process.hrtime.bigint() - t) / 1e6;
      void w.terminate().then(() => done(ms));
    });
    w.once('error', fail);
  });
}

for (const w of workers) await workerStart(w.url);
const starts = workers.map(() => [] as number[]);
for (let i = 0; i < RUNS; i++) {
  for (const [k, w] of workers.entries()) starts[k]?.push(await workerStart(w.url));
}
const empty = Math.min(...(starts[0] as number[]));
console.log(`\nWorker start: best and median of ${RUNS}, alternating, in this process.\n`);
table(
  ['worker', 'best ms', 'median ms', '× empty worker', 'modules', 'module bytes'],
  workers.map((w, k) => {
    const ms = starts[k] as number[];
    // Its modules: the entry imported in a process of its own (no parent port: it serves nothing).
    const loaded = w.file
      ? modulesOf(
          [
            '--input-type=module',
            '-e',
            `await import(${JSON.stringify(pathToFileURL(w.file).href)});`,
          ],
          join(dir, 'load.trace'),
        )
      : undefined;
    return [
      w.name,
      Math.min(...ms).toFixed(0),
      median(ms).toFixed(0),
      (Math.min(...ms) / empty).toFixed(2),
      loaded ? String(loaded.count) : '',
      loaded ? `${(loaded.bytes / 1024).toFixed(0)} KiB` : '',
    ];
  }),
);
rmSync(join(dir, 'load.trace'), { force: true });
