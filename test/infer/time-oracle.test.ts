/**
 * Infer reads the times right. fast-check writes files whose times are plainly of one
 * format, and the draft infer makes must read back every row at the time it was written
 * (through `readConfigRows`, what `preview` shows and the import reads), with no error:
 * - CSV: unix seconds to nanoseconds of this decade, RFC 3339 at any offset, a date-time,
 *   in a column named only `time`; relative times named with their unit (`time_s`,
 *   `t ns`), with the start given;
 * - Parquet: TIMESTAMPs of each unit;
 * - HDF5: time datasets read by their values or their CF units attribute;
 * - TDMS: timestamp channels and waveforms;
 * - ULog: a message's timestamps, the log placed by its GPS time.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { SchemaElement } from 'hyparquet';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import { afterAll, expect, test } from 'vitest';
import { type Scalar, writeHdf5 } from '../../scripts/fixtures/hdf5.js';
import { type PropSpec, type SegmentSpec, tdmsBytes } from '../../scripts/fixtures/tdms-writer.js';
import { UlogWriter, body as ulogBody } from '../../scripts/fixtures/ulog-writer.js';
import { readConfigRows } from '../../src/check/index.js';
import { inferConfig } from '../../src/infer/index.js';
import type { ImportDocument } from '../../src/model/index.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-infer-time-oracle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const START = Date.UTC(2024, 2, 1, 12, 0, 0);

/** Times of whole ms from START, each step up to 5 s, some repeated. */
const timesArb = fc
  .array(fc.integer({ min: 0, max: 5_000 }), { minLength: 3, maxLength: 40 })
  .map((steps) => {
    let t = START;
    return steps.map((s) => {
      t += s;
      return t;
    });
  });

const CSV_FORMATS = {
  unix_s: 'TIME_FORMAT_ABSOLUTE_UNIX_SECONDS',
  unix_ms: 'TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS',
  unix_us: 'TIME_FORMAT_ABSOLUTE_UNIX_MICROSECONDS',
  unix_ns: 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS',
  rfc3339: 'TIME_FORMAT_ABSOLUTE_RFC3339',
  datetime: 'TIME_FORMAT_ABSOLUTE_DATETIME',
} as const;
type CsvTime = keyof typeof CSV_FORMATS;

function csvTime(t: number, time: CsvTime, offset: number): string {
  switch (time) {
    case 'unix_s':
      return (t / 1000).toFixed(3);
    case 'unix_ms':
      return String(t);
    case 'unix_us':
      return String(BigInt(t) * 1000n);
    case 'unix_ns':
      return String(BigInt(t) * 1_000_000n);
    case 'rfc3339': {
      if (offset === 0) return new Date(t).toISOString();
      const local = new Date(t + offset * 60_000).toISOString().slice(0, -1);
      const m = Math.abs(offset);
      const hhmm = `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
      return `${local}${offset < 0 ? '-' : '+'}${hhmm}`;
    }
    case 'datetime':
      return new Date(t).toISOString().slice(0, -1);
  }
}

/** Every row's time as the draft reads it (of the channels named `only`, when given). */
async function timesRead(
  document: ImportDocument,
  path: string,
  only?: (name: string) => boolean,
): Promise<number[]> {
  const rows = await readConfigRows(document, path, { full: true });
  if (!rows) throw new Error('no rows');
  const out: number[] = [];
  await rows.read((b) => {
    if (only && !b.channels.some((c) => only(rows.channels[c]?.name ?? ''))) return;
    for (let i = 0; i < b.length; i++) out.push(b.times[i] as number);
  });
  return out;
}

function expectTimes(got: number[], times: readonly number[]) {
  expect(got.length).toBe(times.length);
  times.forEach((t, i) => {
    expect(Math.abs((got[i] as number) - t), `row ${i + 1}: read as ${got[i]}`).toBeLessThan(1e-3);
  });
}

let n = 0;

test('CSV: the draft reads every time as written', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...(Object.keys(CSV_FORMATS) as CsvTime[])),
      fc.constantFrom(0, 60, -300, 330),
      timesArb,
      async (time, offset, times) => {
        const path = join(dir, `c${n++}.csv`);
        const lines = ['time,v', ...times.map((t, i) => `${csvTime(t, time, offset)},${i / 4}`)];
        writeFileSync(path, `${lines.join('\n')}\n`);
        const draft = await inferConfig(path);
        const errors = draft.issues.filter((i) => i.severity === 'error');
        expect(errors.map((i) => `${i.code}: ${i.message}`)).toEqual([]);
        const document = draft.document as ImportDocument;
        expect(document.csvConfig?.timeColumn?.format).toBe(CSV_FORMATS[time]);
        expectTimes(await timesRead(document, path), times);
        rmSync(path);
      },
    ),
    { numRuns: 60 },
  );
});

const PARQUET_TIMES = {
  timestamp_ms: ['MILLIS', 'TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS'],
  timestamp_us: ['MICROS', 'TIME_FORMAT_ABSOLUTE_UNIX_MICROSECONDS'],
  timestamp_ns: ['NANOS', 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS'],
} as const;
type ParquetTime = keyof typeof PARQUET_TIMES;

test('Parquet: the draft reads every TIMESTAMP as written', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...(Object.keys(PARQUET_TIMES) as ParquetTime[])),
      timesArb,
      async (time, times) => {
        const [unit, format] = PARQUET_TIMES[time];
        const schema: SchemaElement[] = [
          { name: 'root', num_children: 2 },
          {
            name: 'time',
            repetition_type: 'REQUIRED',
            type: 'INT64',
            logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit },
          },
          { name: 'v', repetition_type: 'REQUIRED', type: 'DOUBLE' },
        ];
        const scale = unit === 'MILLIS' ? 1n : unit === 'MICROS' ? 1000n : 1_000_000n;
        const writer = new ByteWriter();
        const pw = new ParquetWriter({ writer, schema });
        pw.write({
          columnData: [
            { name: 'time', data: times.map((t) => BigInt(t) * scale) },
            { name: 'v', data: times.map((_, i) => i / 4) },
          ] as never,
        });
        pw.finish();
        const path = join(dir, `p${n++}.parquet`);
        writeFileSync(path, writer.getBytes());
        const draft = await inferConfig(path);
        const errors = draft.issues.filter((i) => i.severity === 'error');
        expect(errors.map((i) => `${i.code}: ${i.message}`)).toEqual([]);
        const document = draft.document as ImportDocument;
        expect(document.parquetConfig?.flatDataset?.timeColumn?.format).toBe(format);
        expectTimes(await timesRead(document, path), times);
        rmSync(path);
      },
    ),
    { numRuns: 30 },
  );
});

/** Relative times named with their unit, and the start given to infer. */
const RELATIVE = {
  time_s: ['TIME_FORMAT_RELATIVE_SECONDS', 1000],
  time_ms: ['TIME_FORMAT_RELATIVE_MILLISECONDS', 1],
  elapsed_us: ['TIME_FORMAT_RELATIVE_MICROSECONDS', 0.001],
  t_ns: ['TIME_FORMAT_RELATIVE_NANOSECONDS', 0.000001],
} as const;
type Relative = keyof typeof RELATIVE;

test('CSV: relative times named with their unit read from the start given', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...(Object.keys(RELATIVE) as Relative[])),
      fc.constantFrom(' ', '-', '_'),
      timesArb,
      async (name, space, times) => {
        const [format, msPer] = RELATIVE[name];
        const path = join(dir, `r${n++}.csv`);
        const rel = (t: number) =>
          msPer >= 1 ? String((t - START) / msPer) : String(BigInt(t - START) * BigInt(1 / msPer));
        const header = name.replace('_', space);
        const lines = [`${header},v`, ...times.map((t, i) => `${rel(t)},${i / 4}`)];
        writeFileSync(path, `${lines.join('\n')}\n`);
        const start = new Date(START).toISOString();
        const draft = await inferConfig(path, { relativeStartTime: start });
        const errors = draft.issues.filter((i) => i.severity === 'error');
        expect(errors.map((i) => `${i.code}: ${i.message}`)).toEqual([]);
        const document = draft.document as ImportDocument;
        expect(document.csvConfig?.timeColumn?.format).toBe(format);
        expectTimes(await timesRead(document, path), times);
        rmSync(path);
      },
    ),
    { numRuns: 40 },
  );
});

/** HDF5 time datasets: how stored, with what units attribute. */
const HDF5_TIMES = {
  unix_s: { kind: 'float64', value: (t: number): Scalar => t / 1000 },
  unix_ns: { kind: 'int64', value: (t: number): Scalar => BigInt(t) * 1_000_000n },
  rfc3339: { kind: 'string', value: (t: number): Scalar => new Date(t).toISOString() },
  cf_relative_s: {
    kind: 'float64',
    value: (t: number): Scalar => (t - START) / 1000,
    units: 'seconds since 2024-03-01 12:00:00',
  },
  cf_unix_ms: {
    kind: 'int64',
    value: (t: number): Scalar => BigInt(t),
    units: 'milliseconds since 1970-01-01T00:00:00Z',
  },
} as const;
type Hdf5Time = keyof typeof HDF5_TIMES;

test('HDF5: the draft reads every time as written, by its values or its CF units', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...(Object.keys(HDF5_TIMES) as Hdf5Time[])),
      timesArb,
      async (time, times) => {
        const spec = HDF5_TIMES[time];
        const path = join(dir, `h${n++}.h5`);
        await writeHdf5(path, [
          {
            path: '/time',
            kind: spec.kind,
            values: times.map(spec.value),
            ...('units' in spec ? { attrs: { units: spec.units } } : {}),
          },
          { path: '/v', kind: 'float64', values: times.map((_, i) => i / 4) },
        ]);
        const draft = await inferConfig(path);
        const errors = draft.issues.filter((i) => i.severity === 'error');
        expect(errors.map((i) => `${i.code}: ${i.message}`)).toEqual([]);
        expectTimes(await timesRead(draft.document as ImportDocument, path), times);
        rmSync(path);
      },
    ),
    { numRuns: 30 },
  );
});

test('TDMS: the draft reads every time as written, from a timestamp channel or a waveform', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('timestamp', 'waveform'),
      fc.integer({ min: 1, max: 1000 }),
      timesArb,
      async (timing, stepMs, written) => {
        const waveform = timing === 'waveform';
        const times = waveform ? written.map((_, i) => START + i * stepMs) : written;
        const props: PropSpec[] = [
          { name: 'wf_start_time', type: 'timestamp', value: new Date(START).toISOString() },
          { name: 'wf_increment', type: 'f64', value: stepMs / 1000 },
        ];
        const count = times.length;
        const segments: SegmentSpec[] = [
          {
            objects: [
              { path: ['G'] },
              ...(waveform ? [] : [{ path: ['G', 'Time'], data: { type: 'timestamp', count } }]),
              {
                path: ['G', 'v'],
                ...(waveform ? { properties: props } : {}),
                data: { type: 'f64', count },
              },
            ],
            values: {
              ...(waveform ? {} : { 'G/Time': times.map((t) => new Date(t).toISOString()) }),
              'G/v': times.map((_, i) => i / 4),
            },
          } as SegmentSpec,
        ];
        const path = join(dir, `t${n++}.tdms`);
        writeFileSync(path, tdmsBytes(segments).data);
        const draft = await inferConfig(path);
        const errors = draft.issues.filter((i) => i.severity === 'error');
        expect(errors.map((i) => `${i.code}: ${i.message}`)).toEqual([]);
        expectTimes(await timesRead(draft.document as ImportDocument, path), times);
        rmSync(path);
      },
    ),
    { numRuns: 30 },
  );
});

test('ULog: the draft places every message at its time by the GPS, to the µs', async () => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 0, max: 999 }), timesArb, async (micros, times) => {
      const w = new UlogWriter(1_000_000n);
      w.flagBits();
      w.format({
        name: 'm',
        fields: [
          { type: 'uint64_t', name: 'timestamp' },
          { type: 'double', name: 'v' },
        ],
      });
      w.format({
        name: 'sensor_gps',
        fields: [
          { type: 'uint64_t', name: 'timestamp' },
          { type: 'uint64_t', name: 'time_utc_usec' },
        ],
      });
      w.subscribe(0, 0, 'm');
      w.subscribe(0, 1, 'sensor_gps');
      // Boot at START (and `micros` µs); the GPS message at 0.5 s says so, to the µs.
      const boot = BigInt(START) * 1000n + BigInt(micros);
      w.data(1, ulogBody(16, 500_000n, [[8, boot + 500_000n]]));
      for (const [i, t] of times.entries()) {
        const b = new Uint8Array(16);
        const dv = new DataView(b.buffer);
        dv.setBigUint64(0, BigInt(t - START) * 1000n, true);
        dv.setFloat64(8, i / 4, true);
        w.data(0, b);
      }
      const path = join(dir, `u${n++}.ulg`);
      writeFileSync(path, w.bytes());
      const draft = await inferConfig(path);
      const errors = draft.issues.filter((i) => i.severity === 'error');
      expect(errors.map((i) => `${i.code}: ${i.message}`)).toEqual([]);
      // The draft imports every message: the rows of `m` are those on its axis.
      const got = await timesRead(draft.document as ImportDocument, path, (name) =>
        name.startsWith('m_0.'),
      );
      expectTimes(
        got,
        times.map((t) => t + micros / 1000),
      );
      rmSync(path);
    }),
    { numRuns: 30 },
  );
});
