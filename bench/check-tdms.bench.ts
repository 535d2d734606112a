/**
 * `importkit check --full` on a 1 GB TDMS file (written once into bench/.data/: 150
 * segments of 100,000 rows, contiguous, a timestamp channel and 8 value channels), reading
 * every value of the channels the config names segment by segment, a block at a time,
 * beside the floor in the same run: the file's bytes read once, 1 MiB at a time, touching
 * nothing. With one job and with as many jobs as cores (ranges of segments read in worker
 * threads; the default is one job). Also the sampled check. Each runs in its own process (after one read of the
 * file, so all find it in the page cache): wall time, CPU time (user + system: steadier
 * than wall time on a shared machine) and that process's peak RSS. Then one job and every
 * core on two more files (FILES): four times the segments (3.9 GB), and the 1 GB file's
 * rows in 100,000 small segments. Each speed-up beside what one-job checks, one a core,
 * did at once.
 * Goal: peak RSS < 150 MB; ≥ 1.6× with 2 jobs on 2 cores.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TdmsWriter } from '../scripts/fixtures/tdms-writer.js';
import { checkConfig } from '../src/check/index.js';
import type { ImportDocument } from '../src/model/document.js';
import { bestTogether, dataDir, fmtBytes, MiB, table } from './_measure.js';
import { reportSpeed, type SpeedKey } from './_speed.js';

const SEGMENTS = 150;
const ROWS = 100_000;
/**
 * The other files: the same rows in four times as many segments of as many rows (3.9 GB:
 * what a thread costs to start weighs less), and the rows of the 1 GB file in 100,000
 * segments of 150 rows (a logger writing small blocks; each segment but the first keeps
 * the object list in force).
 */
const FILES = [
  { name: 'check-tdms-4GB.tdms', segments: 4 * SEGMENTS, rows: ROWS, key: 'tdms-jobs-large' },
  {
    name: 'check-tdms-100k-segments.tdms',
    segments: 100_000,
    rows: 150,
    key: 'tdms-jobs-segments',
  },
] as const;
/** Channels after the timestamp: name, TDMS type, bytes, declared type. */
const CHANNELS: Array<[string, string, number, string]> = [
  ['speed', 'f64', 8, 'CHANNEL_DATA_TYPE_DOUBLE'],
  ['torque', 'f64', 8, 'CHANNEL_DATA_TYPE_DOUBLE'],
  ['pressure', 'f64', 8, 'CHANNEL_DATA_TYPE_DOUBLE'],
  ['flow', 'f64', 8, 'CHANNEL_DATA_TYPE_DOUBLE'],
  ['temperature', 'f32', 4, 'CHANNEL_DATA_TYPE_FLOAT'],
  ['count', 'i64', 8, 'CHANNEL_DATA_TYPE_INT_64'],
  ['state', 'i32', 4, 'CHANNEL_DATA_TYPE_INT_32'],
  ['valid', 'bool', 1, 'CHANNEL_DATA_TYPE_BOOL'],
];
const T0 = 3_800_000_000; // seconds since 1904 (2024)

/** One segment's raw data: the timestamps, then each channel's values. */
function rawOf(k: number, rows = ROWS): Uint8Array {
  const row = 16 + CHANNELS.reduce((s, c) => s + c[2], 0);
  const raw = new Uint8Array(rows * row);
  const first = k * rows;
  const stamps = new Uint32Array(raw.buffer, 0, rows * 4);
  for (let i = 0; i < rows; i++) {
    const r = first + i;
    stamps[4 * i + 1] = (r % 1000) * 4_294_967; // fraction: r ms past the second
    stamps[4 * i + 2] = T0 + Math.floor(r / 1000);
  }
  let at = 16 * rows;
  for (const [, type, size] of CHANNELS) {
    const view = new DataView(raw.buffer, at);
    for (let i = 0; i < rows; i++) {
      const r = first + i;
      if (type === 'f64')
        view.setFloat64(i * 8, r % 5_000_011 === 3 ? Number.NaN : Math.sin(r), true);
      else if (type === 'f32') view.setFloat32(i * 4, 20 + (r % 500) / 100, true);
      else if (type === 'i64') view.setBigInt64(i * 8, BigInt(r), true);
      else if (type === 'i32') view.setInt32(i * 4, r % 7, true);
      else view.setUint8(i, r % 2);
    }
    at += rows * size;
  }
  return raw;
}

async function generate(path: string, segments = SEGMENTS, rows = ROWS): Promise<void> {
  const done = `${path}.done`;
  if (existsSync(path) && existsSync(done)) return;
  rmSync(done, { force: true });
  const writer = new TdmsWriter();
  const file = await open(path, 'w');
  const pending: Uint8Array[] = [];
  let held = 0;
  try {
    for (let k = 0; k < segments; k++) {
      const seg = writer.segment(
        k === 0
          ? {
              objects: [
                { path: ['Log'] },
                { path: ['Log', 'Time'], data: { type: 'timestamp', count: rows } },
                ...CHANNELS.map(([name, type]) => ({
                  path: ['Log', name],
                  data: { type, count: rows },
                })),
              ],
            }
          : { noMeta: true, objects: [] },
      );
      const raw = rawOf(k, rows);
      if (raw.byteLength !== seg.rawLength) throw new Error('raw data of the wrong length');
      pending.push(seg.head, raw);
      held += seg.head.byteLength + raw.byteLength;
      // Small segments written a few MiB at a time.
      if (held >= 8 * MiB) {
        await file.writev(pending.splice(0));
        held = 0;
      }
    }
    await file.writev(pending);
  } finally {
    await file.close();
  }
  writeFileSync(done, '');
}

const DOC = {
  tdmsConfig: {
    assetName: 'bench',
    data: CHANNELS.map(([name, , , dataType]) => ({
      groupName: 'Log',
      channelName: name,
      timeChannelName: 'Time',
      channelConfig: { name: `Log.${name}`, dataType },
    })),
  },
} as ImportDocument;

async function check(path: string, full: boolean, jobs?: number): Promise<string> {
  const issues = await checkConfig(DOC, path, { full, ...(jobs ? { jobs } : {}) });
  return issues.map((i) => `${i.code}: ${i.message}`).join('; ') || 'no issue';
}

/** The floor: every byte of the file read once, 1 MiB at a time. */
async function readBytes(path: string): Promise<string> {
  const file = await open(path, 'r');
  const buf = Buffer.alloc(MiB);
  let total = 0;
  try {
    for (;;) {
      const { bytesRead } = await file.read(buf, 0, MiB, total);
      if (bytesRead === 0) break;
      total += bytesRead;
    }
  } finally {
    await file.close();
  }
  return `${fmtBytes(total)} read`;
}

const RUNS: Record<string, (path: string) => Promise<string>> = {
  full: (p) => check(p, true, availableParallelism()),
  'full-1': (p) => check(p, true, 1),
  sampled: (p) => check(p, false),
  bytes: readBytes,
};

/** Runs one measurement in a new process: its wall time and its peak RSS. */
function child(
  name: string,
  path: string,
): { ms: number; cpuMs: number; rss: number; note: string } | string {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--run', name, path], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 1_200_000,
  });
  if (r.status !== 0) return `failed (${r.signal ?? r.status})`;
  return JSON.parse(r.stdout.trim().split('\n').at(-1) as string);
}

if (process.argv[2] === '--run') {
  const run = RUNS[process.argv[3] as string] as (path: string) => Promise<string>;
  const start = performance.now();
  const cpu = process.cpuUsage();
  const note = await run(process.argv[4] as string);
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  console.log(JSON.stringify({ ms, cpuMs, rss: process.resourceUsage().maxRSS * 1024, note }));
  process.exit(0);
}

const path = join(dataDir(), 'check-tdms-1GB.tdms');
await generate(path);
const size = statSync(path).size;
child('bytes', path); // into the page cache
const bytes = child('bytes', path);
/** The faster of two runs (a failed one loses). */
const faster = (a: ReturnType<typeof child>, b: ReturnType<typeof child>) =>
  typeof a === 'string' ? b : typeof b === 'string' || a.ms <= b.ms ? a : b;
// One job and all jobs twice, in mirrored order, the faster of each kept: a burst of other
// work on the machine weighs on both alike.
let full1 = child('full-1', path);
let full = child('full', path);
full = faster(full, child('full', path));
full1 = faster(full1, child('full-1', path));
const sampled = child('sampled', path);
/** A table row: `fileBytes` the size of the file read, `floor` its bytes read once. */
const row = (label: string, r: typeof full, fileBytes = size, floor = bytes) =>
  typeof r === 'string'
    ? [label, r, '', '', '', '', '']
    : [
        label,
        `${(r.ms / 1000).toFixed(2)} s`,
        `${(r.cpuMs / 1000).toFixed(2)} s`,
        `${(fileBytes / 1e6 / (r.ms / 1000)).toFixed(0)} MB/s`,
        typeof floor === 'string' ? '' : `${(r.ms / floor.ms).toFixed(1)}×`,
        `${(r.rss / MiB).toFixed(0)} MiB`,
        r.note.length > 120 ? `${r.note.slice(0, 117)}...` : r.note,
      ];
console.log(
  `File: ${fmtBytes(size)}, ${SEGMENTS} segments of ${ROWS.toLocaleString('en')} rows (a timestamp and ${CHANNELS.length} channels).\n`,
);
table(
  ['run', 'time', 'CPU', 'speed', 'x bytes read once', 'peak RSS', 'result'],
  [
    row('check --full --jobs 1', full1),
    row(`check --full --jobs ${availableParallelism()}`, full),
    row('check (sampled)', sampled),
    row('the bytes read once (1 MiB reads)', bytes),
  ],
);
const speedup =
  typeof full === 'string' || typeof full1 === 'string' ? '-' : (full1.ms / full.ms).toFixed(2);
console.log(
  `\ncheck --full, jobs 1 ÷ jobs ${availableParallelism()}: ${speedup}× (goal ≥ 1.6× on 2 cores).`,
);
console.log('Goal: check --full peak RSS < 150 MB.');
await reportJobs('tdms-jobs', path, full1, full);

/**
 * Reports the speed-up of `full` (every core) over `full1` (one job) on `file`, beside what
 * the machine gives one-job checks, one a core, at once (threads that share nothing).
 */
async function reportJobs(
  key: SpeedKey,
  file: string,
  one: ReturnType<typeof child>,
  all: ReturnType<typeof child>,
): Promise<void> {
  if (typeof one === 'string' || typeof all === 'string') return;
  const said = (r: typeof one) =>
    `${(r.ms / 1000).toFixed(2)} s (CPU ${(r.cpuMs / 1000).toFixed(2)} s), ${fmtBytes(r.rss)}`;
  const together = await bestTogether(
    availableParallelism(),
    [fileURLToPath(import.meta.url), '--run', 'full-1', file],
    one.ms,
  );
  reportSpeed({
    key,
    ours: `${said(all)}, ${availableParallelism()} jobs`,
    baseline: said(one),
    ratio: one.ms / all.ms,
    peakRss: all.rss,
    together,
  });
}

for (const f of FILES) {
  const large = join(dataDir(), f.name);
  await generate(large, f.segments, f.rows);
  child('bytes', large); // into the page cache
  const floor = child('bytes', large);
  const largeSize = statSync(large).size;
  let one = child('full-1', large);
  let all = child('full', large);
  all = faster(all, child('full', large));
  one = faster(one, child('full-1', large));
  console.log(
    `\n${fmtBytes(largeSize)}, ${f.segments.toLocaleString('en')} segments of ${f.rows.toLocaleString('en')} rows:\n`,
  );
  table(
    ['run', 'time', 'CPU', 'speed', 'x bytes read once', 'peak RSS', 'result'],
    [
      row('check --full --jobs 1', one, largeSize, floor),
      row(`check --full --jobs ${availableParallelism()}`, all, largeSize, floor),
      row('the bytes read once (1 MiB reads)', floor, largeSize, floor),
    ],
  );
  await reportJobs(f.key, large, one, all);
}
console.log(
  'On a machine other programs keep busy, the kernel shares the CPU between autogroups (each' +
    ' terminal or service has its own), not threads: a second thread then gains little wall' +
    ' time, and the CPU times compare.',
);
