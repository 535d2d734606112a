import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { TdmsWriter } from '../../scripts/fixtures/tdms-writer.js';
import { concat, UlogWriter } from '../../scripts/fixtures/ulog-writer.js';
import { type ConfigRows, readConfigRows } from '../../src/check/index.js';
import { readTdmsSourceValues } from '../../src/formats/tdms/raw.js';
import { memorySource } from '../../src/inspect/byte-source.js';
import type { ImportDocument } from '../../src/model/document.js';

const fixtures = join(import.meta.dirname, '..', '..', 'fixtures', 'preview');

/** Every row read, per channel name: [time, value] pairs. */
async function collect(rows: ConfigRows | undefined) {
  const out: Record<string, Array<[number, number | string | null]>> = {};
  if (!rows) throw new Error('no rows');
  const read = await rows.read((b) => {
    b.channels.forEach((c, j) => {
      const name = rows.channels[c]?.name ?? '?';
      out[name] ??= [];
      const list = out[name];
      const col = b.columns[j] as Float64Array | Array<string | null>;
      for (let i = 0; i < b.length; i++) list.push([b.times[i] as number, col[i] ?? null]);
    });
  });
  return { read, out };
}

async function fixtureRows(config: string, data: string, full = true) {
  const document = parse(readFileSync(join(fixtures, config), 'utf8')) as ImportDocument;
  return collect(await readConfigRows(document, join(fixtures, data), { full }));
}

describe('TDMS and ULog rows', () => {
  test('the TDMS and ULog fixtures read as the same rows as the CSV of the table', async () => {
    const csv = await fixtureRows('channels.csv.yaml', 'channels.csv');
    const tdms = await fixtureRows('channels.tdms.yaml', 'channels.tdms');
    const ulog = await fixtureRows('channels.ulg.yaml', 'channels.ulg');
    expect(csv.read).toEqual({ rows: 600, complete: true, notes: [] });
    expect(tdms.read).toEqual(csv.read);
    expect(ulog.read.complete).toBe(true);
    expect(tdms.out).toEqual(csv.out);
    expect(ulog.out).toEqual(csv.out);
  });

  test('the platform examples: waveform timing, a timestamp channel, GPS-anchored ULog', async () => {
    const examples = join(fixtures, '..', 'platform-examples');
    const read = async (document: ImportDocument, file: string) =>
      collect(await readConfigRows(document, join(examples, file)));
    const wf = await read(
      { tdmsConfig: { data: [{ groupName: 'Measurements', channelName: 'channel_0' }] } },
      'tdms-waveform.tdms',
    );
    const series = wf.out['Measurements.channel_0'] ?? [];
    // wf_start_time 2024-10-07T17:00:00Z, wf_increment 0.02 s, 100 values.
    expect([series.length, series[0]?.[0], series[99]?.[0]]).toEqual([
      100,
      Date.parse('2024-10-07T17:00:00Z'),
      Date.parse('2024-10-07T17:00:01.98Z'),
    ]);
    const ul = await read(
      {
        ulogConfig: {
          data: [
            { messageName: 'sensor_accel', instance: '0', fieldName: 'z' },
            { messageName: 'log_messages' },
          ],
        },
      },
      'ulog-sample.ulg',
    );
    expect(ul.read).toEqual({ rows: 52, complete: true, notes: [] });
    expect(ul.out.log_messages?.[0]).toEqual([
      Date.parse('2026-01-01T00:00:01Z'),
      'Takeoff detected',
    ]);
    expect(ul.out['sensor_accel_0.z']?.[0]?.[0]).toBe(Date.parse('2026-01-01T00:00:00Z'));
  });
});

describe('TDMS raw data reader', () => {
  /** Segments of two channels, `a` = value index (f64) and `b` = -2 × index (i32). */
  function file(segments: Array<{ count: number; chunks: number; il: boolean; be: boolean }>) {
    const w = new TdmsWriter();
    const parts: Uint8Array[] = [];
    let index = 0;
    for (const s of segments) {
      const seg = w.segment({
        objects: [
          { path: ['g'] },
          { path: ['g', 'a'], data: { type: 'f64', count: s.count } },
          { path: ['g', 'b'], data: { type: 'i32', count: s.count } },
        ],
        interleaved: s.il,
        bigEndian: s.be,
        chunks: s.chunks,
      });
      const raw = new Uint8Array(seg.rawLength);
      const v = new DataView(raw.buffer);
      let at = 0;
      const put = (kind: 'a' | 'b', i: number) => {
        if (kind === 'a') v.setFloat64(at, i, !s.be);
        else v.setInt32(at, -2 * i, !s.be);
        at += kind === 'a' ? 8 : 4;
      };
      for (let c = 0; c < s.chunks; c++) {
        const first = index + c * s.count;
        if (s.il) {
          for (let i = 0; i < s.count; i++) {
            put('a', first + i);
            put('b', first + i);
          }
        } else {
          for (let i = 0; i < s.count; i++) put('a', first + i);
          for (let i = 0; i < s.count; i++) put('b', first + i);
        }
      }
      index += s.count * s.chunks;
      parts.push(seg.head, raw);
    }
    return { bytes: concat(parts), total: index };
  }

  test('property: any layout and ranges give exactly the values in the ranges, in order', async () => {
    const segment = fc.record({
      count: fc.integer({ min: 1, max: 20 }),
      chunks: fc.integer({ min: 1, max: 3 }),
      il: fc.boolean(),
      be: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(segment, { minLength: 1, maxLength: 5 }),
        fc.uniqueArray(fc.integer({ min: 0, max: 400 }), { maxLength: 6 }),
        async (segments, cuts) => {
          const { bytes, total } = file(segments);
          const points = [...new Set(cuts.map((c) => c % (total + 1)))].sort((x, y) => x - y);
          const ranges: Array<[number, number]> = [];
          for (let i = 0; i + 1 < points.length; i += 2) {
            ranges.push([points[i] as number, points[i + 1] as number]);
          }
          const got: number[][] = [[], []];
          await readTdmsSourceValues(
            memorySource(bytes),
            [
              { path: "/'g'/'a'", ranges },
              { path: "/'g'/'b'", ranges },
            ],
            (r, values) => got[r]?.push(...(values as Float64Array)),
          );
          const want = ranges.flatMap(([s, e]) => Array.from({ length: e - s }, (_, i) => s + i));
          expect(got).toEqual([want, want.map((i) => -2 * i + 0)]);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('ULog sampled reads', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'importkit-rows-ulog-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('slices start on message boundaries; --full reads every message', async () => {
    // 180,000 messages of two sizes and some logged texts: about 5 MB, past the 4 MiB sampled.
    const w = new UlogWriter(0n);
    w.format({
      name: 'a',
      fields: [
        { type: 'uint64_t', name: 'timestamp' },
        { type: 'double', name: 'v' },
      ],
    });
    w.format({
      name: 'b',
      fields: [
        { type: 'uint64_t', name: 'timestamp' },
        { type: 'uint8_t', name: 'pad', array: 23 },
      ],
    });
    w.subscribe(0, 0, 'a').subscribe(0, 1, 'b');
    const n = 90_000;
    for (let i = 0; i < n; i++) {
      const a = new Uint8Array(16);
      new DataView(a.buffer).setBigUint64(0, BigInt(i * 1000), true);
      new DataView(a.buffer).setFloat64(8, i, true);
      w.data(0, a);
      const b = new Uint8Array(31).fill(0x44);
      w.data(1, b);
      if (i % 1000 === 0) w.log(6, BigInt(i * 1000), `at ${i}`);
    }
    const path = join(dir, 'long.ulg');
    await writeFile(path, w.bytes());
    const document: ImportDocument = {
      ulogConfig: {
        relativeStartTime: '2024-01-01T00:00:00Z',
        data: [
          {
            messageName: 'a',
            instance: '0',
            fieldName: 'v',
            channelConfig: { name: 'v', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' },
          },
          { messageName: 'log_messages' },
        ],
      },
    };
    const start = Date.parse('2024-01-01T00:00:00Z');
    const sampled = await collect(await readConfigRows(document, path));
    const full = await collect(await readConfigRows(document, path, { full: true }));
    const v = sampled.out.v ?? [];
    expect(sampled.read.complete).toBe(false);
    expect(v.length).toBeLessThan(n);
    // Each value is its message's own: value i at i ms.
    expect(v.filter(([t, x]) => t !== start + (x as number))).toEqual([]);
    expect(v.at(-1)).toEqual([start + n - 1, n - 1]);
    expect(full.read).toEqual({ rows: n + n / 1000, complete: true, notes: [] });
    expect(full.out.log_messages?.length).toBe(n / 1000);
  });
});
