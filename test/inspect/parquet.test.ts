import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { inspectParquetSource } from '../../src/formats/parquet/inspect.js';
import { countingSource, memorySource, openFileSource } from '../../src/inspect/byte-source.js';
import { inspectFile } from '../../src/inspect/inspect-file.js';
import { InspectError } from '../../src/inspect/profile.js';
import { platformExamples as corpus } from '../helpers/paths.js';

const flat = new Uint8Array(readFileSync(join(corpus, 'parquet-flat.parquet')));

/** The issue an inspection of these bytes fails with, or undefined when it succeeds. */
async function failure(bytes: Uint8Array): Promise<{ code: string; message: string } | undefined> {
  try {
    await inspectParquetSource(memorySource(bytes, 'x.parquet'));
    return undefined;
  } catch (err) {
    if (!(err instanceof InspectError)) throw err;
    return { code: err.issue.code, message: err.issue.message };
  }
}

function edited(edit: (b: Uint8Array, view: DataView) => void, from = flat): Uint8Array {
  const b = from.slice();
  edit(b, new DataView(b.buffer));
  return b;
}

describe('inspectParquet reads the footer and nothing else', () => {
  test('reads the last 8 bytes, the first 4 and the footer, and reports where the footer is', async () => {
    const source = countingSource(await openFileSource(join(corpus, 'parquet-flat.parquet')));
    const { profile } = await inspectParquetSource(source);
    await source.close();
    const size = flat.byteLength;
    expect(source.log).toEqual([
      [size - 8, 8],
      [0, 4],
      [size - 8 - 2523, 2523],
    ]);
    expect(profile.footerOffset).toBe('10798');
    expect(profile.footerLength).toBe(2523);
    expect(profile.bytesRead).toBe(2523 + 12);
    expect(profile.rowCount).toBe(300);
    expect(profile.rowGroups).toBe(1);
    expect(profile.fields.map((f) => [f.name, f.physicalType, f.logicalType])).toEqual([
      ['timestamp', 'INT64', 'TIMESTAMP(MICROS, local)'],
      ['speed', 'DOUBLE', undefined],
      ['rpm', 'DOUBLE', undefined],
      ['temperature', 'DOUBLE', undefined],
    ]);
    // 2024-01-01T00:00:00Z and 00:04:59Z in microseconds, exact.
    expect(profile.fields[0]?.stats).toEqual({ min: '1704067200000000', max: '1704067499000000' });
    expect(profile.fields[0]?.statsComplete).toBe(true);
    expect(profile.fields[0]?.nullCount).toBe(0);
  });

  test('inspectFile dispatches Parquet content by magic bytes, whatever the extension', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pq-'));
    try {
      const file = join(dir, 'data.bin');
      await writeFile(file, flat);
      const profile = await inspectFile(file);
      expect(profile.format).toBe('parquet');
      expect(profile.fields).toHaveLength(4);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('files that are not (whole) Parquet get a clear error naming what is wrong', () => {
  test('text is not Parquet', async () => {
    expect(await failure(new TextEncoder().encode('time,value\n1,2\n3,4\n'))).toEqual({
      code: 'parquet_not_parquet',
      message: 'x.parquet: not a Parquet file (no PAR1 at its start or end)',
    });
  });

  test('an empty file and a file shorter than 12 bytes', async () => {
    expect((await failure(new Uint8Array(0)))?.code).toBe('file_empty');
    expect(await failure(flat.subarray(0, 10))).toEqual({
      code: 'parquet_truncated',
      message:
        'x.parquet: 10 bytes: too short for Parquet (at least 12: PAR1, a footer, its length, PAR1)',
    });
  });

  test('a file cut short (no footer at the end) is truncated', async () => {
    for (const keep of [flat.byteLength - 1, flat.byteLength - 100, 5000, 13]) {
      expect((await failure(flat.subarray(0, keep)))?.code).toBe('parquet_truncated');
    }
  });

  test('a damaged magic at the end or at the start', async () => {
    const tail = edited((b) => {
      b[b.byteLength - 1] = 0x30; // PAR0
    });
    expect(await failure(tail)).toEqual({
      code: 'parquet_bad_magic',
      message: 'x.parquet: damaged magic at the end (PAR0, expected PAR1)',
    });
    const head = edited((b) => {
      b[0] = 0x51;
    });
    expect(await failure(head)).toEqual({
      code: 'parquet_bad_magic',
      message:
        'x.parquet: damaged magic at the start (QAR1, expected PAR1) though it ends with PAR1',
    });
  });

  test('an encrypted footer (PARE) is named as such', async () => {
    const pare = edited((b) => {
      b[b.byteLength - 1] = 0x45;
    });
    expect((await failure(pare))?.code).toBe('parquet_encrypted_footer');
  });

  test('a footer length past the start of the file, or zero', async () => {
    for (const length of [flat.byteLength, 0xffffffff, flat.byteLength - 11, 0]) {
      const bad = edited((b, v) => v.setUint32(b.byteLength - 8, length, true));
      expect(await failure(bad)).toEqual({
        code: 'parquet_footer_length_invalid',
        message: `x.parquet: footer length ${length} does not fit in a file of ${flat.byteLength} bytes`,
      });
    }
  });

  test('a footer length over 256 MiB is refused before anything is read', async () => {
    const size = 300 * 1024 * 1024;
    const tail = new Uint8Array(8);
    new DataView(tail.buffer).setUint32(0, 280 * 1024 * 1024, true);
    tail.set([0x50, 0x41, 0x52, 0x31], 4);
    const reads: Array<[number, number]> = [];
    const source = {
      name: 'huge.parquet',
      size,
      bytesRead: 0,
      reads: 0,
      close: async () => {},
      read: async (offset: number, length: number) => {
        reads.push([offset, length]);
        return offset === size - 8 ? tail : new Uint8Array([0x50, 0x41, 0x52, 0x31]);
      },
    };
    await expect(inspectParquetSource(source)).rejects.toThrow(
      'huge.parquet: footer length 293601280 is over the 256 MiB importkit reads',
    );
    expect(reads).toEqual([
      [size - 8, 8],
      [0, 4],
    ]);
  });

  test('a corrupt footer: zeroed, random, or a wrong length that lands inside the data', async () => {
    const footerStart = flat.byteLength - 8 - 2523;
    const zeroed = edited((b) => b.fill(0, footerStart, b.byteLength - 8));
    let seed = 42;
    const random = edited((b) => {
      for (let i = footerStart; i < b.byteLength - 8; i++) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        b[i] = seed & 0xff;
      }
    });
    const shifted = edited((b, v) => v.setUint32(b.byteLength - 8, 2523 + 700, true));
    const shorter = edited((b, v) => v.setUint32(b.byteLength - 8, 2000, true));
    for (const bad of [zeroed, random, shifted, shorter]) {
      const f = await failure(bad);
      expect(f?.code).toBe('parquet_footer_corrupt');
      expect(f?.message).toMatch(/^x\.parquet: the footer cannot be decoded \(.+\)$/);
    }
  });
});
