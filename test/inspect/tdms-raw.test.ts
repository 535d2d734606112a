/**
 * The TDMS raw data reader's typed values (what the check judges): any layout (contiguous
 * or interleaved, little- or big-endian, several chunks and segments) gives each channel's
 * values exactly as written, in the stored type (64-bit integers exact, bool bytes as
 * stored, timestamps as ns since 1970, one part of complex values, strings), each piece
 * with the segment it is in and its index among the channel's values.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type RawValue, type SegmentSpec, tdmsBytes } from '../../scripts/fixtures/tdms-writer.js';
import { Scratch, timestampsNs, typedValues } from '../../src/formats/tdms/decode.js';
import { readTdmsSourceValues } from '../../src/formats/tdms/raw.js';
import { tdmsTimestampOf } from '../../src/formats/tdms/types.js';
import { countingSource, memorySource, sourceOf } from '../../src/inspect/byte-source.js';

/** ns since 1970 of an RFC 3339 time, exactly (the reference the fast path must meet). */
function nsOf(rfc3339: string): bigint {
  const { seconds, fraction } = tdmsTimestampOf(rfc3339);
  const nanos = (fraction * 1_000_000_000n + (1n << 63n)) >> 64n;
  return (seconds - 2_082_844_800n) * 1_000_000_000n + nanos;
}

describe('TDMS timestamps as ns', () => {
  test('property: the two 32-bit halves equal the exact bigint, little- and big-endian', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
        fc.bigInt({ min: 2_082_844_800n - 9_000_000_000n, max: 2_082_844_800n + 9_000_000_000n }),
        fc.boolean(),
        (fraction, seconds, little) => {
          const bytes = new Uint8Array(16);
          const v = new DataView(bytes.buffer);
          if (little) {
            v.setBigUint64(0, fraction, true);
            v.setBigInt64(8, seconds, true);
          } else {
            v.setBigInt64(0, seconds, false);
            v.setBigUint64(8, fraction, false);
          }
          const out = new BigInt64Array(1);
          timestampsNs(bytes, [{ start: 0, n: 1, stride: 16 }], little, out);
          const nanos = (fraction * 1_000_000_000n + (1n << 63n)) >> 64n;
          const want = (seconds - 2_082_844_800n) * 1_000_000_000n + nanos;
          // The doubles of the fraction may round a tie the other way: at most 1 ns apart.
          const diff = (out[0] as bigint) - want;
          expect(diff >= -1n && diff <= 1n).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  test('property: many times in runs (any start, stride and byte order) equal the exact bigints', () => {
    const EPOCH = 2_082_844_800n;
    // Seconds near one another (a run of one second shares its part of the sum), and at
    // and past the ends 64-bit ns hold; fractions anywhere, and at the ends of a second
    // (the largest rounds up into the next second).
    const second = fc.oneof(
      fc.bigInt({ min: EPOCH + 1_700_000_000n, max: EPOCH + 1_700_000_003n }),
      fc.constantFrom(EPOCH + 9_223_372_036n, EPOCH - 9_223_372_037n, EPOCH - 1n, EPOCH),
      fc.bigInt({ min: EPOCH - 9_300_000_000n, max: EPOCH + 9_300_000_000n }),
    );
    const fraction = fc.oneof(
      fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
      fc.constantFrom(0n, (1n << 64n) - 1n, 1n << 63n, (1n << 64n) - (1n << 33n)),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(second, fraction), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 7 }),
        fc.integer({ min: 16, max: 27 }),
        fc.boolean(),
        fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 3 }),
        (times, start, stride, little, cuts) => {
          const bytes = new Uint8Array(start + times.length * stride + 3);
          const v = new DataView(bytes.buffer);
          times.forEach(([seconds, fraction], i) => {
            const at = start + i * stride;
            v.setBigUint64(little ? at : at + 8, fraction, little);
            v.setBigInt64(little ? at + 8 : at, seconds, little);
          });
          // The values cut into runs, as a chunk's values may come in several.
          const ends = [...new Set(cuts.filter((c) => c < times.length))].sort((a, b) => a - b);
          const runs = [0, ...ends].map((from, k) => ({
            start: start + from * stride,
            n: (ends[k] ?? times.length) - from,
            stride,
          }));
          const out = new BigInt64Array(times.length);
          timestampsNs(bytes, runs, little, out);
          times.forEach(([seconds, fraction], i) => {
            const nanos = (fraction * 1_000_000_000n + (1n << 63n)) >> 64n;
            const exact = (seconds - EPOCH) * 1_000_000_000n + nanos;
            const want =
              BigInt.asIntN(64, exact) === exact
                ? exact
                : exact > 0n
                  ? 2n ** 63n - 1n
                  : -(2n ** 63n);
            const diff = (out[i] as bigint) - want;
            expect(diff >= -1n && diff <= 1n, `value ${i}: ${out[i]} against ${want}`).toBe(true);
          });
        },
      ),
      { numRuns: 400 },
    );
  });

  test('times past what 64-bit ns hold are held at the ends', () => {
    const out = new BigInt64Array(2);
    const bytes = new Uint8Array(32);
    const v = new DataView(bytes.buffer);
    v.setBigInt64(8, 2_082_844_800n + 10_000_000_000n, true);
    v.setBigInt64(24, 2_082_844_800n - 10_000_000_000n, true);
    timestampsNs(bytes, [{ start: 0, n: 2, stride: 16 }], true, out);
    expect([...out]).toEqual([2n ** 63n - 1n, -(2n ** 63n)]);
  });
});

const TYPES = ['i64', 'u64', 'bool', 'timestamp', 'complex-f64', 'f32', 'i16', 'string'] as const;

/** Value `i` of a channel of each type, as written and as the typed reader gives it. */
function written(type: (typeof TYPES)[number], i: number): RawValue {
  switch (type) {
    case 'i64':
      return -(2n ** 62n) + BigInt(i) * 3n;
    case 'u64':
      return 2n ** 63n + BigInt(i);
    case 'bool':
      return i % 3; // bytes 0, 1 and 2 as stored
    case 'timestamp':
      return new Date(Date.UTC(2024, 2, 1) + i * 7).toISOString().replace('Z', `${i % 10}Z`);
    case 'complex-f64':
      return [i, -(i + 1) / 2];
    case 'f32':
      return i / 4;
    case 'i16':
      return 100 - i;
    case 'string':
      // One length (a chunk's byte count is the same in every chunk), many texts.
      return `s${String(i).padStart(5, '0')}é`;
  }
}

function expected(type: (typeof TYPES)[number], i: number): bigint | number | string {
  const v = written(type, i);
  if (type === 'timestamp') return nsOf(v as string);
  if (type === 'complex-f64') return (v as [number, number])[1];
  return v as bigint | number | string;
}

describe('TDMS typed values', () => {
  test('property: any layout gives every channel its values, in order, with segment and index', async () => {
    const segment = fc.record({
      count: fc.integer({ min: 1, max: 6 }),
      chunks: fc.integer({ min: 1, max: 3 }),
      il: fc.boolean(),
      be: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { minLength: 1, maxLength: 4 }), async (segs) => {
        const seen = new Map<string, number>();
        const specs: SegmentSpec[] = segs.map((s) => {
          // Interleaved segments cannot hold strings.
          const types = TYPES.filter((t) => !(s.il && t === 'string'));
          const values: Record<string, RawValue[]> = {};
          for (const t of types) {
            const from = seen.get(t) ?? 0;
            const n = s.count * s.chunks;
            values[`g/${t}`] = Array.from({ length: n }, (_, i) => written(t, from + i));
            seen.set(t, from + n);
          }
          return {
            objects: types.map((t) => ({
              path: ['g', t],
              data:
                t === 'string'
                  ? { type: t, count: s.count, bytes: 0 }
                  : { type: t, count: s.count },
            })),
            interleaved: s.il,
            bigEndian: s.be,
            chunks: s.chunks,
            values,
          };
        });
        const { data } = tdmsBytes(specs);
        const got = new Map<string, Array<bigint | number | string>>();
        const segmentsSeen = new Map<string, number[]>();
        await readTdmsSourceValues(
          memorySource(data),
          TYPES.map((t) => ({
            path: `/'g'/'${t}'`,
            ranges: [[0, seen.get(t) ?? 0]],
            as: 'typed' as const,
            ...(t === 'complex-f64' ? { component: 'imaginary' as const } : {}),
          })),
          (r, values, at) => {
            const t = TYPES[r] as string;
            const list = got.get(t) ?? [];
            expect(at.index).toBe(list.length);
            list.push(...Array.from(values as ArrayLike<bigint | number | string>));
            got.set(t, list);
            segmentsSeen.set(t, [...(segmentsSeen.get(t) ?? []), at.segment]);
          },
        );
        for (const t of TYPES) {
          const n = seen.get(t) ?? 0;
          expect(got.get(t) ?? []).toEqual(Array.from({ length: n }, (_, i) => expected(t, i)));
          const order = segmentsSeen.get(t) ?? [];
          expect(order).toEqual([...order].sort((a, b) => a - b));
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe('TDMS typed values decoded into one scratch buffer', () => {
  test('property: each decode in turn reads as a new array would, whatever came before', () => {
    // Codes with their value sizes: int8 to float64, timestamps (16 bytes), complex (8, 16).
    const codes: Array<[number, number]> = [
      [0x01, 1],
      [0x02, 2],
      [0x03, 4],
      [0x04, 8],
      [0x07, 4],
      [0x09, 4],
      [0x0a, 8],
      [0x21, 1],
      [0x44, 16],
      [0x08000c, 8],
      [0x10000d, 16],
    ];
    const decode = fc.record({
      code: fc.constantFrom(...codes),
      n: fc.integer({ min: 0, max: 300 }),
      gap: fc.integer({ min: 0, max: 5 }),
      skip: fc.integer({ min: 0, max: 3 }),
      little: fc.boolean(),
      imaginary: fc.boolean(),
      seed: fc.integer({ min: 0, max: 255 }),
    });
    fc.assert(
      fc.property(fc.array(decode, { minLength: 1, maxLength: 8 }), (decodes) => {
        const scratch = new Scratch();
        for (const d of decodes) {
          const [code, size] = d.code;
          // A run that starts `skip` bytes in, its values `gap` bytes apart: never a view.
          const stride = size + d.gap;
          const bytes = Uint8Array.from(
            { length: d.skip + d.n * stride + 1 },
            (_, i) => (i * 31 + d.seed) & 0xff,
          );
          const runs = [{ start: d.skip + 1, n: d.n, stride }];
          const type = { code, size, imaginary: d.imaginary, little: d.little };
          const fresh = typedValues(bytes, runs, type);
          const reused = typedValues(bytes, runs, type, scratch);
          expect(reused.length).toBe(d.n);
          expect(Array.from(reused as ArrayLike<number | bigint>)).toEqual(
            Array.from(fresh as ArrayLike<number | bigint>),
          );
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('TDMS values of a segment cut short', () => {
  test('whole values up to the end of the file are read, as the profile counts them', async () => {
    const { data } = tdmsBytes([
      {
        objects: [
          { path: ['g', 'a'], data: { type: 'f64', count: 50 } },
          { path: ['g', 'b'], data: { type: 'i32', count: 50 } },
        ],
        chunks: 2,
        values: {
          'g/a': Array.from({ length: 100 }, (_, i) => i),
          'g/b': Array.from({ length: 100 }, (_, i) => 100 - i),
        },
      },
    ]);
    // Cut inside b's values of the second chunk, in the middle of its tenth value: a has its
    // 100 values, b 50 + 9.
    const cut = data.subarray(0, data.byteLength - 40 * 4 - 2);
    const got: number[][] = [[], []];
    await readTdmsSourceValues(
      memorySource(cut),
      [
        { path: "/'g'/'a'", ranges: [[0, 100]] },
        { path: "/'g'/'b'", ranges: [[0, 100]] },
      ],
      (r, values) => got[r]?.push(...(values as Float64Array)),
    );
    expect(got).toEqual([
      Array.from({ length: 100 }, (_, i) => i),
      Array.from({ length: 59 }, (_, i) => 100 - i),
    ]);
  });
});

describe('TDMS chunks over 1 MiB', () => {
  test('are read range by range, forward through the file, at most 1 MiB a read', async () => {
    const per = 70_000; // a chunk of 1.26 MB: doubles, integers, strings of 2 bytes
    const { data } = tdmsBytes([
      {
        objects: [
          { path: ['g', 'a'], data: { type: 'f64', count: per } },
          { path: ['g', 'b'], data: { type: 'i32', count: per } },
          { path: ['g', 's'], data: { type: 'string', count: per, bytes: 0 } },
        ],
        chunks: 2,
        values: {
          'g/a': Array.from({ length: 2 * per }, (_, i) => i / 2),
          'g/b': Array.from({ length: 2 * per }, (_, i) => i - per),
          'g/s': Array.from({ length: 2 * per }, (_, i) => `v${i % 10}`),
        },
      },
    ]);
    const source = countingSource(memorySource(data));
    const got: Array<Array<number | bigint | string>> = [[], [], []];
    await readTdmsSourceValues(
      source,
      [
        { path: "/'g'/'a'", ranges: [[0, 2 * per]], as: 'typed' },
        {
          path: "/'g'/'b'",
          ranges: [
            [0, 10],
            [2 * per - 10, 2 * per],
          ],
          as: 'typed',
        },
        { path: "/'g'/'s'", ranges: [[per - 5, per + 5]] },
      ],
      (r, values) => got[r]?.push(...Array.from(values as ArrayLike<number | string>)),
    );
    expect(got[0]).toEqual(Array.from({ length: 2 * per }, (_, i) => i / 2));
    expect(got[1]).toEqual([
      ...Array.from({ length: 10 }, (_, i) => i - per),
      ...Array.from({ length: 10 }, (_, i) => per - 10 + i),
    ]);
    expect(got[2]).toEqual(Array.from({ length: 10 }, (_, i) => `v${(per - 5 + i) % 10}`));
    const reads = source.log.slice(1); // after the lead-in with its metadata
    expect(reads.every(([at], k) => k === 0 || at >= (reads[k - 1]?.[0] ?? 0))).toBe(true);
    expect(Math.max(...reads.map(([, n]) => n))).toBeLessThanOrEqual(1024 * 1024);
  });
});

describe('TDMS segments that repeat the one before', () => {
  /** Every value of each channel, read, and the values the writer wrote there in order. */
  async function readBack(specs: SegmentSpec[], paths: string[]) {
    const fill = (key: string, _type: string, i: number) => key.charCodeAt(2) * 1000 + i;
    const { data } = tdmsBytes(specs, fill);
    const got: number[][] = paths.map(() => []);
    await readTdmsSourceValues(
      memorySource(data),
      paths.map((p) => ({ path: `/'g'/'${p}'`, ranges: [[0, 1000]] as Array<[number, number]> })),
      (r, values) => got[r]?.push(...(values as Float64Array)),
    );
    return got;
  }
  const wrote = (p: string, n: number) =>
    Array.from({ length: n }, (_, i) => p.charCodeAt(0) * 1000 + i);
  const f64 = (p: string, count: number) => ({ path: ['g', p], data: { type: 'f64', count } });

  test('the same metadata block under a new object list starts the list again', async () => {
    const specs: SegmentSpec[] = [
      { objects: [f64('a', 2), f64('b', 2)] },
      { newObjList: false, objects: [f64('c', 2)] },
      // The block of the segment before, byte for byte, but a new list: `c` alone.
      { newObjList: true, objects: [f64('c', 2)] },
      { newObjList: false, objects: [f64('c', 2)] },
    ];
    expect(await readBack(specs, ['a', 'b', 'c'])).toEqual([
      wrote('a', 4),
      wrote('b', 4),
      wrote('c', 6),
    ]);
  });

  test('segments of the same list and raw data of other lengths are laid out each by its own', async () => {
    const specs: SegmentSpec[] = [
      { objects: [f64('a', 3), f64('b', 3)] },
      { noMeta: true, objects: [], chunks: 2 },
      { noMeta: true, objects: [], chunks: 2 },
      { noMeta: true, objects: [], chunks: 1 },
      { newObjList: false, objects: [{ path: ['g', 'a'], data: 'same' }], chunks: 3 },
    ];
    expect(await readBack(specs, ['a', 'b'])).toEqual([wrote('a', 27), wrote('b', 27)]);
  });
});

describe('TDMS values read in blocks smaller than a segment', () => {
  const f64 = (p: string, count: number) => ({ path: ['g', p], data: { type: 'f64', count } });
  test('each block gives the values it holds, through a source whose reads are copies', async () => {
    const values = {
      'g/a': Array.from({ length: 12 }, (_, i) => i + 0.5),
      'g/b': Array.from({ length: 12 }, (_, i) => -i),
    };
    const { data } = tdmsBytes([
      { objects: [f64('a', 4), f64('b', 4)], chunks: 3, values },
      { noMeta: true, objects: [], chunks: 1 },
    ]);
    // A read is a copy of its bytes and no more: a value decoded past a block's end is not
    // there to be read by chance.
    const copies = sourceOf({
      name: 'copies.tdms',
      size: data.byteLength,
      readAt: async (start, n) => data.slice(start, start + n),
      close: async () => {},
    });
    for (const blockBytes of [1, 8, 40, 64, 100, 1 << 20]) {
      const got: number[][] = [[], []];
      await readTdmsSourceValues(
        copies,
        [
          { path: "/'g'/'a'", ranges: [[0, 16]] },
          { path: "/'g'/'b'", ranges: [[2, 14]] },
        ],
        (r, v) => got[r]?.push(...(v as Float64Array)),
        { blockBytes },
      );
      expect(got).toEqual([
        [...values['g/a'], 0, 0, 0, 0],
        [...values['g/b'].slice(2), 0, 0],
      ]);
    }
  });
});
