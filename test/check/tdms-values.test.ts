/**
 * The TDMS check reads values: the findings of each fixture (fixtures/check-tdms, written
 * by `npm run fixtures -- check-tdms` with the findings the generator put in the file) are
 * compared whole, `--full` and sampled (these files are small: the sampled check reads every
 * value too, and says its findings are of the values read).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type SegmentSpec, tdmsBytes } from '../../scripts/fixtures/tdms-writer.js';
import { checkConfig } from '../../src/check/index.js';
import { checkTdms } from '../../src/formats/tdms/check.js';
import { inspectTdms } from '../../src/formats/tdms/inspect.js';
import type { WalkStart } from '../../src/formats/tdms/walk-starts.js';
import { inferConfig } from '../../src/infer/index.js';
import { countingSource, memorySource, openFileSource } from '../../src/inspect/byte-source.js';
import type { ImportDocument } from '../../src/model/document.js';
import type { Issue } from '../../src/model/issue.js';
import type { TdmsConfig } from '../../src/model/tdms.js';
import { valueFindingTests } from '../helpers/value-findings.js';

const VALUE_CODES = new Set([
  'time_decreasing',
  'time_repeated',
  'time_not_parseable',
  'value_not_finite',
  'value_outside_type',
  'enum_value_unknown',
  'tdms_raw_data_invalid',
]);

describe('TDMS check: value findings', () => {
  const fixtures = valueFindingTests('check-tdms', '.tdms', VALUE_CODES);
  test('clean: the whole check finds nothing, sampled or full', async () => {
    const { document } = fixtures.load('clean');
    for (const full of [false, true]) {
      expect(await checkConfig(document, fixtures.file('clean'), { full })).toEqual([]);
    }
  });
});

describe('TDMS check: what the sampled check and --full read', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'importkit-tdms-values-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /**
   * 25,000 rows in five segments of 5,000: a time channel that steps back at row 12,001 (in
   * the middle) and a channel with NaN at rows 15,000 (the middle) and 24,500 (the tail).
   */
  async function longFile(): Promise<{ path: string; size: number }> {
    const segments = evenSegments(5, 5000, (r) => ({
      ms: (r < 12_000 ? r : r - 5000) * 10,
      v: r === 14_999 || r === 24_499 ? Number.NaN : r,
    }));
    const path = join(dir, 'long.tdms');
    const bytes = tdmsBytes(segments).data;
    await writeFile(path, bytes);
    return { path, size: bytes.byteLength };
  }
  const document: ImportDocument = {
    tdmsConfig: {
      assetName: 'long',
      data: [
        {
          groupName: 'W',
          channelName: 'v',
          timeChannelName: 'Time',
          channelConfig: { name: 'W.v', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' },
        },
      ],
    },
  };
  const said = (issues: Issue[]) => issues.map((i) => [i.code, i.message]);

  test('sampled: the first and last 10,000 values of each channel; full: every value, with progress in bytes', async () => {
    const { path, size } = await longFile();
    // A source that is not a file on disk is read through as it is: its count is the check's.
    const source = memorySource(await readFile(path), 'long.tdms');
    const sampled = await checkTdms(document.tdmsConfig as TdmsConfig, source);
    await source.close();
    // A file on disk is read with blocking reads through a source of its own (the walk
    // and the values alike): the source given reads nothing, and the findings are the same.
    const file = await openFileSource(path);
    const fromDisk = await checkTdms(document.tdmsConfig as TdmsConfig, file);
    await file.close();
    expect(file.bytesRead).toBe(0);
    expect(said(fromDisk)).toEqual(said(sampled));
    expect(said(sampled)).toEqual([
      [
        'value_not_finite',
        "channel 'W/v' (in the values read) holds 1 NaN; first at row 24500 (segment 5)",
      ],
    ]);
    // The third segment (rows 10,001 to 15,000: 5,000 timestamps and doubles) is not read;
    // the metadata (a few hundred bytes) is read twice, by inspection and by the value walk.
    expect(source.bytesRead).toBeLessThan(size - 5000 * 24 + 1024);
    const progress: Array<[number, number]> = [];
    const full = await checkConfig(document, path, {
      full: true,
      onProgress: (done, total) => progress.push([done, total]),
    });
    expect(said(full)).toEqual([
      [
        'time_decreasing',
        "the time of 'W/Time' goes backwards 1 time; first at row 12001 (segment 3)",
      ],
      ['value_not_finite', "channel 'W/v' holds 2 NaN; first at row 15000 (segment 3)"],
    ]);
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.every(([, total]) => total === size)).toBe(true);
    expect(progress.at(-1)).toEqual([size, size]);
  });

  /** A time channel of `stamps` (RFC 3339), in `segments` segments, beside a channel of doubles. */
  async function stampedFile(name: string, stamps: string[], segments = 1): Promise<string> {
    const per = Math.ceil(stamps.length / segments);
    const specs: SegmentSpec[] = Array.from({ length: segments }, (_, k) => {
      const part = stamps.slice(k * per, (k + 1) * per);
      return {
        ...(k === 0
          ? {
              objects: [
                { path: ['W'] },
                { path: ['W', 'Time'], data: { type: 'timestamp', count: part.length } },
                { path: ['W', 'v'], data: { type: 'f64', count: part.length } },
              ],
            }
          : { noMeta: true, objects: [] }),
        values: { 'W/Time': part, 'W/v': part.map((_, i) => i) },
      };
    });
    const path = join(dir, name);
    await writeFile(path, tdmsBytes(specs).data);
    return path;
  }

  /**
   * `count` segments of `per` rows, the first listing the objects, the others keeping them:
   * per row (counted over the file from 0), its timestamp (`ms` after 2024-03-01 12:00) and
   * its value of W/v.
   */
  function evenSegments(
    count: number,
    per: number,
    row: (r: number) => { ms: number; v: number },
  ): SegmentSpec[] {
    const t0 = Date.parse('2024-03-01T12:00:00Z');
    return Array.from({ length: count }, (_, k) => {
      const rows = Array.from({ length: per }, (_, i) => row(k * per + i));
      return {
        ...(k === 0
          ? {
              objects: [
                { path: ['W'] },
                { path: ['W', 'Time'], data: { type: 'timestamp', count: per } },
                { path: ['W', 'v'], data: { type: 'f64', count: per } },
              ],
            }
          : { noMeta: true, objects: [] }),
        values: {
          'W/Time': rows.map((r) => new Date(t0 + r.ms).toISOString()),
          'W/v': rows.map((r) => r.v),
        },
      };
    });
  }

  test('sampled: the walk to the last values begins at the start the inspection noted before them, not at the first segment', async () => {
    // 50 segments of 1,000 values: the first 10,000 are in segments 1-10, the last in 41-50.
    const segments = evenSegments(50, 1000, (r) => ({
      ms: r * 10,
      v: r === 3007 || r === 45_007 ? Number.NaN : r % 1000,
    }));
    const bytes = tdmsBytes(segments).data;
    const path = join(dir, 'fifty.tdms');
    await writeFile(path, bytes);
    const starts: WalkStart[] = [];
    await inspectTdms(path, { starts });
    const source = countingSource(memorySource(bytes, 'fifty.tdms'));
    const sampled = await checkTdms(document.tdmsConfig as TdmsConfig, source);
    expect(said(sampled)).toEqual([
      [
        'value_not_finite',
        "channel 'W/v' (in the values read) holds 2 NaN; first at row 3008 (segment 4)",
      ],
    ]);
    // Each segment's lead-in is read by the inspection; the values' walk reads those of
    // segments 1-10 (the first values), then from segment 41: the 30 between, once.
    const readsAt = (k: number) => {
      const at = starts.find((s) => s.segment === k)?.pos;
      return source.log.filter(([offset]) => offset === at).length;
    };
    expect(starts.map((s) => s.segment)).toEqual(Array.from({ length: 50 }, (_, k) => k + 1));
    expect([1, 10, 41, 50].map(readsAt)).toEqual([2, 2, 2, 2]);
    for (let k = 12; k <= 40; k++) expect(readsAt(k)).toBe(1);
  });

  test('--full reads a file of many small segments a window at a time (the walk and the values), finding what piece-by-piece reads find', async () => {
    const segments = evenSegments(300, 4, (r) => ({
      ms: r * 10,
      v: r === 1002 ? Number.NaN : r % 4,
    }));
    const bytes = tdmsBytes(segments).data;
    const source = countingSource(memorySource(bytes, 'small-segments.tdms'));
    const full = await checkTdms(document.tdmsConfig as TdmsConfig, source, { full: true });
    expect(said(full)).toEqual([
      ['value_not_finite', "channel 'W/v' holds 1 NaN; first at row 1003 (segment 251)"],
    ]);
    // Piece by piece, each segment is a read or more, walked twice (inspection, values):
    // 600 at least. Windows of 64 KiB to 1 MiB cover the file's 40 KiB in one each.
    expect(bytes.byteLength).toBeLessThan(64 * 1024);
    expect(source.log.length).toBeLessThanOrEqual(4);
  });

  test('timestamps outside the plausible dates: time_out_of_range, as a CSV check says, sampled or full', async () => {
    // A time channel left at TDMS's epoch: every timestamp 0, that is 1904-01-01, then a
    // second a row from there.
    const epoch = Date.parse('1904-01-01T00:00:00Z');
    const stamps = Array.from({ length: 30 }, (_, i) => new Date(epoch + i * 1000).toISOString());
    const path = await stampedFile('epoch.tdms', stamps);
    const ranged = (issues: Issue[]) => issues.filter((i) => i.code === 'time_out_of_range');
    const full = ranged(await checkConfig(document, path, { full: true }));
    expect(said(full)).toEqual([
      [
        'time_out_of_range',
        "the times of 'W/Time' fall between 1904-01-01 and 1904-01-01: outside 1971-2100",
      ],
    ]);
    expect(full[0]).toMatchObject({
      severity: 'warning',
      path: '/tdmsConfig/data/0/timeChannelName',
      source: { dataset: "/'W'/'Time'" },
    });
    const sampled = ranged(await checkConfig(document, path));
    expect(said(sampled)[0]?.[1]).toContain("the times of 'W/Time' (in the values read) fall");
    // infer reads its draft's values as check does, and says it of its draft.
    const draft = await inferConfig(path);
    expect(said(ranged(draft.issues))).toEqual(said(full));
    // Inside the dates: nothing said.
    const fine = await stampedFile(
      'fine.tdms',
      stamps.map((_, i) => new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString()),
    );
    expect(ranged(await checkConfig(document, fine, { full: true }))).toEqual([]);
    // Past what ns since 1970 in 64 bits hold: counted at 2262, and the message says so.
    const far = await stampedFile('far.tdms', ['2024-01-01T00:00:00Z', '3000-01-01T00:00:00Z']);
    expect(said(ranged(await checkConfig(document, far, { full: true })))).toEqual([
      [
        'time_out_of_range',
        "the times of 'W/Time' fall between 2024-01-01 and 2262-04-11: outside 1971-2100 (times before 1677 or after 2262 are counted at those dates)",
      ],
    ]);
  });

  test("one timestamp in 2150 among many: found whatever the jobs (the ranges' least and most joined)", async () => {
    const t0 = Date.UTC(2024, 0, 1);
    const stamps = Array.from({ length: 4000 }, (_, i) => new Date(t0 + i * 1000).toISOString());
    stamps[2345] = '2150-06-01T00:00:00.000Z';
    const path = await stampedFile('late.tdms', stamps, 8);
    const ranged = async (jobs: number) =>
      (await checkConfig(document, path, { full: true, jobs })).filter(
        (i) => i.code === 'time_out_of_range',
      );
    const one = await ranged(1);
    expect(said(one)).toEqual([
      [
        'time_out_of_range',
        "the times of 'W/Time' fall between 2024-01-01 and 2150-06-01: outside 1971-2100",
      ],
    ]);
    expect(await ranged(2)).toEqual(one);
  });
});
