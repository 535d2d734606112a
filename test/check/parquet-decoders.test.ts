/**
 * `check --full` reads Parquet values with parquet-wasm, straight from its memory through
 * the Arrow C data interface (formats/parquet/arrow.ts), and falls back to hyparquet for
 * files parquet-wasm refuses. On any generated table (integers of every width, floats with
 * NaN and ±inf, timestamps, plain and dictionary text, nulls anywhere, row groups of any
 * size), both decoders give the same tallies.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type DataType,
  Dictionary,
  Float32,
  Float64,
  Int8,
  Int16,
  Int32,
  Int64,
  makeData,
  makeVector,
  Table,
  TimestampNanosecond,
  tableToIPC,
  Uint8,
  Utf8,
  type Vector,
  vectorFromArray,
} from 'apache-arrow';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { scanParquetValues, type ValueChannel } from '../../src/formats/parquet/values.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-parquet-decoders-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A vector of `type` from typed `data`, null where `isNull` says. */
function column<T extends DataType>(
  type: T,
  data: ArrayLike<number> | ArrayLike<bigint>,
  isNull: boolean[],
): Vector<T> {
  const length = data.length;
  const nulls = isNull.filter(Boolean).length;
  if (nulls === 0) return makeVector(makeData({ type, length, data } as never)) as Vector<T>;
  const bitmap = new Uint8Array(Math.ceil(length / 8)).fill(0xff);
  isNull.forEach((n, r) => {
    if (n) bitmap[r >> 3] = (bitmap[r >> 3] as number) & ~(1 << (r & 7));
  });
  return makeVector(
    makeData({ type, length, data, nullBitmap: bitmap, nullCount: nulls } as never),
  ) as Vector<T>;
}

const arbRow = fc.record({
  time: fc.bigInt({ min: 1_000n, max: 1_040n }),
  big: fc.oneof(fc.bigInt({ min: -(2n ** 40n), max: 2n ** 40n }), fc.bigInt({ min: -9n, max: 9n })),
  int: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
  small: fc.integer({ min: -128, max: 127 }),
  short: fc.integer({ min: -32768, max: 32767 }),
  byte: fc.integer({ min: 0, max: 255 }),
  float: fc.oneof(
    fc.double({ min: -5, max: 5 }),
    fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 2.5),
  ),
  word: fc.constantFrom(
    'IDLE',
    'RUN',
    'STOP',
    'é',
    '',
    '2024-03-01T00:00:00Z',
    ' 2024-02-29 23:00Z',
  ),
  nulls: fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }),
});

type Row = typeof arbRow extends fc.Arbitrary<infer R> ? R : never;

function tableOf(rows: Row[]): Table {
  const n = (k: number) => rows.map((r) => r.nulls[k] === true);
  const words = ['IDLE', 'RUN', 'STOP', 'é', '', '2024-03-01T00:00:00Z', ' 2024-02-29 23:00Z'];
  const dict = new Dictionary(new Utf8(), new Int32());
  const dictData = makeData({
    type: dict,
    length: rows.length,
    data: Int32Array.from(rows, (r) => words.indexOf(r.word)),
    dictionary: vectorFromArray(words, new Utf8()),
  } as never);
  return new Table({
    time: column(
      new TimestampNanosecond(),
      BigInt64Array.from(rows, (r) => r.time),
      n(0),
    ),
    big: column(
      new Int64(),
      BigInt64Array.from(rows, (r) => r.big),
      n(1),
    ),
    int: column(
      new Int32(),
      Int32Array.from(rows, (r) => r.int),
      n(2),
    ),
    small: column(
      new Int8(),
      Int8Array.from(rows, (r) => r.small),
      n(3),
    ),
    short: column(
      new Int16(),
      Int16Array.from(rows, (r) => r.short),
      n(4),
    ),
    byte: column(
      new Uint8(),
      Uint8Array.from(rows, (r) => r.byte),
      n(5),
    ),
    float: column(
      new Float64(),
      Float64Array.from(rows, (r) => r.float),
      n(6),
    ),
    single: column(
      new Float32(),
      Float32Array.from(rows, (r) => r.float),
      n(7),
    ),
    word: vectorFromArray(
      rows.map((r, i) => (n(8)[i] ? null : r.word)),
      new Utf8(),
    ),
    state: makeVector(dictData),
  });
}

async function writeParquet(table: Table, rowGroupRows: number): Promise<Uint8Array> {
  const pw = await import('parquet-wasm');
  const props = new pw.WriterPropertiesBuilder().setMaxRowGroupSize(rowGroupRows).build();
  return pw.writeParquet(pw.Table.fromIPCStream(tableToIPC(table, 'stream')), props);
}

const ENUM = [
  { name: 'IDLE', key: 0 },
  { name: 'RUN', key: 1 },
];
const CHANNELS: ValueChannel[] = [
  { column: 'big', ptr: '/0', dataType: 'CHANNEL_DATA_TYPE_INT_32' },
  { column: 'int', ptr: '/1', dataType: 'CHANNEL_DATA_TYPE_UINT_32' },
  { column: 'small', ptr: '/2', dataType: 'CHANNEL_DATA_TYPE_ENUM', enumTypes: ENUM },
  { column: 'short', ptr: '/3', dataType: 'CHANNEL_DATA_TYPE_BOOL' },
  { column: 'byte', ptr: '/4', dataType: 'CHANNEL_DATA_TYPE_INT_32' },
  { column: 'float', ptr: '/5', dataType: 'CHANNEL_DATA_TYPE_INT_64' },
  { column: 'single', ptr: '/6', dataType: 'CHANNEL_DATA_TYPE_FLOAT' },
  { column: 'word', ptr: '/7', dataType: 'CHANNEL_DATA_TYPE_ENUM', enumTypes: ENUM },
  { column: 'state', ptr: '/8', dataType: 'CHANNEL_DATA_TYPE_ENUM', enumTypes: ENUM },
];

test('parquet-wasm and hyparquet tally the same values, whatever the table', async () => {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(arbRow, { minLength: 1, maxLength: 120 }),
      fc.integer({ min: 1, max: 50 }),
      async (rows, groupRows) => {
        const path = join(dir, `t${run++}.parquet`);
        await writeFile(path, await writeParquet(tableOf(rows), groupRows));
        const wasm = await scanParquetValues(path, 'time', CHANNELS, { decoder: 'parquet-wasm' });
        const hyp = await scanParquetValues(path, 'time', CHANNELS, { decoder: 'hyparquet' });
        expect(wasm).toEqual(hyp);
        expect(wasm.rows).toBe(rows.length);
        // A text column as the time: read as RFC 3339 alike from Arrow's bytes and from strings.
        const o = { timeFormat: 'TIME_FORMAT_ABSOLUTE_RFC3339' } as const;
        const texts = await scanParquetValues(path, 'word', [], { ...o, decoder: 'parquet-wasm' });
        expect(texts).toEqual(
          await scanParquetValues(path, 'word', [], { ...o, decoder: 'hyparquet' }),
        );
        await rm(path);
      },
    ),
    { numRuns: 25 },
  );
});

test('the tallies count what the table holds', async () => {
  const row = (over: Partial<Row>): Row => ({
    time: 1_000n,
    big: 0n,
    int: 0,
    small: 0,
    short: 0,
    byte: 0,
    float: 0,
    word: 'IDLE',
    nulls: Array(10).fill(false),
    ...over,
  });
  const rows = [
    row({}),
    row({ big: 2n ** 40n, float: Number.NaN, word: 'STOP', small: 5 }),
    row({ time: 999n, short: 2, float: 2.5, nulls: [false, false, true, ...Array(7).fill(false)] }),
  ];
  const path = join(dir, 'known.parquet');
  await writeFile(path, await writeParquet(tableOf(rows), 2));
  const t = await scanParquetValues(path, 'time', CHANNELS);
  expect(t.rows).toBe(3);
  expect(t.time).toMatchObject({ decreases: 1, firstDecrease: 3, repeats: 1, firstRepeat: 2 });
  expect(t.channels.get('big')).toMatchObject({ outside: 1, firstOutside: 2 });
  expect(t.channels.get('float')).toMatchObject({ nan: 1, outside: 1, fractions: 1 });
  expect(t.channels.get('short')).toMatchObject({ outside: 1, firstOutside: 3 });
  expect([...(t.channels.get('word')?.unknown ?? [])]).toEqual([['STOP', 1]]);
  expect([...(t.channels.get('state')?.unknown ?? [])]).toEqual([['STOP', 1]]);
  expect([...(t.channels.get('small')?.unknown ?? [])]).toEqual([['5', 1]]);
});
