/**
 * Scans that borrow their window (ScanOptions.buffers): one after another they read what
 * scans with new buffers read, the next takes the window the last one left, and a scan
 * started while another holds the window makes its own. And a scan's own window, sized to
 * the bytes it scans when they are fewer than a chunk, reads what a small chunk reads.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, expect, test } from 'vitest';
import { fieldText, type ScanBuffers, scanCsvFile } from '../../src/formats/csv/scan.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-csv-scan-buffers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The cells of the records between `start` and `stopAt`, scanned with `buffers`. */
async function cells(
  path: string,
  start: number,
  stopAt: number,
  buffers?: ScanBuffers,
  chunkSize: number | undefined = 64,
): Promise<string[][]> {
  const rows: string[][] = [];
  await scanCsvFile(
    path,
    (rec) => {
      rows.push(Array.from({ length: rec.count }, (_, i) => fieldText(rec, i)));
      return undefined;
    },
    { start, stopAt, ...(chunkSize ? { chunkSize } : {}), ...(buffers ? { buffers } : {}) },
  );
  return rows;
}

const cell = fc.stringMatching(/^[a-z0-9 ]{0,12}$/);
const table = fc.array(fc.array(cell, { minLength: 3, maxLength: 3 }), {
  minLength: 1,
  maxLength: 60,
});

test('ranges scanned one after another through lent buffers read what new buffers read', async () => {
  let n = 0;
  await fc.assert(
    fc.asyncProperty(table, table, async (a, b) => {
      // Two files, so that the second scan's window holds the first file's bytes beyond
      // what it reads itself.
      const paths = [a, b].map((rows) => {
        const path = join(dir, `t${n++}.csv`);
        writeFileSync(path, `${rows.map((r) => r.join(',')).join('\n')}\n`);
        return path;
      });
      const lent: ScanBuffers = {};
      for (const path of [...paths, ...paths.reverse()]) {
        const fresh = await cells(path, 0, Number.MAX_SAFE_INTEGER);
        expect(await cells(path, 0, Number.MAX_SAFE_INTEGER, lent)).toEqual(fresh);
      }
    }),
    { numRuns: 60 },
  );
});

test('the next scan takes the window the last one left; one started meanwhile makes its own', async () => {
  const path = join(dir, 'window.csv');
  writeFileSync(path, 'a,b\n1,2\n3,4\n');
  const lent: ScanBuffers = {};
  await cells(path, 0, 100, lent);
  const first = lent.buf;
  expect(first).toBeInstanceOf(Buffer);
  await cells(path, 0, 100, lent);
  expect(lent.buf).toBe(first);
  // Two at once: one takes the lent window, the other makes a new one; they read the same.
  const [x, y] = await Promise.all([cells(path, 0, 100, lent), cells(path, 0, 100, lent)]);
  expect(x).toEqual(y);
  expect(x).toEqual([
    ['a', 'b'],
    ['1', '2'],
    ['3', '4'],
  ]);
});

test('a file that ends in a lone CR ends there, whatever the window held after it', async () => {
  // The first scan leaves the window full of line feeds; each file after it ends in a CR
  // that the byte after it, which is no byte of the file, would make a CRLF.
  const feeds = join(dir, 'feeds.csv');
  writeFileSync(feeds, '\n'.repeat(300));
  const cases = [
    { text: 'x,y\ry,z\r', rows: 2 },
    { text: 'x,"y\r', rows: 1 },
    { text: '"x\ry\r', rows: 1 },
  ];
  for (const { text, rows } of cases) {
    const path = join(dir, `cr-${cases.findIndex((c) => c.text === text)}.csv`);
    writeFileSync(path, text);
    const lent: ScanBuffers = {};
    await scanCsvFile(feeds, () => undefined, { chunkSize: 64, buffers: lent });
    const r = await scanCsvFile(path, () => undefined, { chunkSize: 64, buffers: lent });
    expect({ rows: r.rows, endOffset: r.endOffset, lines: r.lines }, JSON.stringify(text)).toEqual({
      rows,
      endOffset: text.length,
      lines: text.split('\r').length,
    });
  }
});

test('a window sized to a small file (the default chunk) reads what 64-byte chunks read', async () => {
  let n = 0;
  // Cells long enough that files run from a few bytes to past 8 KiB; some quoted over lines.
  const long = fc.oneof(
    cell,
    cell.map((c) => `"${c}\n${c.repeat(20)}"`),
  );
  const rows = fc.array(fc.array(long, { minLength: 3, maxLength: 3 }), { maxLength: 90 });
  await fc.assert(
    fc.asyncProperty(rows, fc.nat(), async (table, at) => {
      const text = `${table.map((r) => r.join(',')).join('\n')}\n`;
      const path = join(dir, `s${n++}.csv`);
      writeFileSync(path, text);
      // From the start, and from a record's start within the file.
      const starts = [0, text.indexOf('\n', at % text.length) + 1];
      for (const start of starts) {
        const small = await cells(path, start, Number.MAX_SAFE_INTEGER);
        expect(await cells(path, start, Number.MAX_SAFE_INTEGER, undefined, undefined)).toEqual(
          small,
        );
      }
    }),
    { numRuns: 80 },
  );
});
