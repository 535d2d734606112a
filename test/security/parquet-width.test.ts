/**
 * A Parquet schema too wide to inspect (issue 12, point 5c): refused with a coded error
 * before anything walks its columns, instead of overflowing the stack or filling memory.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetMetadata } from 'hyparquet';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, test } from 'vitest';
import { MAX_PARQUET_COLUMNS } from '../../src/formats/parquet/footer.js';
import { inspectParquetSource } from '../../src/formats/parquet/inspect.js';
import { footerLeafCount } from '../../src/formats/parquet/width.js';
import { memorySource } from '../../src/inspect/byte-source.js';
import { InspectError } from '../../src/inspect/index.js';
import { repoRoot } from '../helpers/paths.js';

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

  /** The footer's bytes (without its length and PAR1) and the leaves the decoder counts. */
  function footerOf(bytes: Uint8Array): { footer: Uint8Array; leaves: number } {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const length = view.getUint32(bytes.byteLength - 8, true);
    const footer = bytes.subarray(bytes.byteLength - 8 - length, bytes.byteLength - 8);
    const md = parquetMetadata(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
    );
    return { footer, leaves: md.schema.filter((e) => !e.num_children).length };
  }

  test('the width is read from a skim of the footer: the count the decoder gives, for every Parquet fixture', () => {
    const files = ['fixtures/parquet', 'fixtures/platform-examples'].flatMap((d) =>
      readdirSync(join(repoRoot, d))
        .filter((f) => f.endsWith('.parquet'))
        .map((f) => join(repoRoot, d, f)),
    );
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const { footer, leaves } = footerOf(new Uint8Array(readFileSync(file)));
      expect([file, footerLeafCount(footer)]).toEqual([file, leaves]);
    }
    const { footer, leaves } = footerOf(wide(MAX_PARQUET_COLUMNS + 1));
    expect(leaves).toBe(MAX_PARQUET_COLUMNS + 1);
    expect(footerLeafCount(footer)).toBe(leaves);
  });

  test('bytes that are no footer: no count (the decoder names the damage)', () => {
    const { footer } = footerOf(wide(3));
    for (let n = 0; n < footer.byteLength; n += 7) {
      const count = footerLeafCount(footer.subarray(0, n));
      expect(count === undefined || count === 3).toBe(true);
    }
    expect(footerLeafCount(Uint8Array.of(0x15, 0x02, 0x19, 0xfc))).toBeUndefined();
  });
});
