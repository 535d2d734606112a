import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type RawValue, type SegmentSpec, tdmsBytes } from '../../scripts/fixtures/tdms-writer.js';
import { checkConfig } from '../../src/check/index.js';
import { inspectTdms } from '../../src/formats/tdms/inspect.js';
import type { TdmsPart } from '../../src/formats/tdms/jobs.js';
import { readTdmsPart } from '../../src/formats/tdms/values.js';
import type { WalkStart } from '../../src/formats/tdms/walk-starts.js';
import { countingSource, openFileSource } from '../../src/inspect/byte-source.js';
import type { ImportDocument } from '../../src/model/document.js';
import type { TdmsConfig } from '../../src/model/index.js';
import { blockingFileSource, readThroughTurns } from '../../src/values/ordered-pool.js';
import { ensureBuilt } from '../helpers/built.js';
import { repoRoot } from '../helpers/paths.js';
import { partInWorker } from '../helpers/threads.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-tdms-jobs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

const iso = (s: number) => new Date(Date.UTC(2024, 0, 1, 0, 0, s)).toISOString();
/** Times that go backwards and repeat; values NaN, ±inf, outside INT_32. */
const rowArb = fc.record({
  time: fc.integer({ min: 0, max: 6 }),
  speed: fc.constantFrom(0, 1.5, -2, Number.NaN, Number.POSITIVE_INFINITY),
  count: fc.constantFrom(0n, 7n, -3n, 2n ** 40n, -(2n ** 35n)),
  level: fc.constantFrom(0, 1, 0.5, Number.NaN),
});
/**
 * Segments of 0-6 rows each (a segment with none still counts as one). After the first, a
 * segment's metadata may list every object anew, repeat the list with "same as before"
 * indexes, or be left out (the list in force kept): those two hold as many values a chunk
 * as the list in force, in one to three chunks (their rows repeat the ones given).
 */
const fileArb = fc.record({
  segments: fc.array(fc.array(rowArb, { maxLength: 6 }), { minLength: 2, maxLength: 9 }),
  metas: fc.array(fc.constantFrom('new', 'same', 'none' as const), { maxLength: 9 }),
  chunks: fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: 9 }),
  interleaved: fc.boolean(),
  /** A `.tdms_index` beside the file: the inspection walks it (and notes the starts from it). */
  withIndex: fc.boolean(),
  /** The file cut short at this share of its bytes (a copy stopped early; then no index). */
  cut: fc.option(fc.double({ min: 0.3, max: 1, noNaN: true }), { nil: undefined }),
});

const DOC: ImportDocument = {
  tdmsConfig: {
    assetName: 'jobs',
    data: [
      {
        groupName: 'Log',
        channelName: 'speed',
        timeChannelName: 'Time',
        channelConfig: { name: 'speed', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' },
      },
      {
        groupName: 'Log',
        channelName: 'count',
        timeChannelName: 'Time',
        channelConfig: { name: 'count', dataType: 'CHANNEL_DATA_TYPE_INT_32' },
      },
      {
        groupName: 'Log',
        channelName: 'level',
        timeChannelName: 'Time',
        channelConfig: { name: 'level', dataType: 'CHANNEL_DATA_TYPE_INT_64' },
      },
    ],
  },
} as ImportDocument;

type FileDrawn = typeof fileArb extends fc.Arbitrary<infer T> ? T : never;
/** A file: without `metas` and `chunks`, every segment lists its objects anew, in one chunk; without `withIndex`, no index file; without `cut`, whole. */
type TdmsFile = Omit<FileDrawn, 'metas' | 'chunks' | 'withIndex' | 'cut'> &
  Partial<Pick<FileDrawn, 'metas' | 'chunks' | 'withIndex' | 'cut'>>;
type Row = TdmsFile['segments'][number][number];

/** `n` rows: the rows given, again and again (zeros when none are given). */
function repeated(rows: readonly Row[], n: number): Row[] {
  const zero: Row = { time: 0, speed: 0, count: 0n, level: 0 };
  return Array.from({ length: n }, (_, k) => rows[k % Math.max(1, rows.length)] ?? zero);
}

/** `notes`: a string channel too (contiguous segments only: interleaved strings are not laid out). */
function fileOf(f: TdmsFile, notes = false): string {
  const channels = [
    ['Time', 'timestamp'],
    ['speed', 'f64'],
    ['count', 'i64'],
    ['level', 'f32'],
    ...(notes ? ([['note', 'string']] as const) : []),
  ] as const;
  // Values a chunk in the list in force (a string's bytes differ: its list is always new).
  let count = 0;
  const specs = f.segments.map((given, i): SegmentSpec => {
    const meta = i === 0 || notes ? 'new' : (f.metas?.[i] ?? 'new');
    const chunks = meta === 'new' ? 1 : (f.chunks?.[i] ?? 1);
    if (meta === 'new') count = given.length;
    const rows = meta === 'new' ? given : repeated(given, count * chunks);
    const values = {
      'Log/Time': rows.map((r) => iso(r.time)),
      'Log/speed': rows.map((r) => r.speed),
      'Log/count': rows.map((r): RawValue => r.count),
      'Log/level': rows.map((r) => r.level),
      ...(notes ? { 'Log/note': rows.map((r) => `t${r.time}`.repeat(r.time)) } : {}),
    };
    if (meta === 'none')
      return { interleaved: f.interleaved, noMeta: true, objects: [], chunks, values };
    return {
      interleaved: f.interleaved,
      ...(meta === 'same' ? { newObjList: false, chunks } : {}),
      objects: [
        { path: ['Log'] },
        ...channels.map(([name, type]) => ({
          path: ['Log', name],
          data: meta === 'same' ? ('same' as const) : { type, count: rows.length },
        })),
      ],
      values,
    };
  });
  const path = join(dir, `f${n++}.tdms`);
  const bytes = tdmsBytes(specs);
  if (f.cut !== undefined) {
    writeFileSync(path, bytes.data.subarray(0, Math.floor(bytes.data.byteLength * f.cut)));
  } else {
    writeFileSync(path, bytes.data);
    if (f.withIndex) writeFileSync(`${path}_index`, bytes.index);
  }
  return path;
}

test('check --full finds the same, first places and all, with 1, 2, 3 or 4 jobs (ranges of segments)', async () => {
  await fc.assert(
    fc.asyncProperty(fileArb, async (f) => {
      const path = fileOf(f);
      // A file cut inside its first segment cannot be read at all: the same error, whatever the jobs.
      const outcome = (jobs: number) =>
        checkConfig(DOC, path, { full: true, jobs }).catch((e: { code?: string }) => e.code);
      const one = await outcome(1);
      for (const jobs of [2, 3, 4]) expect(await outcome(jobs)).toEqual(one);
    }),
    { numRuns: 16 },
  );
});

test('a worker reads a range of segments as this thread does', async () => {
  const t = (s: number) => ({ time: s, speed: Number.NaN, count: 2n ** 40n, level: 0.5 });
  const path = fileOf({
    segments: [[t(3), t(1)], [t(1)], [t(2), t(0)], [t(5)]],
    interleaved: false,
  });
  const profile = await inspectTdms(path);
  const input = { path, config: DOC.tdmsConfig as TdmsConfig, key: 'tdmsConfig', profile };
  const source = await openFileSource(path);
  try {
    const here = await readTdmsPart(source, input, [2, 4]);
    expect(here.reads.map((r) => [r.first, r.next])).toEqual([
      [2, 5],
      [2, 5],
      [2, 5],
      [2, 5],
    ]);
    const url = new URL('../../src/formats/tdms/worker.js', import.meta.url);
    expect(await partInWorker(url, input, [2, 4])).toEqual(here);
  } finally {
    await source.close();
  }
});

test('a part begins at the start the inspection noted before it: the segments before are not walked again', async () => {
  // 300 segments, most keeping the list in force: more than the starts kept, so they thin
  // out to every 8th segment.
  const t = (s: number) => ({
    time: s % 7,
    speed: s % 11 === 3 ? Number.NaN : s,
    count: 1n,
    level: 0,
  });
  const segments = Array.from({ length: 300 }, (_, k) => [t(2 * k), t(2 * k + 1)]);
  const metas = segments.map(
    (_, k) => (k % 50 === 0 ? 'new' : k % 3 === 0 ? 'same' : 'none') as 'new',
  );
  const path = fileOf({ segments, metas, interleaved: false });
  const starts: WalkStart[] = [];
  const profile = await inspectTdms(path, { starts });
  expect(starts.map((s) => s.segment)).toEqual(Array.from({ length: 38 }, (_, k) => 1 + 8 * k));
  const input = { path, config: DOC.tdmsConfig as TdmsConfig, key: 'tdmsConfig', profile };
  const range: [number, number] = [233, 281];
  const walked = countingSource(await openFileSource(path));
  const begun = countingSource(await openFileSource(path));
  try {
    const want = await readTdmsPart(walked, input, range);
    expect(await readTdmsPart(begun, { ...input, starts }, range)).toEqual(want);
    // Walked from the first segment, the part reads from byte 0; begun at segment 233, it
    // reads nothing before it.
    const lowest = (s: typeof walked) => Math.min(...s.log.map(([at]) => at));
    expect(lowest(walked)).toBe(0);
    const at = starts.find((s) => s.segment === 233)?.pos as number;
    expect(at).toBeGreaterThan(0);
    expect(lowest(begun)).toBe(at);
  } finally {
    await walked.close();
    await begun.close();
  }
  for (const jobs of [2, 3]) {
    expect(await checkConfig(DOC, path, { full: true, jobs })).toEqual(
      await checkConfig(DOC, path, { full: true, jobs: 1 }),
    );
  }
});

test('a file of many channels keeps fewer starts: their objects stay bounded', async () => {
  // 10,000 channels in 40 segments: each start lists every object, 65,536 objects in all
  // at most, so at most 6 starts: every 8th segment (every 4th would be 10), not all 40.
  const channels = Array.from({ length: 10_000 }, (_, c) => `c${c}`);
  const specs: SegmentSpec[] = Array.from({ length: 40 }, (_, k) =>
    k === 0
      ? {
          objects: [
            { path: ['Log'] },
            ...channels.map((c) => ({ path: ['Log', c], data: { type: 'f64', count: 1 } })),
          ],
        }
      : { noMeta: true, objects: [] },
  );
  const path = join(dir, `wide-${n++}.tdms`);
  writeFileSync(path, tdmsBytes(specs).data);
  const starts: WalkStart[] = [];
  await inspectTdms(path, { starts });
  expect(starts.map((s) => s.segment)).toEqual([1, 9, 17, 25, 33]);
  expect(starts.reduce((sum, s) => sum + s.objects.length, 0)).toBeLessThanOrEqual(1 << 16);
});

/** DOC, with the string channel read too (its chunks checked). */
const NOTES: TdmsConfig = {
  ...(DOC.tdmsConfig as TdmsConfig),
  data: [
    ...((DOC.tdmsConfig as TdmsConfig).data ?? []),
    {
      groupName: 'Log',
      channelName: 'note',
      timeChannelName: 'Time',
      channelConfig: { name: 'note', dataType: 'CHANNEL_DATA_TYPE_STRING' },
    },
  ],
} as TdmsConfig;

/** A part with each read's first rows in row order (smaller pieces find them in another order). */
function sorted(part: TdmsPart): TdmsPart {
  const reads = part.reads.map((r) => ({
    ...r,
    segments: [...r.segments].sort((a, b) => a[0] - b[0]),
  }));
  return { ...part, reads };
}

test('ranges read one after another in small blocks through two buffers that take turns (as a worker reads its parts) are the ranges read in fresh buffers', async () => {
  // Every read of the reusing source overwrites the buffer of the read before last: a view
  // of a block kept past that (metadata, strings, a tally's first places) would differ.
  const arb = fc.record({
    f: fileArb.map((f) => ({ ...f, interleaved: false, cut: undefined })),
    blockBytes: fc.integer({ min: 1, max: 96 }),
    from: fc.integer({ min: 1, max: 9 }),
    span: fc.integer({ min: 1, max: 10 }),
  });
  await fc.assert(
    fc.asyncProperty(arb, async ({ f, blockBytes, from, span }) => {
      const path = fileOf(f, true);
      const profile = await inspectTdms(path);
      const input = { path, config: NOTES, key: 'tdmsConfig', profile };
      // Two ranges one after another, as a worker reads its parts: the second range's source
      // starts on the buffers the first one left.
      const ranges: Array<[number, number]> = [
        [from, from + span],
        [1, Number.MAX_SAFE_INTEGER],
      ];
      const turns: Uint8Array[] = [];
      for (const range of ranges) {
        const fresh = await openFileSource(path);
        const reused = blockingFileSource(path, turns, 0);
        try {
          const want = sorted(await readTdmsPart(fresh, input, range));
          expect(sorted(await readTdmsPart(reused, { ...input, blockBytes }, range))).toEqual(want);
          expect(reused.reads).toBeGreaterThanOrEqual(fresh.reads);
          // As this thread reads a part beside the workers: awaited reads, the same two turns.
          const here = await readThroughTurns(
            path,
            (s) => readTdmsPart(s, { ...input, blockBytes }, range),
            0,
          );
          expect(sorted(here)).toEqual(want);
        } finally {
          await fresh.close();
          await reused.close();
        }
      }
      expect(turns.length).toBeGreaterThan(0);
    }),
    { numRuns: 40 },
  );
});

beforeAll(() => ensureBuilt('dist/src/formats/tdms/worker.js'), 300_000);

test('workers started before the inspection end with the check when no value is read', () => {
  // `check --full --jobs 2` starts its workers before it walks the metadata; a config whose
  // only channel is not in the file reads no value, and the process still ends.
  const data = fileOf({ segments: [[], []], interleaved: false });
  const config = join(dir, `missing-${n++}.yaml`);
  writeFileSync(
    config,
    [
      'tdmsConfig:',
      '  assetName: a',
      '  data:',
      '    - groupName: Log',
      '      channelName: nowhere',
      '      timeChannelName: Time',
      '      channelConfig: { name: nowhere, dataType: CHANNEL_DATA_TYPE_DOUBLE }',
      '',
    ].join('\n'),
  );
  const bin = join(repoRoot, 'bin', 'importkit.js');
  const args = ['check', config, data, '--full', '--jobs', '2', '--reporter', 'json'];
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 30_000 });
  expect(r.signal).toBeNull();
  expect(r.status).toBe(1);
  expect(r.stdout).toContain('tdms_channel_not_in_file');
}, 60_000);
