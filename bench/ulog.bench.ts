/**
 * ULog inference on generated logs of 100 MB and 1 GB (written once into bench/.data/,
 * streamed block by block): wall time, bytes read and peak RSS of `inspectUlog` + the
 * draft, against the reader package `@foxglove/ulog` in the same run: its `open()` (the
 * least it does before the definitions and subscriptions are available: it indexes every
 * data message) and a full decode (`open()` then every message through `readMessages()`).
 * Each measurement runs in its own child process (`node --expose-gc`), so its peak RSS
 * (the kernel's maxrss) is its own. The package's runs are capped at 8 minutes each; its
 * full decode is far slower than that, so it decodes for one minute after open() and its
 * total is estimated from that rate (stated as an estimate in the table).
 * Targets: infer on the 1 GB log in at most 2 s with peak RSS under 150 MB, also when its GPS
 * never has a fix (a third log, whose GPS messages' times are all zero).
 *
 * First, `check --full` with one job and with as many jobs as cores (ranges of messages
 * walked in worker threads; the default is one job), and the sampled check, of the 1 GB log against its own draft
 * (every channel named: the header walk, then every data message decoded), beside a baseline
 * measured in the same run: reading the file's bytes once, 1 MiB at a time (the least any
 * whole read does). Target: peak RSS under 150 MB. `ULOG_BENCH=check` runs that table only.
 *
 * The logs are PX4-like: 20 messages a round (accelerometers and gyros at 4x, attitude at
 * 2x, ESC status with 8 nested reports, battery, GPS), about 50 bytes a message on
 * average, logged text and a sync message every block.
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { body, type FormatSpec, sizeOf, UlogWriter } from '../scripts/fixtures/ulog-writer.js';
import { bestTogether, dataDir, fmtBytes, MiB, table } from './_measure.js';
import { reportSpeed } from './_speed.js';

const SIZES = [
  { label: '100 MB', file: 'ulog-100MB.ulg', bytes: 1e8, fix: true },
  { label: '1 GB', file: 'ulog-1GB.ulg', bytes: 1e9, fix: true },
  // A log whose GPS never has a fix (indoors, on a bench): the walk reads every GPS
  // message's time. The package's runs do not depend on it and are not repeated.
  { label: '1 GB, no GPS fix', file: 'ulog-1GB-no-fix.ulg', bytes: 1e9, fix: false },
];

const f = (type: string, name: string, array?: number) => ({
  type,
  name,
  ...(array ? { array } : {}),
});
const imu = (name: string): FormatSpec => ({
  name,
  fields: [
    f('uint64_t', 'timestamp'),
    f('uint32_t', 'device_id'),
    f('float', 'x'),
    f('float', 'y'),
    f('float', 'z'),
    f('float', 'temperature'),
    f('uint8_t', '_padding0', 4),
  ],
});
const FORMATS: FormatSpec[] = [
  imu('sensor_accel'),
  imu('sensor_gyro'),
  {
    name: 'vehicle_attitude',
    fields: [
      f('uint64_t', 'timestamp'),
      f('float', 'q', 4),
      f('float', 'delta_q_reset', 4),
      f('uint8_t', 'quat_reset_counter'),
      f('uint8_t', '_padding0', 7),
    ],
  },
  {
    name: 'esc_report',
    fields: [
      f('uint64_t', 'timestamp'),
      f('int32_t', 'esc_rpm'),
      f('float', 'esc_voltage'),
      f('float', 'esc_current'),
      f('uint16_t', 'failures'),
      f('int8_t', 'temperature'),
      f('uint8_t', '_padding0', 1),
    ],
  },
  {
    name: 'esc_status',
    fields: [
      f('uint64_t', 'timestamp'),
      f('uint16_t', 'counter'),
      f('uint8_t', 'esc_count'),
      f('uint8_t', '_padding0', 5),
      f('esc_report', 'esc', 8),
    ],
  },
  {
    name: 'battery_status',
    fields: [
      f('uint64_t', 'timestamp'),
      f('float', 'voltage_v'),
      f('float', 'current_a'),
      f('float', 'remaining'),
      f('bool', 'connected'),
      f('uint8_t', '_padding0', 3),
    ],
  },
  {
    name: 'vehicle_gps_position',
    fields: [
      f('uint64_t', 'timestamp'),
      f('uint64_t', 'time_utc_usec'),
      f('int32_t', 'lat'),
      f('int32_t', 'lon'),
      f('float', 'alt'),
      f('uint8_t', 'fix_type'),
      f('uint8_t', '_padding0', 3),
    ],
  },
];
/** [format, instance, messages a round]. */
const SUBS: Array<[string, number, number]> = [
  ['sensor_accel', 0, 4],
  ['sensor_accel', 1, 4],
  ['sensor_gyro', 0, 4],
  ['sensor_gyro', 1, 4],
  ['vehicle_attitude', 0, 2],
  ['esc_status', 0, 1],
  ['battery_status', 0, 1],
  ['vehicle_gps_position', 0, 1],
];
const GPS_ID = SUBS.findIndex(([n]) => n === 'vehicle_gps_position');

/**
 * One block of about 4 MiB: rounds of data messages, a log line and a sync message, timed
 * from `t0` on; answers its bytes and its last timestamp.
 */
function block(t0: bigint, fix: boolean): { bytes: Uint8Array; end: bigint } {
  const w = new UlogWriter();
  let t = t0;
  while (w.length < 4 * MiB) {
    for (const [id, [name, , perRound]] of SUBS.entries()) {
      for (let k = 0; k < perRound; k++) {
        t += 250n;
        const utc =
          id === GPS_ID && fix ? [[8, 1_714_564_800_000_000n + t] as [number, bigint]] : [];
        w.data(id, body(sizeOf(name, FORMATS), t, utc));
      }
    }
    if (w.length % 64 === 0) w.log(6, t, 'status');
  }
  w.log(6, t, 'block end').sync();
  return { bytes: w.bytes().subarray(16), end: t };
}

async function generate(path: string, bytes: number, fix = true): Promise<void> {
  const done = `${path}.done`;
  if (existsSync(path) && existsSync(done)) return;
  rmSync(done, { force: true });
  const head = new UlogWriter(1_000_000n);
  head.flagBits();
  for (const fmt of FORMATS) head.format(fmt);
  head.infoText('sys_name', 'PX4').parameter('BAT1_CAPACITY', 5000);
  for (const [id, [name, instance]] of SUBS.entries()) head.subscribe(instance, id, name);
  const out = createWriteStream(path);
  const write = (b: Uint8Array) =>
    new Promise<void>((res, rej) => out.write(b, (e) => (e ? rej(e) : res())));
  await write(head.bytes());
  let written = head.length;
  let t = 2_000_000n;
  while (written < bytes) {
    // Each block goes on from the last one's time: time never runs back in the log.
    const { bytes: b, end } = block(t, fix);
    t = end + 250n;
    await write(b);
    written += b.byteLength;
  }
  await new Promise<void>((res) => out.end(res));
  writeFileSync(done, '');
}

/** How long the full-decode baseline decodes before its total time is estimated. */
const DECODE_BUDGET_MS = 60_000;

interface ChildResult {
  /** Wall time; for the full decode, open() plus the estimated time to decode every message. */
  ms: number;
  /** The checks: CPU time (user + system, every thread) of the check itself. */
  cpuMs?: number;
  /** Messages in the log (the package's count). */
  total?: number;
  maxRss: number;
  bytesRead?: number;
  messages?: number;
  channels?: number;
  /** For the checks: the issue codes they reported, each with its count. */
  codes?: string;
}

/** `code ×n` for each code, in first-seen order; `no issue` when there is none. */
function codeCounts(codes: string[]): string {
  const n = new Map<string, number>();
  for (const c of codes) n.set(c, (n.get(c) ?? 0) + 1);
  return [...n].map(([c, k]) => (k > 1 ? `${c} ×${k}` : c)).join(', ') || 'no issue';
}

/** In a child: one measurement, printed as JSON. */
async function child(mode: string, path: string): Promise<void> {
  const start = performance.now();
  let result: ChildResult;
  if (mode === 'check-full' || mode === 'check-full-1' || mode === 'check') {
    const { inspectUlog } = await import('../src/formats/ulog/inspect.js');
    const { draftFromUlogProfile } = await import('../src/formats/ulog/infer.js');
    const { checkConfig } = await import('../src/check/index.js');
    const draft = draftFromUlogProfile(await inspectUlog(path));
    const from = performance.now();
    const cpu = process.cpuUsage();
    const full = mode !== 'check';
    const jobs = { jobs: mode === 'check-full-1' ? 1 : availableParallelism() };
    const issues = await checkConfig(draft.document, path, { full, ...jobs });
    const used = process.cpuUsage(cpu);
    result = {
      ms: performance.now() - from,
      cpuMs: (used.user + used.system) / 1000,
      maxRss: process.resourceUsage().maxRSS * 1024,
      channels: draft.document.ulogConfig?.data?.length ?? 0,
      codes: codeCounts(issues.map((i) => i.code)),
    };
  } else if (mode === 'raw') {
    const { open } = await import('node:fs/promises');
    const handle = await open(path);
    const buf = Buffer.alloc(MiB);
    let bytes = 0;
    try {
      for (;;) {
        const { bytesRead } = await handle.read(buf, 0, MiB, bytes);
        if (bytesRead === 0) break;
        bytes += bytesRead;
      }
    } finally {
      await handle.close();
    }
    result = {
      ms: performance.now() - start,
      maxRss: process.resourceUsage().maxRSS * 1024,
      bytesRead: bytes,
    };
  } else if (mode === 'ours') {
    const { inspectUlog } = await import('../src/formats/ulog/inspect.js');
    const { draftFromUlogProfile } = await import('../src/formats/ulog/infer.js');
    const profile = await inspectUlog(path);
    const draft = draftFromUlogProfile(profile);
    result = {
      ms: performance.now() - start,
      maxRss: process.resourceUsage().maxRSS * 1024,
      bytesRead: profile.bytesRead,
      messages: profile.counts.messages,
      channels: draft.document.ulogConfig?.data?.length ?? 0,
    };
  } else {
    const { ULog } = await import('@foxglove/ulog');
    const { FileReader } = await import('@foxglove/ulog/node.js');
    const log = new ULog(new FileReader(path));
    await log.open();
    const total = log.messageCount() ?? 0;
    let messages = total;
    let ms = performance.now() - start;
    if (mode === 'decode') {
      // Decoding every message takes far longer than the cap on these logs: decode for
      // DECODE_BUDGET_MS after open(), then estimate the whole from the rate.
      messages = 0;
      const from = performance.now();
      for await (const _ of log.readMessages()) {
        messages += 1;
        if (performance.now() - from > DECODE_BUDGET_MS) break;
      }
      const rate = messages / (performance.now() - from);
      ms = performance.now() - start + (total - messages) / rate;
    }
    result = { ms, maxRss: process.resourceUsage().maxRSS * 1024, messages, total };
  }
  console.log(JSON.stringify(result));
}

function measureChild(mode: string, path: string): ChildResult | string {
  const r = spawnSync(
    process.execPath,
    [
      '--expose-gc',
      '--max-old-space-size=12000',
      fileURLToPath(import.meta.url),
      '--child',
      mode,
      path,
    ],
    { encoding: 'utf8', timeout: 480_000, maxBuffer: 1 << 20 },
  );
  if (r.status !== 0) {
    const why = r.signal === 'SIGTERM' ? 'over 8 min' : (r.signal ?? r.status);
    return `failed (${why}: ${(r.stderr ?? '').trim().split('\n').at(-1) ?? ''})`;
  }
  return JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}') as ChildResult;
}

function bestOf(n: number, mode: string, path: string): ChildResult | string {
  let best: ChildResult | string | undefined;
  for (let i = 0; i < n; i++) {
    const r = measureChild(mode, path);
    if (typeof r === 'string') return r;
    if (!best || typeof best === 'string' || r.ms < best.ms) {
      best = typeof best === 'object' ? { ...r, maxRss: Math.max(r.maxRss, best.maxRss) } : r;
    }
  }
  return best ?? 'not run';
}

const cell = (r: ChildResult | string, pick: (x: ChildResult) => string) =>
  typeof r === 'string' ? r : pick(r);

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--child') {
    await child(args[1] ?? '', args[2] ?? '');
    return;
  }
  await checkTable();
  if (process.env.ULOG_BENCH === 'check') return;
  const rows: Array<Array<string | number>> = [];
  for (const s of SIZES) {
    const path = join(dataDir(), s.file);
    await generate(path, s.bytes, s.fix);
    const ours = bestOf(3, 'ours', path);
    const open = s.fix ? measureChild('open', path) : 'as the 1 GB log';
    const decode = s.fix ? measureChild('decode', path) : 'as the 1 GB log';
    const ratio =
      typeof ours === 'object' && typeof decode === 'object'
        ? `${(decode.ms / ours.ms).toFixed(1)}x`
        : '-';
    rows.push([
      s.label,
      cell(ours, (r) => `${r.ms.toFixed(0)} ms`),
      cell(ours, (r) => fmtBytes(r.bytesRead ?? 0)),
      cell(ours, (r) => fmtBytes(r.maxRss)),
      cell(ours, (r) => `${r.messages} msgs, ${r.channels} channels`),
      cell(open, (r) => `${(r.ms / 1000).toFixed(1)} s, ${fmtBytes(r.maxRss)}`),
      cell(
        decode,
        (r) =>
          `~${(r.ms / 1000).toFixed(0)} s (est.: ${r.messages} of ${r.total} msgs decoded in ${DECODE_BUDGET_MS / 1000} s), ${fmtBytes(r.maxRss)}`,
      ),
      ratio,
    ]);
  }
  table(
    [
      'log',
      'ours: infer',
      'bytes read',
      'peak RSS',
      'walked',
      '@foxglove/ulog open()',
      '@foxglove/ulog open() + full decode',
      'decode ÷ ours',
    ],
    rows,
  );
  console.log('\nTargets: 1 GB infer ≤ 2 s, peak RSS < 150 MB.');
}

/** check --full and sampled on the 1 GB log beside reading its bytes once, in the same run. */
async function checkTable(): Promise<void> {
  const s = SIZES[1] as (typeof SIZES)[number];
  const path = join(dataDir(), s.file);
  await generate(path, s.bytes);
  const raw = measureChild('raw', path);
  // One job and all jobs twice, in mirrored order, the faster of each kept.
  const faster = (a: ChildResult | string, b: ChildResult | string) =>
    typeof a === 'string' ? b : typeof b === 'string' || a.ms <= b.ms ? a : b;
  let full1 = measureChild('check-full-1', path);
  let full = measureChild('check-full', path);
  full = faster(full, measureChild('check-full', path));
  full1 = faster(full1, measureChild('check-full-1', path));
  const sampled = measureChild('check', path);
  const ratio = (a: ChildResult | string, b: ChildResult | string) =>
    typeof a === 'object' && typeof b === 'object' ? `${(a.ms / b.ms).toFixed(1)}x` : '-';
  const checked = (r: ChildResult) =>
    `${(r.ms / 1000).toFixed(1)} s (CPU ${((r.cpuMs ?? 0) / 1000).toFixed(1)} s), ${fmtBytes(r.maxRss)} (${r.channels} channels; ${r.codes})`;
  table(
    [
      'log',
      'read its bytes once',
      'check --full --jobs 1',
      `check --full --jobs ${availableParallelism()}`,
      'check (sampled)',
      `--full ÷ read: jobs 1, ${availableParallelism()}`,
      `jobs 1 ÷ jobs ${availableParallelism()}`,
    ],
    [
      [
        s.label,
        cell(raw, (r) => `${(r.ms / 1000).toFixed(1)} s, ${fmtBytes(r.maxRss)}`),
        cell(full1, checked),
        cell(full, checked),
        cell(sampled, (r) => `${(r.ms / 1000).toFixed(1)} s, ${fmtBytes(r.maxRss)} (${r.codes})`),
        `${ratio(full1, raw)}, ${ratio(full, raw)}`,
        ratio(full1, full),
      ],
    ],
  );
  if (typeof full === 'object' && typeof full1 === 'object') {
    // One-job checks, one a core, at once: what the machine gives threads that share nothing.
    const self = fileURLToPath(import.meta.url);
    const together = await bestTogether(
      availableParallelism(),
      ['--max-old-space-size=12000', self, '--child', 'check-full-1', path],
      full1.ms,
    );
    reportSpeed({
      key: 'ulog-jobs',
      ours: `${checked(full).replace(/ \(\d+ channels.*$/, '')}, ${availableParallelism()} jobs`,
      baseline: checked(full1).replace(/ \(\d+ channels.*$/, ''),
      ratio: full1.ms / full.ms,
      peakRss: full.maxRss,
      together,
    });
  }
  console.log(
    '\nTargets: check --full peak RSS under 150 MB; jobs 1 ÷ jobs 2 ≥ 1.6x on 2 cores.' +
      '\nOn a machine other programs keep busy, the kernel shares the CPU between autogroups' +
      ' (each terminal or service has its own), not threads: a second thread then gains' +
      ' little wall time, and the CPU times compare.\n',
  );
}

await main();
