/**
 * `importkit check --full` on a 1 GB TDMS file (written once into bench/.data/: 150
 * segments of 100,000 rows, contiguous, a timestamp channel and 8 value channels), reading
 * every value of the channels the config names segment by segment, a block at a time,
 * beside the floor in the same run: the file's bytes read once, 1 MiB at a time, touching
 * nothing. With one job and with as many jobs as cores (ranges of segments read in worker
 * threads; the default is one job). Also the sampled check. Each runs in its own process (after one read of the
 * file, so all find it in the page cache): wall time, CPU time (user + system: steadier
 * than wall time on a shared machine) and that process's peak RSS.
 * Goal: peak RSS < 150 MB.
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
import { reportSpeed } from './_speed.js';

const SEGMENTS = 150;
const ROWS = 100_000;
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
function rawOf(k: number): Uint8Array {
  const row = 16 + CHANNELS.reduce((s, c) => s + c[2], 0);
  const raw = new Uint8Array(ROWS * row);
  const first = k * ROWS;
  const stamps = new Uint32Array(raw.buffer, 0, ROWS * 4);
  for (let i = 0; i < ROWS; i++) {
    const r = first + i;
    stamps[4 * i + 1] = (r % 1000) * 4_294_967; // fraction: r ms past the second
    stamps[4 * i + 2] = T0 + Math.floor(r / 1000);
  }
  let at = 16 * ROWS;
  for (const [, type, size] of CHANNELS) {
    const view = new DataView(raw.buffer, at);
    for (let i = 0; i < ROWS; i++) {
      const r = first + i;
      if (type === 'f64')
        view.setFloat64(i * 8, r % 5_000_011 === 3 ? Number.NaN : Math.sin(r), true);
      else if (type === 'f32') view.setFloat32(i * 4, 20 + (r % 500) / 100, true);
      else if (type === 'i64') view.setBigInt64(i * 8, BigInt(r), true);
      else if (type === 'i32') view.setInt32(i * 4, r % 7, true);
      else view.setUint8(i, r % 2);
    }
    at += ROWS * size;
  }
  return raw;
}

async function generate(path: string): Promise<void> {
  const done = `${path}.done`;
  if (existsSync(path) && existsSync(done)) return;
  rmSync(done, { force: true });
  const writer = new TdmsWriter();
  const file = await open(path, 'w');
  try {
    for (let k = 0; k < SEGMENTS; k++) {
      const seg = writer.segment(
        k === 0
          ? {
              objects: [
                { path: ['Log'] },
                { path: ['Log', 'Time'], data: { type: 'timestamp', count: ROWS } },
                ...CHANNELS.map(([name, type]) => ({
                  path: ['Log', name],
                  data: { type, count: ROWS },
                })),
              ],
            }
          : { noMeta: true, objects: [] },
      );
      const raw = rawOf(k);
      if (raw.byteLength !== seg.rawLength) throw new Error('raw data of the wrong length');
      await file.write(seg.head);
      await file.write(raw);
    }
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
const row = (label: string, r: typeof full) =>
  typeof r === 'string'
    ? [label, r, '', '', '', '', '']
    : [
        label,
        `${(r.ms / 1000).toFixed(2)} s`,
        `${(r.cpuMs / 1000).toFixed(2)} s`,
        `${(size / 1e6 / (r.ms / 1000)).toFixed(0)} MB/s`,
        typeof bytes === 'string' ? '' : `${(r.ms / bytes.ms).toFixed(1)}×`,
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
if (typeof full !== 'string' && typeof full1 !== 'string') {
  const said = (r: typeof full1) =>
    `${(r.ms / 1000).toFixed(2)} s (CPU ${(r.cpuMs / 1000).toFixed(2)} s), ${fmtBytes(r.rss)}`;
  // One-job checks, one a core, at once: what the machine gives threads that share nothing.
  const together = await bestTogether(
    availableParallelism(),
    [fileURLToPath(import.meta.url), '--run', 'full-1', path],
    full1.ms,
  );
  reportSpeed({
    key: 'tdms-jobs',
    ours: `${said(full)}, ${availableParallelism()} jobs`,
    baseline: said(full1),
    ratio: full1.ms / full.ms,
    peakRss: full.rss,
    together,
  });
}
console.log(
  'On a machine other programs keep busy, the kernel shares the CPU between autogroups (each' +
    ' terminal or service has its own), not threads: a second thread then gains little wall' +
    ' time, and the CPU times compare.',
);
