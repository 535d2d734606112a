import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileWriter, ParquetWriter, parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { inferParquetSource } from '../../src/formats/parquet/infer.js';
import { countingSource, memorySource, openFileSource } from '../../src/inspect/byte-source.js';

/**
 * A real Parquet file with a 200 MB data section: four row groups of 50 rows, each row a
 * time, a channel name (dictionary-encoded), a value and a 1 MiB `frame` (a BYTE_ARRAY,
 * like camera frames). Written in ~0.3 s because the frames are one buffer copied.
 */
let dir: string;
let file: string;
const ROWS = 50;
const GROUPS = 4;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pq-big-'));
  file = join(dir, 'frames.parquet');
  const frame = new Uint8Array(1 << 20).fill(7);
  const writer = new ParquetWriter({
    writer: fileWriter(file),
    codec: 'UNCOMPRESSED',
    schema: [
      { name: 'root', num_children: 4 },
      {
        name: 'timestamp',
        type: 'INT64',
        repetition_type: 'REQUIRED',
        logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'NANOS' },
      },
      {
        name: 'channel',
        type: 'BYTE_ARRAY',
        repetition_type: 'REQUIRED',
        converted_type: 'UTF8',
        logical_type: { type: 'STRING' },
      },
      { name: 'value', type: 'DOUBLE', repetition_type: 'REQUIRED' },
      { name: 'frame', type: 'BYTE_ARRAY', repetition_type: 'REQUIRED' },
    ],
  });
  for (let g = 0; g < GROUPS; g++) {
    writer.write({
      rowGroupSize: ROWS,
      columnData: [
        {
          name: 'timestamp',
          data: BigInt64Array.from(
            { length: ROWS },
            (_, i) => 1_700_000_000_000_000_000n + BigInt(g * ROWS + i) * 1_000_000n,
          ),
        },
        { name: 'channel', data: Array.from({ length: ROWS }, (_, i) => ['rpm', 'speed'][i % 2]) },
        { name: 'value', data: Float64Array.from({ length: ROWS }, (_, i) => i / 3) },
        {
          name: 'frame',
          data: Array.from({ length: ROWS }, () => frame),
          encoding: 'PLAIN',
          statistics: false,
        },
      ],
    });
  }
  writer.finish();
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('inferring a file with a 200 MB data section reads only its tail', () => {
  test('footer plus the channel-name column dictionary page, nothing else', async () => {
    const size = statSync(file).size;
    expect(size).toBeGreaterThan(200 * 1024 * 1024);
    const source = countingSource(await openFileSource(file));
    const draft = await inferParquetSource(source, { assetName: 'frames' });
    await source.close();
    const config = draft.document.parquetConfig;
    expect(config?.singleChannelPerRow).toEqual({
      timeColumn: { path: 'timestamp', format: 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS' },
      multiChannel: { namePath: 'channel', dataPath: 'value' },
      columns: [
        { path: 'frame', columnConfig: { name: 'frame', dataType: 'CHANNEL_DATA_TYPE_BYTES' } },
      ],
    });
    const footerLength = config?.footerLength ?? 0;
    expect(config?.footerOffset).toBe(String(size - footerLength - 8));
    // Reads: last 8 bytes, first 4, the footer, then one page of `channel` (in row group 0).
    expect(source.reads).toBe(4);
    const [tail, head, footer, page] = source.log;
    expect(tail).toEqual([size - 8, 8]);
    expect(head).toEqual([0, 4]);
    expect(footer).toEqual([size - 8 - footerLength, footerLength]);
    expect(page?.[0]).toBeLessThan(1024 * 1024 * 2);
    expect(page?.[1]).toBeLessThanOrEqual(64 * 1024);
    expect(source.bytesRead).toBeLessThan(footerLength + 12 + 64 * 1024);
    expect(draft.evidence.find((e) => e.path.endsWith('/multiChannel'))?.reason).toBe(
      '2 channel names in channel (dictionary of the first row group, of 4): rpm and speed',
    );
  });

  test('a flat file of the same size reads the footer alone', async () => {
    const source = countingSource(await openFileSource(file));
    const draft = await inferParquetSource(source, { layout: 'flat' });
    await source.close();
    expect(source.reads).toBe(3);
    expect(source.bytesRead).toBe((draft.document.parquetConfig?.footerLength ?? 0) + 12);
  });
});

describe('a text time column is judged by one page, read whole when larger than the first read', () => {
  test('a 150 KB first page of RFC 3339 text: footer, then 64 KiB and the rest of that page', async () => {
    const rows = 5000;
    const bytes = new Uint8Array(
      parquetWriteBuffer({
        codec: 'UNCOMPRESSED',
        pageSize: 1 << 20,
        rowGroupSize: rows,
        columnData: [
          {
            name: 'time',
            type: 'STRING',
            data: Array.from({ length: rows }, (_, i) =>
              new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString(),
            ),
          },
          { name: 'v', type: 'DOUBLE', data: Float64Array.from({ length: rows }, (_, i) => i) },
        ],
      }),
    );
    const source = countingSource(memorySource(bytes, 'text-time.parquet'));
    const draft = await inferParquetSource(source);
    expect(draft.document.parquetConfig?.flatDataset?.timeColumn).toEqual({
      path: 'time',
      format: 'TIME_FORMAT_ABSOLUTE_RFC3339',
    });
    const footerLength = draft.document.parquetConfig?.footerLength ?? 0;
    const [, , , first, rest] = source.log;
    expect(source.reads).toBe(5);
    expect(first).toEqual([4, 64 * 1024]);
    const pageEnd = (rest?.[0] ?? 0) + (rest?.[1] ?? 0);
    expect(pageEnd).toBeGreaterThan(4 + 64 * 1024);
    expect(pageEnd).toBeLessThan(4 + rows * 30);
    expect(source.bytesRead).toBe(footerLength + 12 + pageEnd - 4);
  });
});
