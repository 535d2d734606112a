import fc from 'fast-check';
import type { SchemaElement } from 'hyparquet';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import { describe, expect, test } from 'vitest';
import { inferParquetSource } from '../../src/formats/parquet/infer.js';
import { memorySource } from '../../src/inspect/byte-source.js';
import type { ChannelDataType, TimeFormat } from '../../src/model/enums.js';

const N = 5;

interface ColumnKind {
  element: Omit<SchemaElement, 'name'>;
  dataType: ChannelDataType;
  data: (seed: number) => unknown;
}

const int = (bitWidth: number, isSigned: boolean): Omit<SchemaElement, 'name'> => ({
  type: bitWidth === 64 ? 'INT64' : 'INT32',
  logical_type: { type: 'INTEGER', bitWidth, isSigned },
});
const ints = (seed: number) => Int32Array.from({ length: N }, (_, i) => (seed + i) % 100);
const bigs = (seed: number) => BigInt64Array.from({ length: N }, (_, i) => BigInt(seed + i));

/** The types a data column can have, with the channel type each must become. */
const KINDS: ColumnKind[] = [
  {
    element: { type: 'BOOLEAN' },
    dataType: 'CHANNEL_DATA_TYPE_BOOL',
    data: () => Array.from({ length: N }, (_, i) => i % 2 === 0),
  },
  { element: int(8, true), dataType: 'CHANNEL_DATA_TYPE_INT_32', data: ints },
  { element: int(16, true), dataType: 'CHANNEL_DATA_TYPE_INT_32', data: ints },
  { element: int(32, true), dataType: 'CHANNEL_DATA_TYPE_INT_32', data: ints },
  { element: { type: 'INT32' }, dataType: 'CHANNEL_DATA_TYPE_INT_32', data: ints },
  { element: int(8, false), dataType: 'CHANNEL_DATA_TYPE_UINT_32', data: ints },
  { element: int(16, false), dataType: 'CHANNEL_DATA_TYPE_UINT_32', data: ints },
  { element: int(32, false), dataType: 'CHANNEL_DATA_TYPE_UINT_32', data: ints },
  { element: { type: 'INT64' }, dataType: 'CHANNEL_DATA_TYPE_INT_64', data: bigs },
  { element: int(64, false), dataType: 'CHANNEL_DATA_TYPE_UINT_64', data: bigs },
  {
    element: { type: 'FLOAT' },
    dataType: 'CHANNEL_DATA_TYPE_FLOAT',
    data: (s) => Float32Array.from({ length: N }, (_, i) => s + i / 2),
  },
  {
    element: { type: 'FIXED_LEN_BYTE_ARRAY', type_length: 2, logical_type: { type: 'FLOAT16' } },
    dataType: 'CHANNEL_DATA_TYPE_FLOAT',
    data: () => Array.from({ length: N }, (_, i) => i / 4),
  },
  {
    element: { type: 'DOUBLE' },
    dataType: 'CHANNEL_DATA_TYPE_DOUBLE',
    data: (s) => Float64Array.from({ length: N }, (_, i) => s / 3 + i),
  },
  {
    element: { type: 'BYTE_ARRAY', logical_type: { type: 'STRING' } },
    dataType: 'CHANNEL_DATA_TYPE_STRING',
    data: (s) => Array.from({ length: N }, (_, i) => `v${s}-${i}`),
  },
  {
    element: { type: 'BYTE_ARRAY', logical_type: { type: 'JSON' }, converted_type: 'JSON' },
    dataType: 'CHANNEL_DATA_TYPE_STRING',
    data: (s) => Array.from({ length: N }, (_, i) => ({ s, i })),
  },
  {
    element: { type: 'BYTE_ARRAY' },
    dataType: 'CHANNEL_DATA_TYPE_BYTES',
    data: (s) => Array.from({ length: N }, (_, i) => new Uint8Array([s & 255, i])),
  },
  {
    element: {
      type: 'INT32',
      logical_type: { type: 'DECIMAL', precision: 9, scale: 2 },
      converted_type: 'DECIMAL',
      precision: 9,
      scale: 2,
    },
    dataType: 'CHANNEL_DATA_TYPE_DOUBLE',
    data: (s) => Array.from({ length: N }, (_, i) => (s + i) / 100),
  },
  {
    element: { type: 'INT32', logical_type: { type: 'DATE' }, converted_type: 'DATE' },
    dataType: 'CHANNEL_DATA_TYPE_INT_64',
    data: (s) => Int32Array.from({ length: N }, (_, i) => 19000 + s + i),
  },
];

const UNITS = [
  { unit: 'MILLIS', per: 1_000n, format: 'TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS' },
  { unit: 'MICROS', per: 1_000_000n, format: 'TIME_FORMAT_ABSOLUTE_UNIX_MICROSECONDS' },
  { unit: 'NANOS', per: 1_000_000_000n, format: 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS' },
] as const;

interface TimeKind {
  element: SchemaElement;
  format: TimeFormat;
  data: unknown;
}

/** A time column of one kind, starting at `start` seconds after the epoch. */
const timeKind = fc.oneof(
  fc
    .record({
      u: fc.constantFrom(...UNITS),
      utc: fc.boolean(),
      start: fc.integer({ min: 631152000, max: 4000000000 }),
    })
    .map(
      ({ u, utc, start }): TimeKind => ({
        element: {
          name: 'recorded',
          type: 'INT64',
          logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: utc, unit: u.unit },
        },
        format: u.format,
        data: BigInt64Array.from({ length: N }, (_, i) => (BigInt(start) + BigInt(i)) * u.per),
      }),
    ),
  fc
    .record({
      u: fc.constantFrom(
        { per: 1n, format: 'TIME_FORMAT_ABSOLUTE_UNIX_SECONDS' as TimeFormat },
        ...UNITS.map((u) => ({ per: u.per, format: u.format as TimeFormat })),
      ),
      name: fc.constantFrom('time', 'ts', 'timestamp', 'epoch'),
      start: fc.integer({ min: 631152000, max: 4000000000 }),
    })
    .map(
      ({ u, name, start }): TimeKind => ({
        element: { name, type: 'INT64' },
        format: u.format,
        data: BigInt64Array.from({ length: N }, (_, i) => (BigInt(start) + BigInt(i)) * u.per),
      }),
    ),
  fc.integer({ min: 631152000, max: 4000000000 }).map(
    (start): TimeKind => ({
      element: { name: 'timestamp', type: 'BYTE_ARRAY', logical_type: { type: 'STRING' } },
      format: 'TIME_FORMAT_ABSOLUTE_RFC3339',
      data: Array.from({ length: N }, (_, i) => new Date((start + i) * 1000).toISOString()),
    }),
  ),
  fc
    .constantFrom(
      { suffix: 'ms', format: 'TIME_FORMAT_RELATIVE_MILLISECONDS' as TimeFormat },
      { suffix: 's', format: 'TIME_FORMAT_RELATIVE_SECONDS' as TimeFormat },
      { suffix: 'us', format: 'TIME_FORMAT_RELATIVE_MICROSECONDS' as TimeFormat },
    )
    .map(
      ({ suffix, format }): TimeKind => ({
        element: { name: `elapsed_${suffix}`, type: 'DOUBLE' },
        format,
        data: Float64Array.from({ length: N }, (_, i) => i * 10),
      }),
    ),
);

function write(time: TimeKind, columns: ColumnKind[], groups: number, seed: number): Uint8Array {
  const writer = new ByteWriter();
  const schema: SchemaElement[] = [
    { name: 'root', num_children: columns.length + 1 },
    { repetition_type: 'REQUIRED', ...time.element },
    ...columns.map((c, i) => ({
      repetition_type: 'REQUIRED' as const,
      ...c.element,
      name: `c${i}`,
    })),
  ];
  const pw = new ParquetWriter({ writer, schema });
  for (let g = 0; g < groups; g++) {
    pw.write({
      rowGroupSize: N,
      columnData: [
        { name: time.element.name, data: time.data as never },
        ...columns.map((c, i) => ({ name: `c${i}`, data: c.data(seed + g) as never })),
      ],
    });
  }
  pw.finish();
  return writer.getBytes();
}

describe('inference recovers the types and time format of generated files', () => {
  test('generated schemas → written files → inferred types and time format', async () => {
    await fc.assert(
      fc.asyncProperty(
        timeKind,
        fc.array(fc.constantFrom(...KINDS), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 3 }),
        fc.nat(1000),
        async (time, columns, groups, seed) => {
          const bytes = write(time, columns, groups, seed);
          const draft = await inferParquetSource(memorySource(bytes, 'gen.parquet'), {
            layout: 'flat',
            relativeStartTime: '2024-01-01T00:00:00Z',
          });
          const flat = draft.document.parquetConfig?.flatDataset;
          expect(flat?.timeColumn?.path).toBe(time.element.name);
          expect(flat?.timeColumn?.format).toBe(time.format);
          expect(flat?.dataColumns?.map((d) => [d.path, d.channelConfig?.dataType])).toEqual(
            columns.map((c, i) => [`c${i}`, c.dataType]),
          );
          const len = new DataView(bytes.buffer, bytes.byteOffset).getUint32(
            bytes.byteLength - 8,
            true,
          );
          expect(draft.document.parquetConfig?.footerLength).toBe(len);
          expect(draft.document.parquetConfig?.footerOffset).toBe(
            String(bytes.byteLength - len - 8),
          );
        },
      ),
      { numRuns: 60 },
    );
  });
});
