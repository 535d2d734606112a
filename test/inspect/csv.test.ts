import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { classifyCell, intRangeType } from '../../src/formats/csv/cells.js';
import { inspectCsv, inspectCsvSource } from '../../src/formats/csv/inspect.js';
import { compareIntStrings } from '../../src/formats/csv/int-text.js';
import type { CsvProfile } from '../../src/formats/csv/profile.js';
import { countingSource, openFileSource } from '../../src/inspect/byte-source.js';
import { InspectError } from '../../src/inspect/profile.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-csv-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(name: string, content: string | Uint8Array): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

async function errorOf(p: Promise<unknown>): Promise<InspectError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof InspectError) return err;
    throw err;
  }
  throw new Error('expected an InspectError');
}

const field = (p: CsvProfile, name: string) => {
  const f = p.fields.find((x) => x.name === name);
  if (!f) throw new Error(`no field ${name}`);
  return f;
};

describe('cells', () => {
  test.each([
    ['007', 'string'],
    ['-0012', 'string'],
    ['0', 'int'],
    ['-17', 'int'],
    ['9007199254740993', 'int'],
    ['0.5', 'double'],
    ['1e-3', 'double'],
    ['NaN', 'double'],
    ['inf', 'double'],
    ['-Infinity', 'double'],
    ['  42 ', 'int'],
    ['', 'empty'],
    ['   ', 'empty'],
    ['TRUE', 'bool'],
    ['false', 'bool'],
    ['2024-10-07T17:00:09.5Z', 'rfc3339'],
    ['2024-10-07 17:00:09+02:00', 'rfc3339'],
    ['2024-10-07 17:00:09.982126', 'datetime'],
    ['2024-13-07 17:00:09', 'string'],
    ['31/12/2024 10:00', 'date_dmy'],
    ['12/31/2024', 'date_mdy'],
    ['03/04/2024', 'date_ambiguous'],
    ['m/s', 'string'],
  ])('%j is %s', (cell, kind) => {
    expect(classifyCell(cell)).toBe(kind);
  });

  test('integers beyond 2^53 compare exactly', () => {
    // As floats these two are equal.
    expect(Number('9007199254740993')).toBe(Number('9007199254740992'));
    expect(compareIntStrings('9007199254740992', '9007199254740993')).toBe(-1);
    expect(compareIntStrings('-9007199254740993', '-9007199254740992')).toBe(-1);
    expect(compareIntStrings('18446744073709551615', '18446744073709551615')).toBe(0);
  });

  test.each([
    ['-2147483648', '2147483647', 'INT_32'],
    ['0', '2147483648', 'INT_64'],
    ['-9223372036854775808', '9223372036854775807', 'INT_64'],
    ['0', '9223372036854775808', 'UINT_64'],
    ['0', '18446744073709551615', 'UINT_64'],
    ['0', '18446744073709551616', 'DOUBLE'],
    ['-1', '9223372036854775808', 'DOUBLE'],
  ])('integers from %s to %s are %s', (min, max, type) => {
    expect(intRangeType(min, max)).toBe(type);
  });
});

describe('files of many shapes give a profile or a clear error', () => {
  test('empty file', async () => {
    const e = await errorOf(inspectCsv(await write('empty.csv', '')));
    expect(e.issue.code).toBe('file_empty');
  });
  test('only blank lines', async () => {
    const e = await errorOf(inspectCsv(await write('blank.csv', '\n\n  \n')));
    expect(e.issue.code).toBe('csv_empty');
  });
  test('binary junk with a .csv name', async () => {
    const junk = new Uint8Array(4096).map((_, i) => (i * 7919) % 256);
    const e = await errorOf(inspectCsv(await write('junk.csv', junk)));
    expect(e.issue.code).toBe('csv_not_text');
    expect(e.message.split('\n')).toHaveLength(1);
  });
  test('UTF-16 with and without BOM', async () => {
    const text = 'time,v\n2024-01-01T00:00:00Z,1\n';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    expect((await errorOf(inspectCsv(await write('u16.csv', le)))).issue.code).toBe(
      'csv_encoding_utf16',
    );
    const bare = Buffer.from(text, 'utf16le');
    expect((await errorOf(inspectCsv(await write('u16b.csv', bare)))).issue.code).toBe(
      'csv_encoding_utf16',
    );
  });
  test('one line without a line end', async () => {
    const p = await inspectCsv(await write('one.csv', '1.5,2,abc'));
    expect(p.layout.headerRow).toBe(0);
    expect(p.fields.map((f) => f.physicalType)).toEqual(['DOUBLE', 'INT_32', 'STRING']);
    expect(p.rowCount).toBe(1);
  });
  test('a huge single line without a line end', async () => {
    const path = await write('huge.csv', 'x,'.repeat(100_000));
    const e = await errorOf(inspectCsv(path, { headBytes: 64 * 1024 }));
    expect(e.issue.code).toBe('csv_line_too_long');
  });
  test('Latin-1 text is read with a warning', async () => {
    const bytes = Buffer.from('time,temp\xe9rature\n2024-01-01T00:00:00Z,1\n', 'latin1');
    const p = await inspectCsv(await write('latin1.csv', bytes));
    expect(p.issues.map((i) => i.code)).toEqual(['csv_encoding_not_utf8']);
    expect(p.fields[1]?.name).toBe('température');
  });
  test('CR-only line ends', async () => {
    const p = await inspectCsv(
      await write('cr.csv', 'time,v\r2024-01-01T00:00:00Z,1\r2024-01-01T00:00:01Z,2\r'),
    );
    expect(p.dialect.lineEnding).toBe('CR');
    expect(p.rowCount).toBe(2);
    expect(p.fields.map((f) => f.physicalType)).toEqual(['STRING', 'INT_32']);
  });
  test('single quotes are detected when they quote the delimiter', async () => {
    const rows = ['name,v', ...Array.from({ length: 20 }, (_, i) => `'a, b ${i}',${i}`)];
    const p = await inspectCsv(await write('squote.csv', rows.join('\n')));
    expect(p.dialect.quoteChar).toBe("'");
    expect(p.fields.map((f) => [f.name, f.physicalType])).toEqual([
      ['name', 'STRING'],
      ['v', 'INT_32'],
    ]);
    expect(p.fields[0]?.samples[0]).toBe('a, b 0');
    // An apostrophe in text does not make it the quote.
    const text = ['name,v', ...Array.from({ length: 20 }, (_, i) => `it's ${i},${i}`)];
    expect((await inspectCsv(await write('apos.csv', text.join('\n')))).dialect.quoteChar).toBe(
      '"',
    );
  });

  test('ragged rows are counted and reported', async () => {
    const p = await inspectCsv(await write('ragged.csv', 'a,b,c\n1,2,3\n4,5\n6,7,8,9\n10,11,12\n'));
    expect(p.sampling.raggedRows).toBe(2);
    expect(p.issues.map((i) => i.code)).toEqual(['csv_ragged_rows']);
    expect(p.fields.map((f) => f.physicalType)).toEqual(['INT_32', 'INT_32', 'INT_32']);
  });
});

/** Rows of a table whose `note` column holds quoted line ends, to cut into slices. */
function quotedTable(rows: number, late?: (i: number) => string | undefined): string {
  const lines = ['time,count,note,level'];
  for (let i = 0; i < rows; i++) {
    const note = i % 2 === 0 ? `"first line\nsecond, ""quoted"" ${i}\nthird"` : `plain ${i}`;
    lines.push(
      `${1_700_000_000 + i},${late?.(i) ?? String(i % 1000)},${note},${(i * 0.25).toFixed(2)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

describe('head and slices', () => {
  const small = { headBytes: 8 * 1024, headRows: 100, sliceBytes: 4 * 1024 };

  test('slices starting inside quoted fields with line ends are aligned to whole rows', async () => {
    const path = await write('quoted.csv', quotedTable(3000));
    const p = await inspectCsv(path, small);
    expect(p.sampling.mode).toBe('head+slices');
    expect(p.sampling.slices).toHaveLength(3);
    expect(p.sampling.slices.every((s) => s.aligned && s.rows > 0)).toBe(true);
    expect(p.sampling.raggedRows).toBe(0);
    expect(p.fields.map((f) => f.physicalType)).toEqual(['INT_32', 'INT_32', 'STRING', 'DOUBLE']);
    expect(p.issues).toEqual([]);
    expect(field(p, 'time').increasing).toBe(true);
  });

  test('a later slice that contradicts the head widens the type and says so', async () => {
    const path = await write(
      'widen.csv',
      quotedTable(3000, (i) => (i === 2990 ? '3.5' : undefined)),
    );
    const p = await inspectCsv(path, small);
    const count = field(p, 'count');
    expect(count.physicalType).toBe('DOUBLE');
    expect(count.headType).toBe('INT_32');
    expect(count.widenedBy?.value).toBe('3.5');
    expect(p.issues.map((i) => [i.code, i.severity, i.source?.column])).toEqual([
      ['csv_type_widened', 'warning', 2],
    ]);
  });

  test('one text cell in a later part is a stray, not the type; full scan finds a value slices miss', async () => {
    const path = await write(
      'widen2.csv',
      quotedTable(3000, (i) => (i === 1500 ? 'n/a' : undefined)),
    );
    const sampled = await inspectCsv(path, small);
    const full = await inspectCsv(path, { ...small, full: true });
    expect(full.sampling.mode).toBe('full');
    expect(full.rowCount).toBe(3000);
    expect(field(full, 'count').physicalType).toBe('INT_32');
    expect(field(full, 'count').stray).toEqual({ count: 1, value: 'n/a', where: 'row 1502' });
    // The slices are 4 KiB in the middle: row 1500 may or may not be in one; the type stays.
    const count = field(sampled, 'count');
    expect(count.physicalType).toBe('INT_32');
    expect(sampled.bytesRead).toBeLessThan(full.bytesRead);
  });

  test('the head holds exactly headRows data rows; the rest is read from where it ends', async () => {
    const lines = [
      't,v',
      ...Array.from({ length: 1500 }, (_, i) => `${i},${i === 1200 ? 'n/a' : i}`),
    ];
    const path = await write('gap.csv', `${lines.join('\n')}\n`);
    const p = await inspectCsv(path, { headRows: 1000 });
    expect(p.sampling.headRows).toBe(1000);
    expect(p.sampling.slices.map((s) => s.rows)).toEqual([500]);
    expect(field(p, 'v').physicalType).toBe('INT_32');
    expect(field(p, 'v').stray).toEqual({
      count: 1,
      value: 'n/a',
      where: `the slice at byte ${p.sampling.headBytes}, row 201`,
    });
  });

  test('rows typed in place (text without quotes) give the profile papaparse rows give', async () => {
    const body = Array.from({ length: 5000 }, (_, i) => {
      if (i === 3000) return '';
      if (i === 3100) return `${1_700_000_000 + i},1`;
      if (i === 3200) return `${1_700_000_000 + i},1,2,x,extra`;
      return `${1_700_000_000 + i},${i % 7 === 0 ? '' : i},${(i * 0.5).toFixed(1)},${i === 4000 ? 'text' : i % 2 === 0}`;
    });
    const plain = await inspectCsv(await write('plain.csv', `t,a,b,c\n${body.join('\n')}\n`));
    const quoted = await inspectCsv(
      await write('quoted-header.csv', `"t",a,b,c\n${body.join('\n')}\n`),
    );
    const strip = (p: CsvProfile) => p.fields.map(({ header: _h, ...f }) => f);
    expect(strip(plain)).toEqual(strip(quoted));
    expect({ ...plain.sampling, headBytes: 0 }).toEqual({ ...quoted.sampling, headBytes: 0 });
    expect(plain.sampling.raggedRows).toBe(2);
    expect(plain.fields.map((f) => f.physicalType)).toEqual(['INT_32', 'INT_32', 'DOUBLE', 'BOOL']);
    expect(plain.fields[3]?.stray).toEqual({ count: 2, value: 'x', where: 'row 3202' });
    expect(plain.fields[1]?.nullCount).toBe(715);
  });

  test('time going backwards in a slice is seen', async () => {
    const text = quotedTable(3000).replace('\n1700002985,', '\n1600000000,');
    const p = await inspectCsv(await write('back.csv', text), small);
    // Row 2985 sits in the end slice (the last 4 KiB).
    expect(field(p, 'time').increasing).toBe(false);
  });

  test('gzip: only the head is decompressed unless --full', async () => {
    const text = quotedTable(20000);
    const path = await write('big.csv.gz', gzipSync(Buffer.from(text)));
    const p = await inspectCsv(path, { headBytes: 64 * 1024, headRows: 500 });
    expect(p.dialect.gzip).toBe(true);
    expect(p.sampling.mode).toBe('head');
    expect(p.issues.map((i) => i.code)).toEqual(['csv_gzip_head_only']);
    expect(p.bytesRead).toBeLessThan(p.file.size);
    const full = await inspectCsv(path, { headBytes: 64 * 1024, headRows: 500, full: true });
    expect(full.rowCount).toBe(20000);
    expect(full.fields.map((f) => f.physicalType)).toEqual([
      'INT_32',
      'INT_32',
      'STRING',
      'DOUBLE',
    ]);
  });

  test('corrupt gzip is a clear error', async () => {
    const gz = gzipSync(Buffer.from(quotedTable(2000)));
    const broken = Buffer.concat([gz.subarray(0, 200), Buffer.alloc(200, 0x41)]);
    const e = await errorOf(inspectCsv(await write('broken.csv.gz', broken)));
    expect(e.issue.code).toBe('csv_gzip_corrupt');
  });
});

describe('bytes read', () => {
  test('a 100 MB file: only the head (4 MiB at most) and three 64 KiB slices are read', async () => {
    const path = join(dir, 'big100.csv');
    const header = 'timestamp,a,b,c,label\n';
    const block: string[] = [];
    for (let i = 0; i < 20_000; i++)
      block.push(
        `2024-10-07T17:00:${String(i % 60).padStart(2, '0')}Z,${i},${(i * 0.5).toFixed(1)},${i % 7},"x, ${i}"`,
      );
    const chunk = Buffer.from(`${block.join('\n')}\n`);
    const { open } = await import('node:fs/promises');
    const h = await open(path, 'w');
    await h.write(header);
    let size = header.length;
    while (size < 100 * 1024 * 1024) {
      await h.write(chunk);
      size += chunk.byteLength;
    }
    await h.close();
    const source = countingSource(await openFileSource(path));
    try {
      const p = await inspectCsvSource(source);
      expect(p.file.size).toBeGreaterThanOrEqual(100 * 1024 * 1024);
      expect(p.sampling.mode).toBe('head+slices');
      expect(p.sampling.headRows).toBe(10_000);
      const headLimit = 4 * 1024 * 1024;
      const sliceLimit = 64 * 1024;
      expect(source.bytesRead).toBeLessThanOrEqual(headLimit + 3 * sliceLimit + 4);
      // Every read is in the head or is one of the three slices.
      const slices = source.log.filter(([offset]) => offset >= headLimit);
      expect(slices).toHaveLength(3);
      for (const [, length] of slices) expect(length).toBeLessThanOrEqual(sliceLimit);
      // The 4 magic bytes, read again with the head, are counted once.
      expect(p.bytesRead).toBe(source.bytesRead - 4);
    } finally {
      await source.close();
      await rm(path, { force: true });
    }
  });
});
