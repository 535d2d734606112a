/**
 * TDMS inference on generated files (bench/.data/, git-ignored): 1 MB, 100 MB and 1 GB of
 * raw data in 4 segments, and a 1 GB file of 100,000 segments as a logger writing in
 * small blocks leaves it (every segment repeats its object list with "same index"), read
 * with and without its `.tdms_index`, and a wide log of 5,000 channels with a value each in
 * each of 800 segments. Reported: wall time of `inferTdms` (best of several runs in this
 * process) and the bytes it read. Targets: the 1 GB file of few segments costs
 * at most 1.2x the 1 MB file and reads under 1 MB.
 *
 * The wide log, this bench built on the code before and after a segment that repeats the
 * one before stopped costing a walk of its list, its layout and its requests again (one
 * run each, back to back): 5,945 ms before, 3,101 ms after.
 *
 * The files are written by the writer of the test tooling: lead-ins and metadata at their
 * offsets, the raw data left as holes (zeros) by extending the file, since the reader skips
 * raw data by offset and never reads it.
 */
import { existsSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { type SegmentSpec, TdmsWriter } from '../scripts/fixtures/tdms-writer.js';
import { inferTdms } from '../src/formats/tdms/infer.js';
import { inspectTdms } from '../src/formats/tdms/inspect.js';
import { best, dataDir, fmtBytes, table } from './_measure.js';

const CHANNELS = 8;

function segments(total: number, count: number): SegmentSpec[] {
  const values = Math.max(1, Math.floor(total / count / CHANNELS / 8));
  const objects = (data: 'new' | 'same') =>
    Array.from({ length: CHANNELS }, (_, c) => ({
      path: ['Log', `ch${c}`],
      data: data === 'new' ? { type: 'f64', count: values } : ('same' as const),
      properties:
        data === 'new'
          ? [
              { name: 'wf_start_time', type: 'timestamp' as const, value: '2025-01-01T00:00:00Z' },
              { name: 'wf_increment', type: 'f64' as const, value: 0.001 },
              { name: 'unit_string', type: 'string' as const, value: 'V' },
            ]
          : [],
    }));
  return Array.from({ length: count }, (_, i) =>
    i === 0 ? { objects: objects('new') } : { objects: objects('same'), newObjList: false },
  );
}

/**
 * A wide log: `channels` channels with one value each in every segment, each segment
 * repeating the list with "same index" (a slow logger of many channels).
 */
function wideSegments(channels: number, count: number): SegmentSpec[] {
  const objects = (first: boolean) =>
    Array.from({ length: channels }, (_, c) => ({
      path: ['Log', `ch${c}`],
      data: first ? { type: 'f64', count: 1 } : ('same' as const),
      properties: first ? [{ name: 'wf_increment', type: 'f64' as const, value: 1 }] : [],
    }));
  return Array.from({ length: count }, (_, i) =>
    i === 0 ? { objects: objects(true) } : { objects: objects(false), newObjList: false },
  );
}

/** Writes the file (and its index) once; later runs reuse it. */
async function generate(path: string, specs: SegmentSpec[], index: boolean): Promise<void> {
  const done = `${path}.done`;
  if (existsSync(path) && existsSync(done)) return;
  rmSync(done, { force: true });
  rmSync(`${path}_index`, { force: true });
  const writer = new TdmsWriter();
  const data = await open(path, 'w');
  const idx = index ? await open(`${path}_index`, 'w') : undefined;
  let pos = 0;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const flush = async () => {
    if (idx && pendingBytes > 0) await idx.write(Buffer.concat(pending));
    pending = [];
    pendingBytes = 0;
  };
  try {
    for (const spec of specs) {
      const s = writer.segment(spec);
      await data.write(s.head, 0, s.head.byteLength, pos);
      pos += s.head.byteLength + s.rawLength;
      if (idx) {
        pending.push(s.indexHead);
        pendingBytes += s.indexHead.byteLength;
        if (pendingBytes > 1 << 20) await flush();
      }
    }
    await flush();
    await data.truncate(pos);
  } finally {
    await data.close();
    await idx?.close();
  }
  await (await open(done, 'w')).close();
}

async function run(path: string, runs: number) {
  const m = await best(runs, () => inferTdms(path));
  const profile = await inspectTdms(path);
  return {
    ms: m.ms,
    bytesRead: profile.bytesRead,
    segments: profile.segments,
    size: profile.file.size,
  };
}

const dir = dataDir();
const few = [
  { label: '1 MB', bytes: 1e6 },
  { label: '100 MB', bytes: 1e8 },
  { label: '1 GB', bytes: 1e9 },
];
const rows: Array<Array<string | number>> = [];
let base: number | undefined;
for (const f of few) {
  const path = join(dir, `tdms-${f.label.replace(' ', '')}.tdms`);
  await generate(path, segments(f.bytes, 4), false);
  const r = await run(path, 50);
  base ??= r.ms;
  rows.push([
    `${f.label}, 4 segments`,
    fmtBytes(r.size),
    r.segments,
    r.ms.toFixed(2),
    (r.ms / base).toFixed(2),
    fmtBytes(r.bytesRead),
  ]);
}
const many = join(dir, 'tdms-1GB-100k-segments.tdms');
await generate(many, segments(1e9, 100_000), true);
const indexPath = `${many}_index`;
const hidden = `${indexPath}.off`;
const withIndex = await run(many, 3);
const { rename } = await import('node:fs/promises');
await rename(indexPath, hidden);
let without: Awaited<ReturnType<typeof run>>;
try {
  without = await run(many, 3);
} finally {
  await rename(hidden, indexPath);
}
/** A row of the table: a file's measurement against the 1 MB file's. */
const rowOf = (label: string, r: Awaited<ReturnType<typeof run>>) => [
  label,
  fmtBytes(r.size),
  r.segments,
  r.ms.toFixed(0),
  (r.ms / (base ?? 1)).toFixed(0),
  fmtBytes(r.bytesRead),
];
rows.push(rowOf('1 GB, 100,000 segments, no index', without));
rows.push(rowOf('1 GB, 100,000 segments, .tdms_index', withIndex));
const wide = join(dir, 'tdms-5000-channels-800-segments.tdms');
await generate(wide, wideSegments(5_000, 800), false);
rows.push(rowOf('5,000 channels, a value each a segment', await run(wide, 2)));
table(['file', 'size', 'segments', 'infer ms (best)', 'x 1 MB', 'bytes read'], rows);
