/**
 * A Parquet schema too wide to inspect (issue 12, point 5c): refused with a coded error
 * before anything walks its columns, instead of overflowing the stack or filling memory.
 */
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, test } from 'vitest';
import { memorySource } from '../../src/inspect/byte-source.js';
import { InspectError, inspectParquetSource } from '../../src/inspect/index.js';
import { MAX_PARQUET_COLUMNS } from '../../src/inspect/parquet.js';

function wide(columns: number): Uint8Array {
  const bytes = parquetWriteBuffer({
    codec: 'UNCOMPRESSED',
    columnData: Array.from({ length: columns }, (_, i) => ({
      name: `c${i}`,
      type: 'DOUBLE' as const,
      data: Float64Array.of(i),
    })),
  });
  return new Uint8Array(bytes);
}

describe('Parquet width', () => {
  test('one leaf column more than the cap: parquet_too_many_columns', async () => {
    const bytes = wide(MAX_PARQUET_COLUMNS + 1);
    const err = await inspectParquetSource(memorySource(bytes, 'wide.parquet')).catch((e) => e);
    expect(err).toBeInstanceOf(InspectError);
    expect((err as InspectError).issue.code).toBe('parquet_too_many_columns');
    expect((err as InspectError).issue.message).toContain(
      `${MAX_PARQUET_COLUMNS + 1} leaf columns: more than the ${MAX_PARQUET_COLUMNS} importkit inspects`,
    );
  });
});
