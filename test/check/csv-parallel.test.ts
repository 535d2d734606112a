import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { checkConfig } from '../../src/check/index.js';
import { planSplits, scanFull } from '../../src/formats/csv/check-parallel.js';
import {
  type Lent,
  lanesOf,
  type RangeJob,
  type RangeResult,
  scanRange,
} from '../../src/formats/csv/check-range.js';
import type { TallySpec } from '../../src/formats/csv/check-tally.js';
import type { FromWorker } from '../../src/formats/csv/check-worker.js';
import type { ImportDocument } from '../../src/model/document.js';
import { settle, threads } from '../helpers/threads.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-csv-parallel-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

/** A CSV cell as a writer puts it: quoted when it holds a delimiter, a quote or a line break. */
function write(cell: string): string {
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

const timeArb = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 50 }).map(String) },
  { weight: 1, arbitrary: fc.constantFrom('', 'soon', '"1"', '2.5') },
);
const valueArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('1', '-2.5e3', '7', '12345678901', '0.5', '') },
  { weight: 2, arbitrary: fc.constantFrom('two\nlines', 'cr\r\nlf', 'say "hi"', 'x,y', 'on') },
  { weight: 1, arbitrary: fc.string({ maxLength: 4 }) },
);
const rowArb = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(timeArb, valueArb, valueArb, valueArb) },
  { weight: 1, arbitrary: fc.constant(['time', 'a', 'b', 'c']) },
  { weight: 1, arbitrary: fc.constant(['']) },
);

/** A generated CSV: a header, rows with quoted line breaks, LF, CRLF or CR, maybe a BOM, blank lines. */
const csvArb = fc
  .record({
    rows: fc.array(rowArb, { minLength: 0, maxLength: 14 }),
    eol: fc.constantFrom('\n', '\r\n', '\r'),
    bom: fc.boolean(),
    lastEnd: fc.boolean(),
  })
  .map(({ rows, eol, bom, lastEnd }) => {
    const lines = [['time', 'a', 'b', 'c'], ...rows].map((r) => r.map(write).join(','));
    return `${bom ? '\uFEFF' : ''}${lines.join(eol)}${lastEnd ? eol : ''}`;
  });

const SPEC: TallySpec = {
  columns: [
    { column: 2, dataType: 'CHANNEL_DATA_TYPE_DOUBLE' },
    { column: 3, dataType: 'CHANNEL_DATA_TYPE_INT_32' },
    { column: 4, dataType: 'CHANNEL_DATA_TYPE_ENUM', enumTypes: ['1', 'on', '7', 'say "hi"'] },
  ],
  time: { column: 1, format: 'TIME_FORMAT_RELATIVE_SECONDS' },
  header: ['time', 'a', 'b', 'c'],
};

function fileOf(text: string): { path: string; size: number } {
  const path = join(dir, `t${n++}.csv`);
  writeFileSync(path, text);
  return { path, size: Buffer.byteLength(text) };
}

describe('check --full on several ranges', () => {
  test('split at every byte offset into 2-4 ranges: the tally of one pass, places and all', async () => {
    await fc.assert(
      fc.asyncProperty(
        csvArb,
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 9 }),
        fc.constantFrom(16, 64, 4096),
        async (text, checkFrom, gap, chunkSize) => {
          const { path, size } = fileOf(text);
          const options = { delimiter: ',', spec: SPEC, checkFrom, jobs: 1, chunkSize };
          const one = await scanFull(path, size, options);
          // Every byte offset is a split point, with 2, 3 and 4 ranges in turn.
          for (let at = 0; at < size; at++) {
            const ranges = 2 + (at % 3);
            const splits = Array.from({ length: ranges - 1 }, (_, k) => at + k * gap);
            const many = await scanFull(path, size, { ...options, splits });
            expect({ ...many, rescanned: 0 }).toEqual(one);
          }
        },
      ),
      { numRuns: 15 },
    );
  });

  test('worker threads find what one thread finds, issue for issue', async () => {
    const rows = ['time,a,b,c'];
    for (let i = 0; i < 3000; i++) {
      const t = i % 997 === 5 ? i - 3 : i;
      const a = i % 401 === 200 ? 'n/a' : `${i}.5`;
      const b = i % 733 === 100 ? '9999999999' : String(i);
      const c = i % 5 === 0 ? '"one\ntwo"' : i % 389 === 300 ? 'off' : 'on';
      rows.push(i % 611 === 17 ? '' : `${t},${a},${b},${c}`);
    }
    const { path } = fileOf(`${rows.join('\r\n')}\r\n`);
    const doc: ImportDocument = {
      csvConfig: {
        firstDataRow: 2,
        timeColumn: {
          columnNumber: 1,
          format: 'TIME_FORMAT_RELATIVE_SECONDS',
          relativeStartTime: '2024-01-01T00:00:00Z',
        },
        dataColumns: {
          '2': { name: 'a', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' },
          '3': { name: 'b', dataType: 'CHANNEL_DATA_TYPE_INT_32' },
          '4': {
            name: 'c',
            dataType: 'CHANNEL_DATA_TYPE_ENUM',
            enumTypes: [
              { key: 1, name: 'on' },
              { key: 2, name: 'one\ntwo' },
            ],
          },
        },
      },
    };
    const one = await checkConfig(doc, path, { full: true, jobs: 1 });
    expect(one.map((i) => i.code).sort()).toEqual([
      'time_decreasing',
      'value_type_mismatch',
      'value_type_mismatch',
      'value_type_mismatch',
    ]);
    for (const jobs of [2, 4]) {
      const done: number[] = [];
      const many = await checkConfig(doc, path, {
        full: true,
        jobs,
        rangeBytes: 1000 + jobs * 7,
        onProgress: (d) => done.push(d),
      });
      expect(many).toEqual(one);
      expect(done.at(-1)).toBe(Buffer.byteLength(`${rows.join('\r\n')}\r\n`));
    }
  });
});

describe('a range that starts inside a quoted field with line breaks', () => {
  /** Free text in every record: a quoted note of 2-4 lines, with commas, quotes and blank lines. */
  function notes(records: number, eol: string): string {
    const rows = ['time,a,b,note'];
    for (let i = 0; i < records; i++) {
      const lines = Array.from({ length: 2 + (i % 3) }, (_, k) =>
        k === 1 && i % 7 === 0 ? '' : `line ${k} of ${i}, said "ok" ${'x'.repeat(i % 11)}`,
      );
      rows.push(`${i},${i}.5,${i % 13},${write(lines.join(eol))}`);
    }
    return `${rows.join(eol)}${eol}`;
  }

  test('is started at its next record, not scanned again: every split point of a file of notes', async () => {
    for (const eol of ['\n', '\r\n']) {
      const { path, size } = fileOf(notes(40, eol));
      const options = { delimiter: ',', spec: SPEC, checkFrom: 2, jobs: 1, chunkSize: 512 };
      const one = await scanFull(path, size, options);
      expect(one.rows).toBe(41);
      let rescanned = 0;
      for (let at = 40; at < size; at += 41) {
        const many = await scanFull(path, size, { ...options, splits: [at, at + 997] });
        expect({ ...many, rescanned: 0 }).toEqual(one);
        rescanned += many.rescanned;
      }
      expect(rescanned).toBe(0);
    }
  });

  test('in worker threads too: the ranges of a larger file of notes are none of them scanned again', async () => {
    const text = notes(3000, '\n');
    const { path, size } = fileOf(text);
    const options = { delimiter: ',', spec: SPEC, checkFrom: 2 };
    const one = await scanFull(path, size, { ...options, jobs: 1 });
    const many = await scanFull(path, size, { ...options, jobs: 2, rangeBytes: 20_000 });
    expect({ ...many, rescanned: 0 }).toEqual(one);
    expect(many.rescanned).toBe(0);
  });
});

describe('a split inside a line longer than the window a record start is guessed in', () => {
  test('the range starts at the next line start, and is not scanned again', async () => {
    // A cell of 600 KiB: no line ends in the 256 KiB after a split inside it, and the
    // range looks further for its first line start (nextLineStart).
    const long = 'x'.repeat(600 * 1024);
    const rows = ['time,a,b,c'];
    for (let i = 0; i < 40; i++) rows.push(`${i},${i % 9 === 4 ? long : `${i}.5`},${i},on`);
    const { path, size } = fileOf(`${rows.join('\n')}\n`);
    const options = { delimiter: ',', spec: SPEC, checkFrom: 2, jobs: 1 };
    const one = await scanFull(path, size, options);
    expect(one.rows).toBe(41);
    const longAt = rows.slice(0, 5).join('\n').length + 4;
    for (const split of [longAt + 10, longAt + 300 * 1024, longAt + long.length - 1]) {
      const many = await scanFull(path, size, { ...options, splits: [split] });
      expect(many).toEqual(one);
    }
  });
});

/** The ranges of a scan of `path` with the SPEC columns, from each start to the next. */
function rangeJobs(path: string, size: number, starts: number[]): RangeJob[] {
  return starts.map((start, k) => ({
    path,
    delimiter: ',',
    spec: SPEC,
    start,
    exact: k === 0,
    stopAt: starts[k + 1] ?? size,
  }));
}

describe('the threads of a scan', () => {
  test('ranges scanned one after another with what the thread lends tally as each alone', async () => {
    await fc.assert(
      fc.asyncProperty(csvArb, fc.array(fc.nat(), { maxLength: 3 }), async (text, cuts) => {
        const { path, size } = fileOf(text);
        const points = [...new Set(cuts.map((c) => c % Math.max(1, size)))]
          .filter((p) => p > 0)
          .sort((a, b) => a - b);
        const jobs = rangeJobs(path, size, [0, ...points]);
        const lent: Lent = { buffers: {} };
        const inTurn: RangeResult[] = [];
        for (const job of jobs) inTurn.push(await scanRange(job, undefined, lent));
        const alone = await Promise.all(jobs.map((job) => scanRange(job)));
        expect(inTurn).toEqual(alone);
      }),
      { numRuns: 40 },
    );
  });

  test('a worker claims every range left and posts what this thread scans in it', async () => {
    const rows = ['time,a,b,c'];
    for (let i = 0; i < 2000; i++)
      rows.push(i % 7 === 0 ? `${i},"x\ny",${i},on` : `${i},${i}.5,${i},on`);
    const text = `${rows.join('\n')}\n`;
    const { path, size } = fileOf(text);
    const from = text.indexOf('\n') + 1;
    const ranges = rangeJobs(path, size, [from, ...planSplits(from, size, 2, 3000)]);
    const lanes = lanesOf(ranges.length);
    // This thread has claimed the first range: the worker takes the rest.
    Atomics.store(lanes.next, 0, 1);
    const posted: Array<[number, RangeResult]> = [];
    // Started before the ranges are known (as a check starts it before reading the head).
    const worker = new Worker(new URL('../../src/formats/csv/check-worker.js', import.meta.url));
    try {
      const ended = new Promise<void>((resolve, reject) => {
        worker.on('message', (m: FromWorker) => {
          if (!('end' in m)) posted.push([m.k, m.result]);
          else if (m.error) reject(new Error(m.error));
          else resolve();
        });
        worker.on('error', reject);
      });
      // Loaded by then, it waits for its scan: it has claimed nothing.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(Atomics.load(lanes.next, 0)).toBe(1);
      worker.postMessage({ ranges, lanes });
      await ended;
    } finally {
      await worker.terminate();
    }
    const here = await Promise.all(ranges.slice(1).map((job) => scanRange(job)));
    expect(posted).toEqual(here.map((r, k) => [k + 1, r]));
    expect([...lanes.done].slice(1)).toEqual(here.map((r) => r.endOffset - r.start));
    expect(ranges.length).toBeGreaterThan(5);
  });

  test('ranges shrink towards the end, from the largest down to 4 MiB', () => {
    const MiB = 1024 * 1024;
    for (const [size, jobs] of [
      [1e9, 2],
      [3e9, 8],
      [50 * MiB, 2],
    ] as const) {
      const cuts = [100, ...planSplits(100, size, jobs, 64 * MiB), size];
      const steps = cuts.slice(1).map((c, k) => c - (cuts[k] as number));
      expect(steps.every((s) => s > 0 && s <= 64 * MiB)).toBe(true);
      // Each range is no longer than the one before, but for the last (what is left).
      expect(steps.slice(0, -1).every((s, k) => k === 0 || s <= (steps[k - 1] as number))).toBe(
        true,
      );
      expect(steps.slice(0, -1).every((s) => s >= 4 * MiB)).toBe(true);
      expect(steps.at(-1)).toBeLessThanOrEqual(4 * MiB);
    }
    expect(planSplits(0, 1000, 2, 300)).toEqual([300, 600, 900]);
  });
});

describe('workers started before the head is read', () => {
  test('a full check that scans nothing, or everything, leaves none of its workers running', async () => {
    const doc: ImportDocument = {
      csvConfig: {
        firstDataRow: 2,
        timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_UNIX_SECONDS' },
        dataColumns: { '2': { name: 'a', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' } },
      },
    };
    // 3 MB in ranges of 1 MiB: a worker a core is started before the head is read.
    const o = { full: true, jobs: 2, rangeBytes: 1 << 20 };
    const big = fileOf(`time,a\n${'1700000000,1.5\n'.repeat(210_000)}`);
    const oneLong = fileOf(`time,a\n${' '.repeat(3_000_000)}`);
    // The thread pool and the modules, in place before counting.
    await checkConfig(doc, big.path, o);
    await settle();
    const before = threads();
    const scanned = await checkConfig(doc, big.path, o);
    expect(scanned.filter((i) => i.severity === 'error')).toEqual([]);
    // Its first data row past the file's end: nothing is scanned.
    const past = { csvConfig: { ...doc.csvConfig, firstDataRow: 5 } } as ImportDocument;
    const none = await checkConfig(past, oneLong.path, o);
    expect(none.map((i) => i.code)).toContain('csv_no_data_rows');
    await settle();
    if (before !== undefined) expect(threads()).toBe(before);
  });
});

describe('the field counts of the data rows', () => {
  const widthArb = fc.constantFrom(1, 2, 4, 63, 64, 65, 200, 1023, 1024, 1500);

  test('are counted whatever the rows are wide, in one range or several', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(widthArb, { minLength: 1, maxLength: 12 }),
        fc.array(fc.integer({ min: 1, max: 40_000 }), { maxLength: 3 }),
        async (widths, cuts) => {
          const rows = [
            'time,a,b,c',
            ...widths.map((w, i) => [i, ...Array(w - 1).fill('1')].join(',')),
          ];
          const text = `${rows.join('\n')}\n`;
          const { path, size } = fileOf(text);
          const expected = new Map<number, number>();
          for (const w of widths) if (w < 1024) expected.set(w, (expected.get(w) ?? 0) + 1);
          const splits = [...new Set(cuts.filter((c) => c < size))].sort((a, b) => a - b);
          const options = { delimiter: ',', spec: SPEC, checkFrom: 2, jobs: 1 };
          for (const o of [options, { ...options, splits }]) {
            const counts = (await scanFull(path, size, o)).tally.fieldCounts;
            const seen = new Map<number, number>();
            counts.forEach((c, w) => {
              if (c > 0) seen.set(w, c);
            });
            expect(seen).toEqual(expected);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
