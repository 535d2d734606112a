import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { inspectCsv } from '../../src/formats/csv/inspect.js';
import { planNormalize } from '../../src/formats/csv/normalize-plan.js';
import { noCounts, rewriteRecords } from '../../src/formats/csv/normalize-records.js';
import { TimeWriter } from '../../src/formats/csv/normalize-times.js';
import { normalizeCsv } from '../../src/normalize/index.js';
import { csvArb, optionsArb } from '../helpers/messy-csv.js';
import { normalizeCsv as before } from '../helpers/normalize-oracle/csv.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-normalize-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

const NEWER_CODES = new Set(['normalize_date_order_contradicted', 'normalize_column_kept']);

/** Both paths on one file: the output bytes and the reports (but for the output's name). */
async function both(text: string, options: Parameters<typeof normalizeCsv>[2]) {
  const input = join(dir, `in${n++}.csv`);
  writeFileSync(input, text);
  const outNew = join(dir, `new${n}.csv`);
  const outOld = join(dir, `old${n}.csv`);
  const a = await normalizeCsv(input, outNew, options);
  const b = await before(input, outOld, options);
  // The oracle predates the reports of dates that contradict a given order and of columns
  // kept with some times in them (csv.test.ts).
  const issues = a.issues.filter((i) => !NEWER_CODES.has(i.code));
  const result = {
    now: { bytes: readFileSync(outNew), report: { ...a, issues, output: '' } },
    was: { bytes: readFileSync(outOld), report: { ...b, output: '' } },
  };
  for (const p of [input, outNew, outOld]) rmSync(p, { force: true });
  return result;
}

describe('normalize streams cells: the output of the record-by-record path, byte for byte', () => {
  test('decimal commas, day-first dates, zone names, quoted fields, empty cells', async () => {
    const seen = noCounts();
    await fc.assert(
      fc.asyncProperty(csvArb, optionsArb, async (text, options) => {
        const { now, was } = await both(text, options);
        expect(now.report).toEqual(was.report);
        expect(now.bytes.toString('latin1')).toBe(was.bytes.toString('latin1'));
        for (const [k, v] of Object.entries(now.report.counts)) seen[k as keyof typeof seen] += v;
      }),
      { numRuns: 100 },
    );
    // The generated files reach every kind of rewrite.
    for (const k of ['decimalCommas', 'timesRewritten', 'repeatedHeaders', 'cellsKept'] as const)
      expect(seen[k], k).toBeGreaterThan(0);
  });

  test('the summer-time hour a zone repeats, in row order', async () => {
    const rows = ['27.10.2024 01:30:00', '27.10.2024 02:30:00', '27.10.2024 02:10:00'];
    const text = ['time;v', ...[...rows, ...rows].map((t, i) => `${t};${i},5`)].join('\n');
    const { now, was } = await both(`${text}\n`, { timezone: 'Europe/Berlin' });
    expect(now.report).toEqual(was.report);
    expect(now.bytes.toString()).toBe(was.bytes.toString());
    expect(now.report.issues.map((i) => i.code)).toEqual(['normalize_time_repeated_hour']);
  });

  test('a zone name read before the scanner moved its window on is not taken for the bytes now in its place', async () => {
    // Rows of one length, the header as long: after the first 4 MiB piece, the place the
    // unknown name `XYZ` was read from holds `CET`, which must still be rewritten. Six
    // digits of fraction: each cell is read by rewriteTimeBytes (no fixed-width shape).
    const cell = (zone: string, v: number) => `2024-03-30 12:00:00.000001 ${zone};${v},5`;
    const header = `${'zoned'.padEnd(cell('XYZ', 1).length - 2, '_')};v`;
    const rows = [header, cell('XYZ', 1)];
    for (let i = 0; i < 130_000; i++) rows.push(cell('CET', i % 10));
    const input = join(dir, `in${n++}.csv`);
    const output = join(dir, `out${n}.csv`);
    writeFileSync(input, `${rows.join('\n')}\n`);
    const report = await normalizeCsv(input, output);
    const lines = readFileSync(output, 'utf8').split('\n');
    for (const p of [input, output]) rmSync(p, { force: true });
    expect(report.counts).toEqual({
      ...ZERO,
      decimalCommas: 130_001,
      timesRewritten: 130_000,
      cellsKept: 1,
    });
    expect(lines.slice(0, 3)).toEqual([
      `${header.slice(0, -2)},v`,
      '2024-03-30 12:00:00.000001 XYZ,1.5',
      '2024-03-30T12:00:00.000001+01:00,0.5',
    ]);
    expect(lines.slice(-2)).toEqual(['2024-03-30T12:00:00.000001+01:00,9.5', '']);
  });

  test('the output is the same whatever the size of the buffer it is gathered in', async () => {
    await fc.assert(
      fc.asyncProperty(csvArb, fc.integer({ min: 1, max: 80 }), async (text, size) => {
        const input = join(dir, `in${n++}.csv`);
        writeFileSync(input, text);
        const outputs: string[] = [];
        for (const outputSize of [1024 * 1024, size]) {
          const plan = planNormalize(await inspectCsv(input), { timezone: 'Europe/Berlin' });
          const counts = { ...ZERO };
          const times = plan.columns.map((c) =>
            c.kind === 'time' ? new TimeWriter({ zone: 'Europe/Berlin' }) : undefined,
          );
          const out = join(dir, `out${n}.csv`);
          const fd = openSync(out, 'w');
          const r = { counts, times, onProgress: undefined, outputSize };
          const written = await rewriteRecords(input, fd, plan, r);
          closeSync(fd);
          const bytes = readFileSync(out);
          expect(bytes.byteLength).toBe(written);
          outputs.push(`${JSON.stringify(counts)}\n${bytes.toString('latin1')}`);
          rmSync(out);
        }
        rmSync(input);
        expect(outputs[1]).toBe(outputs[0]);
      }),
      { numRuns: 60 },
    );
  });
});

const ZERO = noCounts();
