/**
 * A sampled TDMS read (the check's first and last values, the preview's first rows and
 * slices) is cut into pieces that begin at walk starts the inspection noted
 * (formats/tdms/read-pieces.ts). Whatever the file (its object lists new, repeated or
 * kept, channels coming and going, counts changing, cut short) and whatever ranges are
 * asked for, the pieces hand over the values one read hands over: the same values, from
 * the same segments, at the same indexes, in the same order.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { type SegmentSpec, tdmsBytes } from '../../scripts/fixtures/tdms-writer.js';
import {
  inspectTdmsSource,
  readTdmsValues,
  readTdmsValuesInPieces,
} from '../../src/formats/tdms/inspect.js';
import type { TdmsValueRequest } from '../../src/formats/tdms/raw-segment.js';
import { readPieces } from '../../src/formats/tdms/read-pieces.js';
import type { WalkStart } from '../../src/formats/tdms/walk-starts.js';
import { memorySource } from '../../src/inspect/byte-source.js';

/** A segment: its object list new (with or without channel b, `count` values a chunk), or the one in force kept. */
const segmentArb = fc.oneof(
  fc.record({
    kind: fc.constant('new' as const),
    count: fc.integer({ min: 0, max: 40 }),
    withB: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('kept' as const), chunks: fc.integer({ min: 1, max: 3 }) }),
);

/** Sorted ranges that do not overlap, within [0, 300). */
const rangesArb = fc.uniqueArray(fc.integer({ min: 0, max: 300 }), { maxLength: 8 }).map((cuts) => {
  const sorted = [...cuts].sort((a, b) => a - b);
  const out: Array<[number, number]> = [];
  for (let i = 0; i + 1 < sorted.length; i += 2)
    out.push([sorted[i] as number, sorted[i + 1] as number]);
  return out;
});

function fileOf(
  segments: ReadonlyArray<typeof segmentArb extends fc.Arbitrary<infer T> ? T : never>,
) {
  let list: { count: number; withB: boolean } = { count: 5, withB: true };
  let v = 0;
  const specs = segments.map((s, k): SegmentSpec => {
    const isNew = k === 0 || s.kind === 'new';
    if (s.kind === 'new') list = { count: s.count, withB: s.withB };
    const chunks = s.kind === 'kept' && k > 0 ? s.chunks : 1;
    const n = list.count * chunks;
    const values = {
      'G/a': Array.from({ length: n }, () => v++),
      ...(list.withB ? { 'G/b': Array.from({ length: n }, () => -v++) } : {}),
    };
    if (!isNew) return { noMeta: true, objects: [], chunks, values };
    return {
      objects: [
        { path: ['G'] },
        { path: ['G', 'a'], data: { type: 'f64', count: list.count } },
        ...(list.withB
          ? [{ path: ['G', 'b'], data: { type: 'f64' as const, count: list.count } }]
          : []),
      ],
      values,
    };
  });
  return tdmsBytes(specs).data;
}

type Handed = [number, number[], number, number];

/** What a read hands over: request, values, segment and index of the first, in order. */
async function handed(
  bytes: Uint8Array,
  requests: TdmsValueRequest[],
  starts?: readonly WalkStart[],
): Promise<Handed[]> {
  const out: Handed[] = [];
  const source = memorySource(bytes, 'split.tdms');
  const onValues = (r: number, values: unknown, at: { segment: number; index: number }) =>
    out.push([r, Array.from(values as Float64Array), at.segment, at.index]);
  if (starts) await readTdmsValuesInPieces(source, requests, onValues, starts);
  else await readTdmsValues(source, requests, onValues);
  return out;
}

test('the pieces hand over what one read does', async () => {
  // Runs whose values were read in pieces: the property is not met by reading nothing.
  let pieced = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(segmentArb, { minLength: 1, maxLength: 30 }),
      rangesArb,
      rangesArb,
      fc.option(fc.double({ min: 0.2, max: 1, noNaN: true }), { nil: undefined }),
      async (segments, rangesA, rangesB, cut) => {
        // Cut short (a copy stopped early), the walks stop where the file does.
        const whole = fileOf(segments);
        const bytes =
          cut === undefined ? whole : whole.subarray(0, Math.floor(whole.byteLength * cut));
        const starts: WalkStart[] = [];
        const source = memorySource(bytes, 'split.tdms');
        const inspected = await inspectTdmsSource(source, undefined, { starts }).catch(
          () => undefined,
        );
        // Cut inside the first segment: not TDMS that can be read (nothing to split).
        if (!inspected) return;
        const requests: TdmsValueRequest[] = [
          { path: "/'G'/'a'", ranges: rangesA },
          { path: "/'G'/'b'", ranges: rangesB },
        ];
        const one = await handed(bytes, requests);
        if (readPieces(requests, starts).length > 1 && one.length > 0) pieced += 1;
        expect(await handed(bytes, requests, starts)).toEqual(one);
      },
    ),
    { numRuns: 300 },
  );
  expect(pieced).toBeGreaterThan(30);
});

test('pieces begin at the last start before each stretch of values wanted, and none cut a range', () => {
  const start = (segment: number, seen: number): WalkStart => ({
    segment,
    pos: segment * 100,
    objects: [{ path: 'x', seen }],
    list: [],
  });
  // A start every 10 values.
  const starts = Array.from({ length: 10 }, (_, k) => start(k + 1, 10 * k));
  const at = (pieces: ReturnType<typeof readPieces>) =>
    pieces.map((p) => [p.start?.segment ?? 1, p.to, p.requests[0]?.ranges]);
  // The first and last values: from segment 1, then from the start with 80 before it.
  expect(
    at(
      readPieces(
        [
          {
            path: 'x',
            ranges: [
              [0, 15],
              [85, 100],
            ],
          },
        ],
        starts,
      ),
    ),
  ).toEqual([
    [1, 9, [[0, 15]]],
    [9, Number.MAX_SAFE_INTEGER, [[85, 100]]],
  ]);
  // The first rows and slices (a preview): a piece begins after a stretch of 10 values (a
  // start to the next) with nothing wanted; slices closer than that go in one piece.
  const slices: Array<[number, number]> = [
    [0, 12],
    [31, 34],
    [47, 52],
    [52, 55],
    [77, 80],
  ];
  expect(at(readPieces([{ path: 'x', ranges: slices }], starts))).toEqual([
    [1, 4, [[0, 12]]],
    [
      4,
      8,
      [
        [31, 34],
        [47, 52],
        [52, 55],
      ],
    ],
    [8, Number.MAX_SAFE_INTEGER, [[77, 80]]],
  ]);
  // Every value: one piece.
  expect(readPieces([{ path: 'x', ranges: [[0, 100]] }], starts)).toHaveLength(1);
});
