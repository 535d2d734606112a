/**
 * A sampled TDMS check reads the first values of each channel, then the last ones from a
 * walk start the inspection noted (formats/tdms/sampled-split.ts). Whatever the file (its
 * object lists new, repeated or kept, channels coming and going, counts changing) and
 * whatever ranges are asked for, the two reads hand over the values one read hands over:
 * the same values, from the same segments, at the same indexes, in the same order.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { type SegmentSpec, tdmsBytes } from '../../scripts/fixtures/tdms-writer.js';
import { inspectTdmsSource, readTdmsValues } from '../../src/formats/tdms/inspect.js';
import type { TdmsValueRequest } from '../../src/formats/tdms/raw-segment.js';
import { sampledSplit } from '../../src/formats/tdms/sampled-split.js';
import type { WalkStart } from '../../src/formats/tdms/segments.js';
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

async function handed(
  bytes: Uint8Array,
  requests: TdmsValueRequest[],
  options: Parameters<typeof readTdmsValues>[3] = {},
): Promise<Handed[]> {
  const out: Handed[] = [];
  await readTdmsValues(
    memorySource(bytes, 'split.tdms'),
    requests,
    (r, values, at) => out.push([r, Array.from(values as Float64Array), at.segment, at.index]),
    options,
  );
  return out;
}

test('the split reads hand over what one read does', async () => {
  // Runs whose values were split in two reads: the property is not met by reading nothing.
  let splitValues = 0;
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
        const split = sampledSplit(requests, starts);
        if (!split) return;
        if (one.length > 0) splitValues += 1;
        const segmentsBefore = [1, split.start.segment] as const;
        const head = await handed(bytes, split.head, {
          segments: segmentsBefore,
          stopWhenRead: true,
        });
        const tail = await handed(bytes, split.tail, { start: split.start });
        expect(head.concat(tail)).toEqual(one);
      },
    ),
    { numRuns: 300 },
  );
  expect(splitValues).toBeGreaterThan(30);
});

test('a split is made when a start lies between the ranges, and none when every start cuts one', () => {
  const start = (segment: number, seen: number): WalkStart => ({
    segment,
    pos: segment * 100,
    objects: [{ path: 'x', seen }],
    list: [],
  });
  const sampled: TdmsValueRequest[] = [
    {
      path: 'x',
      ranges: [
        [0, 10],
        [90, 100],
      ],
    },
  ];
  const starts = [start(1, 0), start(2, 8), start(3, 40), start(4, 95)];
  // The latest start that cuts no range: segment 3 (40 values before it).
  expect(sampledSplit(sampled, starts)).toEqual({
    start: starts[2],
    head: [{ path: 'x', ranges: [[0, 10]] }],
    tail: [{ path: 'x', ranges: [[90, 100]] }],
  });
  expect(sampledSplit([{ path: 'x', ranges: [[0, 100]] }], starts)).toBeUndefined();
});
