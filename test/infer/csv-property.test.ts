import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { inferCsv } from '../../src/infer/csv.js';

/**
 * Generated tables (column types, time formats and units, delimiters, quoting with
 * embedded delimiters and line ends, BOM, CRLF, units rows, empty cells, header or not)
 * are written, inferred, and the draft must be the one the generator knows it wrote.
 */

type DataType = 'BOOL' | 'INT_32' | 'INT_64' | 'UINT_64' | 'DOUBLE' | 'STRING';
type TimeKind = 'rfc3339' | 'datetime' | 'unix_s' | 'unix_ms' | 'unix_us' | 'unix_ns' | 'relative';

const TIME_FORMATS: Record<Exclude<TimeKind, 'relative'>, string> = {
  rfc3339: 'TIME_FORMAT_ABSOLUTE_RFC3339',
  datetime: 'TIME_FORMAT_ABSOLUTE_DATETIME',
  unix_s: 'TIME_FORMAT_ABSOLUTE_UNIX_SECONDS',
  unix_ms: 'TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS',
  unix_us: 'TIME_FORMAT_ABSOLUTE_UNIX_MICROSECONDS',
  unix_ns: 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS',
};
const RELATIVE = [
  { header: 'time_s', format: 'TIME_FORMAT_RELATIVE_SECONDS' },
  { header: 't_ms', format: 'TIME_FORMAT_RELATIVE_MILLISECONDS' },
  { header: 'time [us]', format: 'TIME_FORMAT_RELATIVE_MICROSECONDS' },
  { header: 'elapsed (min)', format: 'TIME_FORMAT_RELATIVE_MINUTES' },
] as const;
const NAMES = ['speed', 'volts', 'temp', 'mode', 'flag', 'count', 'load', 'note'];
const UNITS = ['m/s', 'V', 'degC', '%', 'rpm', 'kPa'];
const WORDS = [
  'alpha',
  'beta gamma',
  'x,y',
  'semi;colon',
  'pi|pe',
  'tab\there',
  'say "hi"',
  'two\nlines',
  'ok',
];
const START = '2024-03-01T12:00:00Z';
const T0 = Date.UTC(2024, 2, 1, 12);

const spec = fc.record({
  types: fc.array(
    fc.constantFrom<DataType>('BOOL', 'INT_32', 'INT_64', 'UINT_64', 'DOUBLE', 'STRING'),
    {
      minLength: 1,
      maxLength: 5,
    },
  ),
  time: fc.constantFrom<TimeKind>(
    'rfc3339',
    'datetime',
    'unix_s',
    'unix_ms',
    'unix_us',
    'unix_ns',
    'relative',
  ),
  relative: fc.integer({ min: 0, max: RELATIVE.length - 1 }),
  timeAt: fc.nat(),
  delimiter: fc.constantFrom(',', ';', '\t', '|'),
  bom: fc.boolean(),
  crlf: fc.boolean(),
  header: fc.boolean(),
  unitsRow: fc.boolean(),
  rows: fc.integer({ min: 5, max: 40 }),
  emptyRate: fc.constantFrom(0, 0.1, 0.3),
  seed: fc.integer(),
});

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 2246822519) + 3266489917) >>> 0;
    return s / 2 ** 32;
  };
}

function cellOf(type: DataType, r: () => number, row: number): string {
  switch (type) {
    case 'BOOL':
      return r() < 0.5 ? 'true' : 'false';
    case 'INT_32':
      return String(Math.floor(r() * 2_000_000) - 1_000_000);
    case 'INT_64':
      // Negative, beyond int32: never a plausible unix time.
      return String(-3_000_000_000 - Math.floor(r() * 1e12));
    case 'UINT_64':
      return (9_223_372_036_854_775_808n + BigInt(Math.floor(r() * 1e9))).toString();
    case 'DOUBLE':
      return (r() * 2000 - 1000).toFixed(3);
    case 'STRING':
      return row === 0 ? 'alpha' : (WORDS[Math.floor(r() * WORDS.length)] as string);
  }
}

function timeCell(kind: TimeKind, row: number, rel: number): string {
  const ms = T0 + row * 250;
  switch (kind) {
    case 'rfc3339':
      return new Date(ms).toISOString();
    case 'datetime':
      return new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
    case 'unix_s':
      return (ms / 1000).toFixed(2);
    case 'unix_ms':
      return String(ms);
    case 'unix_us':
      return String(ms * 1000 + 7);
    case 'unix_ns':
      return (BigInt(ms) * 1_000_000n + 123n).toString();
    case 'relative':
      return rel === 3
        ? (row * 0.5).toFixed(1)
        : rel === 0
          ? (row * 0.01).toFixed(2)
          : String(row * 40);
  }
}

function quote(cell: string, d: string): string {
  return cell.includes(d) || /["\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-csv-prop-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('inference recovers the columns, types, time column and format that generated a table', async () => {
  await fc.assert(
    fc.asyncProperty(spec, async (s) => {
      const header = s.header || s.time === 'relative';
      const unitsRow = header && s.unitsRow;
      const r = rng(s.seed);
      const nCols = s.types.length + 1;
      const timeCol = s.timeAt % nCols; // 0-based
      const rel = RELATIVE[s.relative] as (typeof RELATIVE)[number];
      const columns: Array<{ header: string; units?: string; type: DataType | 'TIME' }> = [];
      let t = 0;
      for (let c = 0; c < nCols; c++) {
        if (c === timeCol) {
          const h =
            s.time === 'relative' ? rel.header : s.time === 'datetime' ? 'datetime' : 'timestamp';
          columns.push({ header: h, type: 'TIME' });
        } else {
          const type = s.types[t++] as DataType;
          columns.push({
            header: `${NAMES[c % NAMES.length]}_${c}`,
            type,
            units: UNITS[c % UNITS.length] as string,
          });
        }
      }
      const lines: string[][] = [];
      if (header) lines.push(columns.map((c) => c.header));
      if (unitsRow) lines.push(columns.map((c) => (c.type === 'TIME' ? '' : (c.units ?? ''))));
      for (let row = 0; row < s.rows; row++) {
        lines.push(
          columns.map((c) => {
            if (c.type === 'TIME') return timeCell(s.time, row, s.relative);
            if (row > 0 && r() < s.emptyRate) return '';
            return cellOf(c.type, r, row);
          }),
        );
      }
      const nl = s.crlf ? '\r\n' : '\n';
      const text = `${s.bom ? '\ufeff' : ''}${lines.map((l) => l.map((c) => quote(c, s.delimiter)).join(s.delimiter)).join(nl)}${nl}`;
      const path = join(dir, 'gen.csv');
      await writeFile(path, text);

      const draft = await inferCsv(path, s.time === 'relative' ? { relativeStartTime: START } : {});

      const dataColumns: Record<string, unknown> = {};
      columns.forEach((c, i) => {
        if (c.type === 'TIME') return;
        dataColumns[String(i + 1)] = {
          name: header ? c.header : `column_${i + 1}`,
          ...(unitsRow ? { units: c.units } : {}),
          dataType: `CHANNEL_DATA_TYPE_${c.type}`,
        };
      });
      const format = s.time === 'relative' ? rel.format : TIME_FORMATS[s.time];
      expect(draft.document).toEqual({
        csvConfig: {
          assetName: 'gen',
          firstDataRow: 1 + (header ? 1 : 0) + (unitsRow ? 1 : 0),
          timeColumn: {
            columnNumber: timeCol + 1,
            format,
            ...(s.time === 'relative' ? { relativeStartTime: START } : {}),
          },
          dataColumns,
        },
      });
      expect(draft.issues.filter((i) => i.severity === 'error')).toEqual([]);
    }),
    { numRuns: 150 },
  );
});
