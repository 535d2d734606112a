/**
 * ENUM values of a text column are judged on their UTF-8 bytes when the decoder hands over
 * bytes and row starts (Arrow text: Parquet through parquet-wasm), and on strings otherwise
 * (hyparquet, ULog, HDF5). On any names and values, the two tally the same: names that share
 * a length, their first four bytes or a prefix, names longer than four bytes, the empty
 * name, multibyte characters, nulls.
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
