import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import Papa from 'papaparse';
import { afterAll, describe, expect, test } from 'vitest';
import { type CsvRecord, fieldText, scanCsvFile } from '../../src/formats/csv/scan.js';
import { openFileSource } from '../../src/inspect/byte-source.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-csv-scan-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

async function scan(
  text: string,
  options: { delimiter?: string; chunkSize?: number; end?: number } = {},
) {
  const path = join(dir, `t${n++}.csv`);
  writeFileSync(path, text);
  const rows: Array<{ cells: string[]; row: number; line: number }> = [];
  const result = await scanCsvFile(
    path,
    (rec) => {
      const cells: string[] = [];
      for (let i = 0; i < rec.count; i++) cells.push(fieldText(rec, i));
      rows.push({ cells, row: rec.row, line: rec.line });
      return undefined;
    },
    options,
  );
  return { rows, result };
}

/** A CSV cell as a writer would put it: quoted when it holds a delimiter, quote or line break. */
function write(cell: string, delimiter: string): string {
  return /["\r\n]/.test(cell) || cell.includes(delimiter) || cell.startsWith(' ')
    ? `"${cell.replace(/"/g, '""')}"`
    : cell;
}

const cellArb = fc.oneof(
  fc.constantFrom(
    '',
    '1',
    '-2.5e3',
    'true',
    'a b',
    'x,y',
    'say "hi"',
    'two\nlines',
    'cr\r\nlf',
    ' lead',
  ),
  fc.string({ maxLength: 6 }),
);

/** Every record's cells, row and offset. */
function collect(into: Array<{ cells: string[]; row: number; offset: number }>) {
  return (rec: CsvRecord) => {
    const cells: string[] = [];
    for (let i = 0; i < rec.count; i++) cells.push(fieldText(rec, i));
    into.push({ cells, row: rec.row, offset: rec.offset });
    return undefined;
  };
}

describe('scanCsvFile', () => {
  test('an open byte source (plain or gzip) reads as its file does, and is left open', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(cellArb, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        fc.integer({ min: 3, max: 64 }),
        async (table, gzip, chunkSize) => {
          const text = `${table.map((r) => r.map((c) => write(c, ',')).join(',')).join('\n')}\n`;
          const bytes = gzip ? gzipSync(text) : Buffer.from(text);
          const path = join(dir, `s${n++}.csv`);
          writeFileSync(path, bytes);
          const fromPath: Array<{ cells: string[]; row: number; offset: number }> = [];
          const fromSource: typeof fromPath = [];
          const byPath = await scanCsvFile(path, collect(fromPath), { chunkSize });
          const source = await openFileSource(path);
          try {
            const bySource = await scanCsvFile(source, collect(fromSource), { chunkSize });
            expect(fromSource).toEqual(fromPath);
            expect(bySource).toEqual(byPath);
            // Still open: a closed file source refuses to read (the file may be 1 byte).
            const want = Math.min(2, bytes.byteLength);
            expect((await source.read(0, want)).byteLength).toBe(want);
          } finally {
            await source.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  test('reads what papaparse reads: quotes, delimiters and line breaks in cells, LF or CRLF, any chunk size', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(cellArb, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 8 }),
        fc.constantFrom(',', ';', '\t', '|'),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        fc.integer({ min: 3, max: 64 }),
        async (table, delimiter, newline, trailingNewline, chunkSize) => {
          // A row of one empty cell is a blank line, which readers skip differently: avoid it.
          const rows = table.map((r) => (r.length === 1 && r[0] === '' ? ['x'] : r));
          const text =
            rows.map((r) => r.map((c) => write(c, delimiter)).join(delimiter)).join(newline) +
            (trailingNewline ? newline : '');
          const { rows: got, result } = await scan(text, { delimiter, chunkSize });
          const papa = Papa.parse<string[]>(text, {
            delimiter,
            newline: newline as '\n',
            quoteChar: '"',
          });
          const want = papa.data.filter(
            (r, i) => !(i === papa.data.length - 1 && r.length === 1 && r[0] === ''),
          );
          expect(got.map((r) => r.cells)).toEqual(want);
          expect(got.map((r) => r.row)).toEqual(want.map((_, i) => i + 1));
          // Lines: each record starts one line after the previous one's line breaks.
          let line = 1;
          for (const [i, r] of got.entries()) {
            expect(r.line).toBe(line);
            line += 1 + (rows[i] ?? []).join('').split(/\r\n|\n/).length - 1;
          }
          expect(result.atEnd).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  test('with a delimiter above the digits (; |), long cells of digits and bytes next to the special ones read as papaparse reads them', async () => {
    // Bytes one off a special byte (LF, CR, quote, `;`, `|`) and digits, in cells long
    // enough to span words of four bytes, so the word test sees each of them in every lane.
    const byteArb = fc.constantFrom(...'0123456789:<{}!#\x0b\x0c\x0e\x09 .,-'.split(''));
    const longArb = fc.array(byteArb, { minLength: 0, maxLength: 14 }).map((c) => c.join(''));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.oneof(longArb, cellArb), { minLength: 2, maxLength: 5 }), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.constantFrom(';', '|'),
        fc.integer({ min: 3, max: 64 }),
        async (rows, delimiter, chunkSize) => {
          const text = `${rows.map((r) => r.map((c) => write(c, delimiter)).join(delimiter)).join('\n')}\n`;
          const { rows: got } = await scan(text, { delimiter, chunkSize });
          const papa = Papa.parse<string[]>(text, { delimiter, newline: '\n', quoteChar: '"' });
          expect(got.map((r) => r.cells)).toEqual(papa.data.slice(0, -1));
        },
      ),
      { numRuns: 100 },
    );
  });

  test('a BOM is skipped; CR-only line ends are read; a row cut by `end` is dropped', async () => {
    expect((await scan('\uFEFFa,b\n1,2\n')).rows.map((r) => r.cells)).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect((await scan('a,b\r1,2\r3,4')).rows.map((r) => r.cells)).toEqual([
      ['a', 'b'],
      ['1', '2'],
      ['3', '4'],
    ]);
    const cut = await scan('a,b\n1,2\n3,4\n', { end: 9 });
    expect(cut.rows.map((r) => r.cells)).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(cut.result.atEnd).toBe(false);
  });
});
