/**
 * ENUM values of a text column are judged on their UTF-8 bytes when the decoder hands over
 * bytes and row starts (Arrow text: Parquet through parquet-wasm), and on strings otherwise
 * (hyparquet, ULog, HDF5). On any names and values, the two tally the same: names that share
 * a length, their first four bytes or a prefix, names longer than four bytes, the empty
 * name, multibyte characters, nulls.
 * ENUM keys in a typed array of numbers are looked up as numbers, in any other array (64-bit
 * integers, hyparquet's plain arrays) as bigints: the two tally the same.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import type { ChannelTally, Chunk } from '../../src/values/index.js';
import { channelJudge } from '../../src/values/index.js';

/** Short texts over a few letters, so that values and names often nearly match. */
const arbText = fc
  .array(fc.constantFrom('A', 'B', 'é', 'Z'), { maxLength: 7 })
  .map((cs) => cs.join(''));

function tally(names: string[], pieces: Array<Array<string | null>>, bytes: boolean) {
  const judge = channelJudge({
    dataType: 'CHANNEL_DATA_TYPE_ENUM',
    enumTypes: names.map((name, key) => ({ name, key })),
  });
  let base = 0;
  for (const rows of pieces) {
    const has = (i: number) => rows[i] !== null;
    const text = (i: number) => rows[i] ?? '';
    const chunk: Chunk = { length: rows.length, has, text };
    if (bytes) {
      const encoded = rows.map((r) => new TextEncoder().encode(r ?? ''));
      const offsets = new Int32Array(rows.length + 1);
      encoded.forEach((e, i) => {
        offsets[i + 1] = (offsets[i] as number) + e.length;
      });
      const all = new Uint8Array(offsets[rows.length] as number);
      encoded.forEach((e, i) => {
        all.set(e, offsets[i] as number);
      });
      chunk.utf8 = { bytes: all, offsets };
    }
    judge.tally(chunk, base);
    base += rows.length;
  }
  return judge.result;
}

const plain = (r: ChannelTally) => ({ ...r, unknown: [...r.unknown.entries()] });

test('ENUM text: bytes and strings tally the same unknown values, counts and first rows', () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(arbText, { maxLength: 6 }),
      fc.array(fc.array(fc.option(arbText, { freq: 6 }), { maxLength: 30 }), { maxLength: 4 }),
      (names, pieces) => {
        expect(plain(tally(names, pieces, true))).toEqual(plain(tally(names, pieces, false)));
      },
    ),
    { numRuns: 500 },
  );
});

test('ENUM text: a value that shares its first four bytes and length with a name is unknown', () => {
  const r = tally(['ABCDE', 'AB'], [['ABCDE', 'ABCDZ', 'AB', 'A', 'ABZ', '', null, 'ABCDE']], true);
  expect([...r.unknown.entries()]).toEqual([
    ['ABCDZ', 1],
    ['A', 1],
    ['ABZ', 1],
    ['', 1],
  ]);
  expect(r.firstUnknown).toBe(2);
});

/** Keys of any size, signed or not; values that are keys, near keys, fractions, NaN, ±inf, -0. */
const arbKey = fc.oneof(
  fc.integer({ min: 0, max: 8 }),
  fc.constantFrom(65_535, 65_536, 2 ** 31, 2 ** 32 - 1),
  fc.integer({ min: 0, max: 2 ** 32 - 1 }),
);
const arbValue = fc.oneof(
  fc.integer({ min: -2, max: 9 }),
  fc.constantFrom(65_535, 65_536, 2 ** 31, 2 ** 32 - 1, -1, -(2 ** 31), -0, 0.5, 2.25),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
);
const ARRAYS = {
  Float64Array: (v: number[]) => Float64Array.from(v),
  Float32Array: (v: number[]) => Float32Array.from(v),
  Int32Array: (v: number[]) => Int32Array.from(v),
  Uint32Array: (v: number[]) => Uint32Array.from(v),
};

test('ENUM keys: numbers and bigints tally the same unknown keys, NaN/±inf and first rows', () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.record({ key: arbKey, isSigned: fc.boolean() }), {
        maxLength: 5,
        selector: (e) => e.key,
      }),
      fc.constantFrom(...(Object.keys(ARRAYS) as Array<keyof typeof ARRAYS>)),
      fc.array(fc.array(fc.option(arbValue, { freq: 6 }), { maxLength: 30 }), { maxLength: 4 }),
      (keys, kind, pieces) => {
        const judge = () =>
          channelJudge({
            dataType: 'CHANNEL_DATA_TYPE_ENUM',
            enumTypes: keys.map((k, i) => ({ name: `n${i}`, ...k })),
          });
        const typed = judge();
        const plainArray = judge();
        let base = 0;
        for (const rows of pieces) {
          // The typed array holds what its type holds; the plain array the same numbers.
          const values = ARRAYS[kind](rows.map((v) => v ?? 0));
          const has = (i: number) => rows[i] !== null;
          typed.tally({ length: rows.length, has, numbers: values }, base);
          plainArray.tally({ length: rows.length, has, numbers: Array.from(values) }, base);
          base += rows.length;
        }
        expect(plain(typed.result)).toEqual(plain(plainArray.result));
      },
    ),
    { numRuns: 500 },
  );
});

test('ENUM keys: a signed key matches its value read as signed or unsigned', () => {
  const judge = channelJudge({
    dataType: 'CHANNEL_DATA_TYPE_ENUM',
    enumTypes: [
      { name: 'minus one', key: 2 ** 32 - 1, isSigned: true },
      { name: 'zero', key: 0 },
    ],
  });
  judge.tally({ length: 6, numbers: Float64Array.from([-1, 2 ** 32 - 1, 0, -0, 1, 0.5]) }, 0);
  expect(plain(judge.result).unknown).toEqual([
    ['1', 1],
    ['0.5', 1],
  ]);
  expect(judge.result.firstUnknown).toBe(5);
});
