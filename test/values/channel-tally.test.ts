/**
 * A channel's values in a typed array are judged by shortcuts (an integer array whose type
 * holds only values the declared type holds is not looked at; floats are searched for
 * NaN/±inf alone): on any values of any array type, under any declared type, they tally
 * exactly what the look at each value of a plain array of the same values does.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import type { ChannelDataType } from '../../src/model/index.js';
import { type ChannelTally, channelJudge } from '../../src/values/index.js';

/** Each typed array a reader may hand over, made from any values (it keeps what it can hold). */
const ARRAYS = {
  Int8Array: (v: number[]) => Int8Array.from(v),
  Uint8Array: (v: number[]) => Uint8Array.from(v),
  // A Buffer is a Uint8Array, and holds what one holds.
  Buffer: (v: number[]) => Buffer.from(Uint8Array.from(v)),
  Int16Array: (v: number[]) => Int16Array.from(v),
  Uint16Array: (v: number[]) => Uint16Array.from(v),
  Int32Array: (v: number[]) => Int32Array.from(v),
  Uint32Array: (v: number[]) => Uint32Array.from(v),
  Float32Array: (v: number[]) => Float32Array.from(v),
  Float64Array: (v: number[]) => Float64Array.from(v),
  BigInt64Array: (v: number[]) =>
    BigInt64Array.from(v, (x) => (Number.isFinite(x) ? BigInt(Math.trunc(x)) : 0n) * 3n ** 33n),
  BigUint64Array: (v: number[]) =>
    BigUint64Array.from(v, (x) =>
      BigInt.asUintN(64, (Number.isFinite(x) ? BigInt(Math.trunc(x)) : 0n) * 5n ** 25n),
    ),
};

const TYPES: ChannelDataType[] = [
  'CHANNEL_DATA_TYPE_BOOL',
  'CHANNEL_DATA_TYPE_INT_32',
  'CHANNEL_DATA_TYPE_UINT_32',
  'CHANNEL_DATA_TYPE_INT_64',
  'CHANNEL_DATA_TYPE_UINT_64',
  'CHANNEL_DATA_TYPE_DOUBLE',
  'CHANNEL_DATA_TYPE_FLOAT',
];

const arbValue = fc.oneof(
  fc.integer({ min: -3, max: 3 }),
  fc.integer(),
  fc.double({ noNaN: false }),
  fc.constantFrom(2 ** 31, 2 ** 32, -(2 ** 31) - 1, 255, 256, -129, 65_536, 0.5),
);

const plain = (r: ChannelTally) => ({ ...r, unknown: [...r.unknown.entries()] });

test('channel values: a typed array and a plain one tally the same, whatever the types', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...(Object.keys(ARRAYS) as Array<keyof typeof ARRAYS>)),
      fc.constantFrom(...TYPES),
      fc.array(fc.array(fc.option(arbValue, { freq: 8 }), { maxLength: 30 }), { maxLength: 3 }),
      (kind, dataType, pieces) => {
        const typed = channelJudge({ dataType });
        const looked = channelJudge({ dataType });
        let base = 0;
        for (const rows of pieces) {
          const values = ARRAYS[kind](rows.map((v) => v ?? 0));
          const nulls = rows.some((v) => v === null);
          const has = nulls ? { has: (i: number) => rows[i] !== null } : {};
          typed.tally({ length: rows.length, numbers: values, ...has }, base);
          const list = Array.from(values as ArrayLike<number | bigint>);
          looked.tally({ length: rows.length, numbers: list as number[], ...has }, base);
          base += rows.length;
        }
        expect(plain(typed.result)).toEqual(plain(looked.result));
      },
    ),
    { numRuns: 600 },
  );
});
