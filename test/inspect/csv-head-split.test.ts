/**
 * What the CSV inspection of a head may skip without changing what it finds:
 * - a delimiter the sample lacks splits no row (so the dialect's choice does not parse
 *   the sample for it), and the fields of a quote-free sample's rows are counted as
 *   papaparse splits them;
 * - a head without the quote character, split on its line ends and delimiter, is the rows
 *   papaparse reads, and a head that is its whole sample has the layout of those rows
 *   (found once, not again by the caller).
 */
import fc from 'fast-check';
import Papa from 'papaparse';
import { expect, test } from 'vitest';
import {
  bodyWidths,
  decodeText,
  detectLineEnding,
  newlineOf,
} from '../../src/formats/csv/dialect.js';
import { type HeadText, splitHeadRows } from '../../src/formats/csv/inspect-head.js';
import { detectLayout } from '../../src/formats/csv/layout.js';

const DELIMITERS = [',', ';', '\t', '|'];

/** Text of cells, delimiters, line ends (LF, CRLF, a lone CR), `#` comments and quotes. */
const textOf = (parts: string[], maxLength = 400) =>
  fc
    .array(fc.constantFrom(...parts), { maxLength })
    .map((p) => p.join(''))
    .filter((t) => t.trim() !== '');

const CELLS = ['a', 'temp', '1', '2.5', '-3', ' ', '2024-01-01T00:00:00Z', 'x y', '#', ''];
const ENDS = ['\n', '\n', '\r\n', '\r'];

/** The rows papaparse reads, as the inspection keeps them (no empty last row, no CR). */
function papaRows(
  text: string,
  delimiter: string,
  lineEnding: ReturnType<typeof detectLineEnding>,
) {
  const rows = Papa.parse<string[]>(text, {
    delimiter,
    newline: newlineOf(lineEnding) as '\n',
    quoteChar: '"',
    skipEmptyLines: false,
  }).data;
  const last = rows[rows.length - 1];
  if (last && last.length === 1 && last[0] === '') rows.pop();
  if (lineEnding === 'mixed')
    for (const r of rows) {
      const v = r[r.length - 1];
      if (v?.endsWith('\r')) r[r.length - 1] = v.slice(0, -1);
    }
  return rows;
}

test('a delimiter the sample lacks leaves every row one field, quoted or not', () => {
  fc.assert(
    fc.property(
      textOf([...CELLS, ...ENDS, ',', ';', '"', "'", '""']),
      fc.constantFrom(...DELIMITERS),
      fc.constantFrom<'"' | "'">('"', "'"),
      (text, delimiter, quoteChar) => {
        fc.pre(!text.includes(delimiter));
        const rows = Papa.parse<string[]>(text, {
          delimiter,
          newline: newlineOf(detectLineEnding(text)) as '\n',
          quoteChar,
          preview: 200,
        }).data;
        for (const r of rows) expect(r.length).toBe(1);
      },
    ),
    { numRuns: 300 },
  );
});

test('the rows a delimiter is judged on: their fields as papaparse reads them', () => {
  fc.assert(
    fc.property(
      fc.oneof(
        textOf([...CELLS, ...ENDS, ',', ',', ';', '\t', '|', '"', "'", '#', '\r']),
        // Past the 200 rows judged.
        fc
          .array(textOf([...CELLS, ',', ';', '\t', '|', '"', '#'], 12), {
            minLength: 150,
            maxLength: 320,
          })
          .map((lines) => lines.join('\n')),
      ),
      fc.constantFrom(...DELIMITERS),
      fc.constantFrom<'"' | "'">('"', "'"),
      fc.boolean(),
      (text, delimiter, quoteChar, quoted) => {
        const sample = quoted ? text : text.replaceAll(quoteChar, '');
        fc.pre(sample.trim() !== '');
        const newline = newlineOf(detectLineEnding(sample));
        const rows = Papa.parse<string[]>(sample, {
          delimiter,
          newline: newline as '\n',
          quoteChar,
          preview: 200,
        }).data;
        const expected = rows
          .filter((r) => !(r.length === 1 && (r[0] ?? '').trim() === ''))
          .filter((r) => !(r[0] ?? '').startsWith('#'))
          .map((r) => r.length);
        expect(bodyWidths(sample, newline, delimiter, quoteChar)).toEqual(expected);
      },
    ),
    { numRuns: 400 },
  );
});

test('a quote-free head splits into the rows papaparse reads, with their layout', () => {
  fc.assert(
    fc.property(
      textOf([...CELLS, ...ENDS, ',', ',', ';', '\t']),
      fc.constantFrom(...DELIMITERS),
      fc.integer({ min: 1, max: 50 }),
      (text, delimiter, headRows) => {
        const lineEnding = detectLineEnding(text);
        const bytes = new TextEncoder().encode(text);
        const head: HeadText = {
          gzip: false,
          magicBytes: 4,
          bytes,
          complete: true,
          decoded: decodeText(bytes),
          text,
          cut: bytes.byteLength,
        };
        const dialect = {
          encoding: 'utf-8' as const,
          validUtf8: true,
          lineEnding,
          delimiter,
          quoteChar: '"' as const,
          delimiterReason: '',
          delimiterRivals: [],
        };
        const table = splitHeadRows(head, text, dialect, {}, headRows, 'f.csv');
        const all = papaRows(text, delimiter, lineEnding);
        const lead = detectLayout(all).firstData;
        const cut = Math.min(all.length, lead + headRows);
        // The head is cut after the sample's preamble and header plus `headRows` rows.
        expect(table.rowCount).toBe(table.complete ? all.length : cut);
        expect(table.rows).toEqual(all.slice(0, Math.min(table.rowCount, 2000)));
        if (table.layout) expect(table.layout).toEqual(detectLayout(table.rows));
        // A head that is the whole text, in 2,000 rows or fewer, has its layout found once.
        if (table.complete && all.length <= 2000) expect(table.layout).toBeDefined();
      },
    ),
    { numRuns: 300 },
  );
});
