import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { inspectCsv } from '../../src/formats/csv/inspect.js';
import { type NormalizeTuning, normalizeCsv } from '../../src/formats/csv/normalize.js';
import { planNormalize } from '../../src/formats/csv/normalize-plan.js';
import {
  type RangeInput,
  type RangeRewritten,
  rewriteRange,
} from '../../src/formats/csv/normalize-records.js';
import type { NormalizeOptions } from '../../src/normalize/index.js';
import { csvArb, optionsArb } from '../helpers/messy-csv.js';
import { partInWorker, settle, threads } from '../helpers/threads.js';

const WORKER = new URL('../../src/formats/csv/normalize-worker.js', import.meta.url);

const dir = mkdtempSync(join(tmpdir(), 'importkit-normalize-shared-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

/** The output bytes and the report (but for the output's name) of one normalize. */
async function run(input: string, options: NormalizeOptions & NormalizeTuning) {
  const output = join(dir, `out${n++}.csv`);
  const report = await normalizeCsv(input, output, options);
  const bytes = readFileSync(output, 'latin1');
  rmSync(output);
  return { bytes, report: { ...report, output: '' } };
}

/** One thread reading the file whole, and the file cut into ranges of `rangeBytes`. */
async function whole(
  text: string,
  options: NormalizeOptions,
  rangeBytes: number,
  jobs = 1,
  chunkSize?: number,
) {
  const input = join(dir, `in${n++}.csv`);
  writeFileSync(input, text);
  try {
    const one = await run(input, { ...options, jobs: 1 });
    const cut = await run(input, {
      ...options,
      jobs,
      shared: true,
      rangeBytes,
      ...(chunkSize ? { chunkSize } : {}),
    });
    return { one, cut };
  } finally {
    rmSync(input);
  }
}

/** Rows with a quoted note that spans lines: a range may start inside it (a wrong guess). */
const notesArb = fc
  .array(
    fc.record({
      second: fc.integer({ min: 0, max: 59 }),
      note: fc.constantFrom('plain', 'two\nlines', '"quoted"\r\nand; more', '', 'a\n1,5;2'),
      value: fc.constantFrom('1,5', '-2,25', '7', ''),
    }),
    { minLength: 3, maxLength: 40 },
  )
  .map((rows) =>
    [
      'time;note;value',
      ...rows.map(
        (r, i) =>
          `${String((i % 28) + 1).padStart(2, '0')}.03.2024 10:00:${String(r.second).padStart(2, '0')};"${r.note.replace(/"/g, '""')}";${r.value}`,
      ),
    ].join('\n'),
  );

describe('normalize on several threads writes what one thread writes', () => {
  test('messy files cut into ranges of any size: the same bytes, counts and rows named', async () => {
    await fc.assert(
      fc.asyncProperty(
        csvArb,
        optionsArb,
        fc.integer({ min: 1, max: 400 }),
        async (text, options, rangeBytes) => {
          const { one, cut } = await whole(text, options, rangeBytes);
          expect(cut.report).toEqual(one.report);
          expect(cut.bytes).toBe(one.bytes);
        },
      ),
      { numRuns: 50 },
    );
  });

  test('a range that starts inside a quoted field with line breaks is read again from the record before', async () => {
    await fc.assert(
      fc.asyncProperty(
        notesArb,
        fc.integer({ min: 1, max: 120 }),
        fc.integer({ min: 8, max: 64 }),
        async (text, rangeBytes, chunkSize) => {
          // Small reads: a range read again is read while the next range is (this thread
          // joins one range while it reads the next), each waiting on its reads in turn.
          const { one, cut } = await whole(text, {}, rangeBytes, 1, chunkSize);
          expect(cut.report).toEqual(one.report);
          expect(cut.bytes).toBe(one.bytes);
        },
      ),
      { numRuns: 40 },
    );
  });

  test('the hour a zone repeats is read in row order across ranges', async () => {
    // 01:00 to 03:55 local on the day summer time ends in Berlin: 02:00-02:55 comes twice,
    // first as summer time (+02:00), then as standard time (+01:00).
    const times: string[] = [];
    for (const [h, from] of [
      [1, 0],
      [2, 0],
      [2, 0],
      [3, 0],
    ] as const)
      for (let m = from; m < 60; m += 5)
        times.push(`27.10.2024 ${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:00`);
    const text = `${['time;v', ...times.map((t, i) => `${t};${i},5`)].join('\n')}\n`;
    for (const rangeBytes of [1, 7, 30, 31, 64, 200, 333]) {
      const { one, cut } = await whole(text, { timezone: 'Europe/Berlin' }, rangeBytes);
      expect(cut.bytes, `ranges of ${rangeBytes} bytes`).toBe(one.bytes);
      expect(cut.report).toEqual(one.report);
    }
    const { one } = await whole(text, { timezone: 'Europe/Berlin' }, 1);
    const lines = one.bytes.split('\n');
    expect(lines[13]).toBe('2024-10-27T02:00:00+02:00,12.5');
    expect(lines[25]).toBe('2024-10-27T02:00:00+01:00,24.5');
    expect(one.report.issues.map((i) => i.code)).toEqual(['normalize_time_repeated_hour']);
  });

  test('a worker rewrites a range as this thread does, into the buffer it is given', async () => {
    const input = join(dir, `in${n++}.csv`);
    writeFileSync(input, zonedRows(2_000));
    try {
      const plan = planNormalize(await inspectCsv(input), { timezone: 'Europe/Berlin' });
      const readings = plan.columns.map((c) =>
        c.kind === 'time' ? { zone: 'Europe/Berlin', dateOrder: c.dateOrder } : undefined,
      );
      const ranges: RangeInput = { path: input, plan, header: ['time', 'zoned', 'a'], readings };
      for (const range of [
        { start: 20_000, exact: false, stopAt: 41_000 },
        { start: 30_000, exact: false, stopAt: 200_000, buffer: new ArrayBuffer(100) },
      ]) {
        const here = await rewriteRange(range, ranges);
        const there = (await partInWorker(WORKER, ranges, { ...range })) as RangeRewritten;
        expect(Buffer.from(there.output).toString()).toBe(Buffer.from(here.output).toString());
        expect({ ...there, output: 0 }).toEqual({ ...here, output: 0 });
        expect(here.start).toBeGreaterThan(range.start);
        expect(here.counts.timesRewritten).toBeGreaterThan(100);
      }
    } finally {
      rmSync(input);
    }
  });

  test('with a worker thread: the same output, and no thread left running', async () => {
    const text = zonedRows(20_000);
    const before = threads();
    const { one, cut } = await whole(text, {}, 64 * 1024, 2);
    expect(cut.bytes).toBe(one.bytes);
    expect(cut.report).toEqual(one.report);
    expect(one.report.counts.timesRewritten).toBe(40_000);
    await settle();
    if (before !== undefined) expect(threads()).toBeLessThanOrEqual(before);
  });
});

/** `count` rows of a day-first time, a time with a zone name and a decimal comma. */
function zonedRows(count: number): string {
  const rows = ['time;zoned;a'];
  for (let i = 0; i < count; i++) {
    const s = String(i % 60).padStart(2, '0');
    const m = String(Math.floor(i / 60) % 60).padStart(2, '0');
    const zone = i % 3 ? 'CET' : 'Europe/Berlin';
    rows.push(`30.03.2024 12:${m}:${s};2024-03-30 12:00:${s} ${zone};${i},5`);
  }
  return `${rows.join('\n')}\n`;
}
