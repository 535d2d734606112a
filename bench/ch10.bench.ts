/**
 * CH10 inspection and check on generated recordings (bench/.data/, git-ignored): 512 MB
 * of 1 KiB PCM packets (a header every KiB: the walk reads the whole file in 1 MiB
 * windows) and 1 GB of 256 KiB video-like packets (the walk reads one header a packet; the
 * data is left as holes by extending the file, since it is never read). Each measurement
 * runs in its own child process (`node --expose-gc`), so its peak RSS (the kernel's
 * maxrss) is its own: `read` (the baseline: every byte read in 1 MiB reads, nothing
 * parsed), `inspect` (every packet header walked, as inspect, infer and `check --full`
 * do) and `sampled` (the check's default: the first and last MiB). Also the TMATS records
 * that claim 65,535 sources per recorder (`R-x\N`): 1 and 1,000 recorders, inspected.
 * Targets: inspect within 2x of the plain read for small packets, a few MiB read for
 * large ones, peak RSS under 150 MB for all.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ch10Packet,
  claimedSourcesBytes,
  timeBody,
  tmatsBody,
  tmatsOf,
} from '../scripts/fixtures/ch10.js';
import { dataDir, fmtBytes, MiB, table } from './_measure.js';

const HZ = 10_000_000;
const START = Date.UTC(2024, 2, 1, 12);
const CHANNELS = [
  { id: 1, name: 'IRIG-TIME', type: 'TIMIN' },
  { id: 3, name: 'PCM-MAIN', type: 'PCMIN' },
  { id: 8, name: 'VIDEO-1', type: 'VIDIN' },
];

interface FileSpec {
  label: string;
  bytes: number;
  /** Body bytes of each data packet. */
  body: number;
  /** Data type of the data packets. */
  type: number;
  channel: number;
  /** Write only the headers and extend the file over the bodies (holes). */
  holes: boolean;
}

const FILES: FileSpec[] = [
  {
    label: '512 MB, 1 KiB packets',
    bytes: 512e6,
    body: 1000,
    type: 0x09,
    channel: 3,
    holes: false,
  },
  {
    label: '1 GB, 256 KiB packets',
    bytes: 1e9,
    body: 256 * 1024,
    type: 0x40,
    channel: 8,
    holes: true,
  },
];

/** Writes the recording once (later runs reuse it): TMATS, then a time packet every 100 data packets. */
async function generate(path: string, s: FileSpec): Promise<void> {
  const done = `${path}.done`;
  if (existsSync(path) && existsSync(done)) return;
  rmSync(done, { force: true });
  const out = await open(path, 'w');
  try {
    let pos = 0;
    let pending: Uint8Array[] = [];
    let pendingAt = 0;
    let pendingBytes = 0;
    const flush = async () => {
      if (pendingBytes > 0) await out.write(Buffer.concat(pending), 0, pendingBytes, pendingAt);
      pending = [];
      pendingBytes = 0;
      pendingAt = pos;
    };
    /** A packet at the end; with holes, a data packet's header only (its body stays a hole). */
    const put = async (packet: Uint8Array, data = false) => {
      const bytes = s.holes && data ? packet.subarray(0, 24) : packet;
      if (s.holes) await out.write(bytes, 0, bytes.byteLength, pos);
      else {
        pending.push(bytes);
        pendingBytes += bytes.byteLength;
      }
      pos += packet.byteLength;
      if (pendingBytes >= 4 * MiB) await flush();
    };
    await put(ch10Packet(0, 0x01, tmatsBody(tmatsOf(CHANNELS)), { rtc: HZ }));
    const body = new Uint8Array(s.body);
    for (let k = 0; pos < s.bytes; k++) {
      const rtc = HZ + k * 10_000;
      if (k % 100 === 0) {
        await put(ch10Packet(1, 0x11, timeBody(START + k), { rtc, sequence: (k / 100) & 0xff }));
      }
      await put(ch10Packet(s.channel, s.type, body, { rtc, sequence: k & 0xff }), true);
    }
    await flush();
    await out.truncate(pos);
  } finally {
    await out.close();
  }
  writeFileSync(done, '');
}

interface ChildResult {
  ms: number;
  maxRss: number;
  bytesRead: number;
  headers?: number;
  channels?: number;
}

/** In a child: one measurement, printed as JSON. */
async function child(mode: string, path: string): Promise<void> {
  const { countingSource, openFileSource } = await import('../src/inspect/byte-source.js');
  const { inspectCh10Source } = await import('../src/formats/ch10/inspect.js');
  const { memorySource } = await import('../src/inspect/byte-source.js');
  const start = performance.now();
  let result: Omit<ChildResult, 'ms' | 'maxRss'>;
  if (mode.startsWith('claim')) {
    const bytes = claimedSourcesBytes(Number(mode.slice(5)));
    const profile = await inspectCh10Source(memorySource(bytes, 'claim.ch10'));
    result = { bytesRead: bytes.byteLength, channels: profile.channels.length };
  } else {
    const source = countingSource(await openFileSource(path));
    try {
      if (mode === 'read') {
        for (let at = 0; at < source.size; at += MiB) await source.read(at, MiB);
        result = { bytesRead: source.bytesRead };
      } else {
        const profile = await inspectCh10Source(
          source,
          mode === 'sampled' ? { sampleBytes: MiB } : {},
        );
        result = { bytesRead: source.bytesRead, headers: profile.packets.headers };
      }
    } finally {
      await source.close();
    }
  }
  const ms = performance.now() - start;
  console.log(JSON.stringify({ ...result, ms, maxRss: process.resourceUsage().maxRSS * 1024 }));
}

function measureChild(mode: string, path: string): ChildResult {
  const r = spawnSync(
    process.execPath,
    ['--expose-gc', fileURLToPath(import.meta.url), '--child', mode, path],
    { encoding: 'utf8', timeout: 600_000, maxBuffer: 1 << 20 },
  );
  if (r.status !== 0) throw new Error(`${mode}: ${(r.stderr ?? '').trim().split('\n').at(-1)}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}') as ChildResult;
}

/** Best of `n` by time, the largest peak RSS of them. */
function bestOf(n: number, mode: string, path: string): ChildResult {
  let best: ChildResult | undefined;
  for (let i = 0; i < n; i++) {
    const r = measureChild(mode, path);
    if (!best || r.ms < best.ms) best = { ...r, maxRss: Math.max(r.maxRss, best?.maxRss ?? 0) };
  }
  return best as ChildResult;
}

const row = (what: string, r: ChildResult, base: ChildResult) => [
  what,
  `${r.ms.toFixed(0)} ms`,
  `${(r.ms / base.ms).toFixed(2)}x`,
  fmtBytes(r.bytesRead),
  fmtBytes(r.maxRss),
  r.headers === undefined ? '' : String(r.headers),
];

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--child') {
    await child(args[1] ?? '', args[2] ?? '');
    return;
  }
  const rows: Array<Array<string>> = [];
  for (const s of FILES) {
    const path = join(dataDir(), `ch10-${s.label.replace(/[^a-z0-9]+/gi, '-')}.ch10`);
    await generate(path, s);
    const base = bestOf(3, 'read', path);
    rows.push(row(`${s.label}: read (baseline)`, base, base));
    rows.push(row(`${s.label}: inspect (every header)`, bestOf(3, 'inspect', path), base));
    rows.push(row(`${s.label}: check, sampled`, bestOf(3, 'sampled', path), base));
  }
  table(['file: what', 'time', '÷ read', 'bytes read', 'peak RSS', 'headers'], rows);
  const one = bestOf(3, 'claim1', '');
  const many = bestOf(3, 'claim1000', '');
  console.log('');
  table(
    ['TMATS record claiming 65,535 sources a recorder', 'time', 'peak RSS', 'channels'],
    [
      ['1 recorder', `${one.ms.toFixed(1)} ms`, fmtBytes(one.maxRss), String(one.channels)],
      [
        `1,000 recorders (${fmtBytes(many.bytesRead)})`,
        `${many.ms.toFixed(1)} ms (${(many.ms / one.ms).toFixed(1)}x)`,
        fmtBytes(many.maxRss),
        String(many.channels),
      ],
    ],
  );
}

await main();
