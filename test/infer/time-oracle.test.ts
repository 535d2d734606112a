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
import { readConfigRows } from '../../src/check/index.js';
import { inferConfig } from '../../src/infer/index.js';
import type { ImportDocument } from '../../src/model/index.js';
import { expectTimes, rfc3339At, ulogOfRows } from '../helpers/oracle-files.js';

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
    case 'rfc3339':
      return rfc3339At(t, offset);
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

/** The draft infer makes of `path`, which must have no error, and the times it reads. */
async function draftTimes(
  path: string,
  options: { relativeStartTime?: string } = {},
  only?: (name: string) => boolean,
): Promise<{ document: ImportDocument; times: number[] }> {
  const draft = await inferConfig(path, options);
  const errors = draft.issues.filter((i) => i.severity === 'error');
  expect(errors.map((i) => `${i.code}: ${i.message}`)).toEqual([]);
  const document = draft.document as ImportDocument;
  return { document, times: await timesRead(document, path, only) };
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
        const { document, times: read } = await draftTimes(path);
        expect(document.csvConfig?.timeColumn?.format).toBe(CSV_FORMATS[time]);
        expectTimes(read, times);
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
        const { document, times: read } = await draftTimes(path);
        expect(document.parquetConfig?.flatDataset?.timeColumn?.format).toBe(format);
        expectTimes(read, times);
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
        const { document, times: read } = await draftTimes(path, { relativeStartTime: start });
        expect(document.csvConfig?.timeColumn?.format).toBe(format);
        expectTimes(read, times);
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
        expectTimes((await draftTimes(path)).times, times);
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
        expectTimes((await draftTimes(path)).times, times);
        rmSync(path);
      },
    ),
    { numRuns: 30 },
  );
});

test('ULog: the draft places every message at its time by the GPS, to the µs', async () => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 0, max: 999 }), timesArb, async (micros, times) => {
      // Boot at START (and `micros` µs); a GPS message at 0.5 s says so, to the µs.
      const bootUs = BigInt(START) * 1000n + BigInt(micros);
      const rows = times.map((t, i) => ({ ts: BigInt(t - START) * 1000n, v: i / 4 }));
      const path = join(dir, `u${n++}.ulg`);
      writeFileSync(path, ulogOfRows(rows, { bootUs }));
      // The draft imports every message: the rows of `m` are those on its axis.
      const { times: got } = await draftTimes(path, {}, (name) => name.startsWith('m_0.'));
      expectTimes(
        got,
        times.map((t) => t + micros / 1000),
      );
      rmSync(path);
    }),
    { numRuns: 30 },
  );
});

test('a unit in the name wins over a unix unit the magnitudes would fit', async () => {
  // Half a second and on, in ns: as unix seconds these would be 1990.
  const ns = [632_000_000, 633_000_000, 634_000_000];
  const start = new Date(START).toISOString();
  const csv = join(dir, `named${n++}.csv`);
  writeFileSync(csv, `t_ns,v\n${ns.map((t, i) => `${t},${i}`).join('\n')}\n`);
  const fromCsv = await draftTimes(csv, { relativeStartTime: start });
  expect(fromCsv.document.csvConfig?.timeColumn?.format).toBe('TIME_FORMAT_RELATIVE_NANOSECONDS');
  expectTimes(
    fromCsv.times,
    ns.map((t) => START + t / 1e6),
  );
  const h5 = join(dir, `named${n++}.h5`);
  await writeHdf5(h5, [
    { path: '/t_ns', kind: 'int64', values: ns.map(BigInt) },
    { path: '/v', kind: 'float64', values: [0, 1, 2], attachScale: '/t_ns' },
  ]);
  const fromH5 = await inferConfig(h5, { relativeStartTime: start });
  expect((fromH5.document as ImportDocument).hdf5Config?.timeFormat).toBe(
    'TIME_FORMAT_RELATIVE_NANOSECONDS',
  );
  // The same unit in the name and the magnitudes: unix.
  const unix = join(dir, `named${n++}.csv`);
  writeFileSync(unix, `time_s,v\n1709294400,0\n1709294401,1\n`);
  const fromUnix = await draftTimes(unix);
  expect(fromUnix.document.csvConfig?.timeColumn?.format).toBe('TIME_FORMAT_ABSOLUTE_UNIX_SECONDS');
  for (const p of [csv, h5, unix]) rmSync(p);
});
