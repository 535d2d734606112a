/**
 * The rows `preview` shows are the rows the config reads: fast-check writes a CSV of known
 * times and values, in every time format a CsvConfig declares (unix seconds to
 * nanoseconds, relative units from a start, RFC 3339 with `Z` or an offset, a date-time
 * without a zone, read as UTC), with numbers in any notation and empty cells, quoted or
 * not, lines ending in LF or CRLF, and
 * `readConfigRows` must give back each row's time (ms since 1970) and each value, in
 * order, every row read. The same for Parquet, its time stored as INT64 in a unit, as a
 * TIMESTAMP of each unit, as DOUBLE seconds, relative, or as text, in one to four row
 * groups, with null values; and TDMS, a channel timed by a timestamp channel, by relative
 * seconds or as a waveform, in one to three segments, interleaved or not, either byte order;
 * and HDF5, a time dataset of float seconds, integer ns or ms, relative seconds or text,
 * contiguous, chunked or deflated; and ULog, a message's field on its timestamp, the log
 * placed by relativeStartTime or by its GPS time (to the µs). Sampled reads of CSV, ULog,
 * Parquet, HDF5 and TDMS (a head, slices, a tail) give only rows of the file, in order, a
 * jump only where a batch says rows were passed over, and say the read is complete only
 * when it is.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { SchemaElement } from 'hyparquet';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { writeHdf5 } from '../../scripts/fixtures/hdf5.js';
import {
  type PropSpec,
  type RawValue,
  type SegmentSpec,
  tdmsBytes,
} from '../../scripts/fixtures/tdms-writer.js';
import { type ConfigRows, readConfigRows } from '../../src/check/index.js';
import { type ImportDocument, TimeFormat } from '../../src/model/index.js';
import { expectTimes, rfc3339At, ulogOfRows } from '../helpers/oracle-files.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-rows-oracle-'));
// What is read must not depend on the machine's zone: the file runs in one that is not UTC
// (a date-time without a zone is UTC to the import; `Date.parse` reads it as local time).
const zone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'America/New_York';
});
afterAll(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
  rmSync(dir, { recursive: true, force: true });
});

/** Every time format there is (the model's list), but UNSPECIFIED, without its prefix. */
type Format =
  Exclude<TimeFormat, 'TIME_FORMAT_UNSPECIFIED'> extends `TIME_FORMAT_${infer F}` ? F : never;
const FORMATS = TimeFormat.options
  .filter((f) => f !== 'TIME_FORMAT_UNSPECIFIED')
  .map((f) => f.slice('TIME_FORMAT_'.length) as Format);

/** Milliseconds a unit of each numeric format is. */
const UNIT_MS: Partial<Record<Format, number>> = {
  ABSOLUTE_UNIX_SECONDS: 1000,
  ABSOLUTE_UNIX_MILLISECONDS: 1,
  RELATIVE_MILLISECONDS: 1,
  RELATIVE_SECONDS: 1000,
  RELATIVE_MINUTES: 60_000,
  RELATIVE_HOURS: 3_600_000,
};

const START = Date.UTC(2024, 2, 1, 12, 0, 0);

/** A time of `t` ms since 1970 (whole ms) as written in `format` (RFC 3339 at an offset). */
function written(t: number, format: Format, offsetMinutes: number): string {
  const rel = t - START;
  switch (format) {
    case 'ABSOLUTE_UNIX_SECONDS':
      return (t / 1000).toFixed(3);
    case 'ABSOLUTE_UNIX_MICROSECONDS':
      return String(BigInt(t) * 1000n);
    case 'ABSOLUTE_UNIX_NANOSECONDS':
      return String(BigInt(t) * 1_000_000n);
    case 'RELATIVE_NANOSECONDS':
      return String(BigInt(rel) * 1_000_000n);
    case 'RELATIVE_MICROSECONDS':
      return String(BigInt(rel) * 1000n);
    case 'ABSOLUTE_RFC3339':
      return rfc3339At(t, offsetMinutes);
    case 'ABSOLUTE_DATETIME':
      return new Date(t).toISOString().slice(0, -1).replace('T', ' ');
    default: {
      const per = UNIT_MS[format] as number;
      const v = format.startsWith('RELATIVE_') ? rel / per : t / per;
      return String(v);
    }
  }
}

/** The times of a format: whole ms, in whole units for relative minutes and hours. */
function timesArb(format: Format) {
  const step = format === 'RELATIVE_HOURS' ? 3_600_000 : format === 'RELATIVE_MINUTES' ? 60_000 : 1;
  return fc
    .array(fc.integer({ min: 0, max: 5_000 }), { minLength: 1, maxLength: 40 })
    .map((steps) => {
      let t = START + (format.startsWith('RELATIVE_') ? 0 : 1234);
      return steps.map((s) => {
        t += s * step;
        return t;
      });
    });
}

/** A value and how it is written: plain, with an exponent, signed, or an empty cell. */
const valueArb = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }),
  },
  { weight: 2, arbitrary: fc.integer({ min: -1_000_000, max: 1_000_000 }) },
  { weight: 1, arbitrary: fc.constant(null) },
);

const caseArb = fc.constantFrom(...FORMATS).chain((format) =>
  fc.record({
    format: fc.constant(format),
    offset: fc.constantFrom(0, 60, -300, 330),
    eol: fc.constantFrom('\n', '\r\n'),
    quoted: fc.boolean(),
    rows: timesArb(format).chain((times) =>
      fc
        .array(fc.tuple(valueArb, fc.boolean()), {
          minLength: times.length,
          maxLength: times.length,
        })
        .map((vs) =>
          times.map((t, i) => ({
            t,
            v: (vs[i] as [number | null, boolean])[0],
            exp: (vs[i] as [number | null, boolean])[1],
          })),
        ),
    ),
  }),
);

function cellOf(v: number | null, exp: boolean): string {
  if (v === null) return '';
  return exp ? v.toExponential() : String(v);
}

async function rowsOf(rows: ConfigRows | undefined) {
  const times: number[] = [];
  const values: Array<number> = [];
  if (!rows) throw new Error('no rows');
  const read = await rows.read((b) => {
    for (let i = 0; i < b.length; i++) {
      times.push(b.times[i] as number);
      values.push((b.columns[0] as Float64Array)[i] as number);
    }
  });
  return { read, times, values };
}

/**
 * Every row read (`full`), each at its time with its value (NaN for an empty cell or null).
 */
function expectRows(
  got: Awaited<ReturnType<typeof rowsOf>>,
  want: ReadonlyArray<{ t: number; v: number | null }>,
): void {
  expect(got.read.complete).toBe(true);
  expectTimes(
    got.times,
    want.map((r) => r.t),
  );
  want.forEach((r, i) => {
    if (r.v === null) expect(got.values[i], `row ${i}`).toBeNaN();
    else expect(got.values[i], `row ${i}`).toBe(r.v);
  });
}

/** A relative format's start in a config, none for the others. */
const startOf = (format: string) =>
  format.startsWith('RELATIVE_') ? { relativeStartTime: new Date(START).toISOString() } : {};

let n = 0;

test('every row comes back with its time and value, in every time format', async () => {
  await fc.assert(
    fc.asyncProperty(caseArb, async ({ format, offset, eol, quoted, rows }) => {
      const path = join(dir, `r${n++}.csv`);
      const q = (cell: string) => (quoted ? `"${cell}"` : cell);
      const lines = [
        'time,v',
        ...rows.map((r) => `${q(written(r.t, format, offset))},${q(cellOf(r.v, r.exp))}`),
      ];
      writeFileSync(path, `${lines.join(eol)}${eol}`);
      const document = {
        csvConfig: {
          firstDataRow: 2,
          timeColumn: {
            columnNumber: 1,
            format: `TIME_FORMAT_${format}`,
            ...startOf(format),
          },
          dataColumns: { '2': { name: 'v', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' } },
        },
      } as ImportDocument;
      const got = await rowsOf(await readConfigRows(document, path, { full: true }));
      rmSync(path);
      expectRows(
        got,
        rows.map((r) => ({ t: r.t, v: r.v === null ? null : Number(cellOf(r.v, r.exp)) })),
      );
    }),
    { numRuns: 150 },
  );
});

/** How a Parquet time column is stored, and the format its config declares. */
const PARQUET_TIMES = {
  int64_ms: 'ABSOLUTE_UNIX_MILLISECONDS',
  int64_ns: 'ABSOLUTE_UNIX_NANOSECONDS',
  timestamp_ms: 'ABSOLUTE_UNIX_MILLISECONDS',
  timestamp_us: 'ABSOLUTE_UNIX_MICROSECONDS',
  timestamp_ns: 'ABSOLUTE_UNIX_NANOSECONDS',
  double_s: 'ABSOLUTE_UNIX_SECONDS',
  double_relative_s: 'RELATIVE_SECONDS',
  int64_relative_us: 'RELATIVE_MICROSECONDS',
  rfc3339: 'ABSOLUTE_RFC3339',
  datetime: 'ABSOLUTE_DATETIME',
} as const satisfies Record<string, Format>;
type ParquetTime = keyof typeof PARQUET_TIMES;

function parquetTimeElement(time: ParquetTime): Omit<SchemaElement, 'name' | 'repetition_type'> {
  const stamp = (unit: 'MILLIS' | 'MICROS' | 'NANOS') => ({
    type: 'INT64' as const,
    logical_type: { type: 'TIMESTAMP' as const, isAdjustedToUTC: true, unit },
  });
  switch (time) {
    case 'timestamp_ms':
      return stamp('MILLIS');
    case 'timestamp_us':
      return stamp('MICROS');
    case 'timestamp_ns':
      return stamp('NANOS');
    case 'double_s':
    case 'double_relative_s':
      return { type: 'DOUBLE' };
    case 'rfc3339':
    case 'datetime':
      return { type: 'BYTE_ARRAY', logical_type: { type: 'STRING' } };
    default:
      return { type: 'INT64' };
  }
}

/** A time of `t` ms since 1970 (whole ms) as stored. */
function parquetTimeValue(t: number, time: ParquetTime, offset: number): unknown {
  switch (time) {
    case 'int64_ms':
    case 'timestamp_ms':
      return BigInt(t);
    case 'timestamp_us':
      return BigInt(t) * 1000n;
    case 'int64_ns':
    case 'timestamp_ns':
      return BigInt(t) * 1_000_000n;
    case 'double_s':
      return t / 1000;
    case 'double_relative_s':
      return (t - START) / 1000;
    case 'int64_relative_us':
      return BigInt(t - START) * 1000n;
    case 'rfc3339':
      return written(t, 'ABSOLUTE_RFC3339', offset);
    case 'datetime':
      return written(t, 'ABSOLUTE_DATETIME', 0);
  }
}

const parquetCaseArb = fc
  .constantFrom(...(Object.keys(PARQUET_TIMES) as ParquetTime[]))
  .chain((time) =>
    fc.record({
      time: fc.constant(time),
      offset: fc.constantFrom(0, 60, -300, 330),
      groups: fc.integer({ min: 1, max: 4 }),
      rows: timesArb(PARQUET_TIMES[time]).chain((times) =>
        fc
          .array(valueArb, { minLength: times.length, maxLength: times.length })
          .map((vs) => times.map((t, i) => ({ t, v: vs[i] ?? null }))),
      ),
    }),
  );

test('Parquet: every row comes back with its time and value, in every way a time is stored', async () => {
  await fc.assert(
    fc.asyncProperty(parquetCaseArb, async ({ time, offset, groups, rows }) => {
      const schema: SchemaElement[] = [
        { name: 'root', num_children: 2 },
        { name: 't', repetition_type: 'REQUIRED', ...parquetTimeElement(time) },
        { name: 'v', repetition_type: 'OPTIONAL', type: 'DOUBLE' },
      ];
      const writer = new ByteWriter();
      const pw = new ParquetWriter({ writer, schema });
      const size = Math.ceil(rows.length / groups);
      for (let from = 0; from < rows.length; from += size) {
        const part = rows.slice(from, from + size);
        pw.write({
          rowGroupSize: part.length,
          columnData: [
            { name: 't', data: part.map((r) => parquetTimeValue(r.t, time, offset)) },
            { name: 'v', data: part.map((r) => r.v) },
          ] as never,
        });
      }
      pw.finish();
      const path = join(dir, `p${n++}.parquet`);
      writeFileSync(path, writer.getBytes());
      const format = PARQUET_TIMES[time];
      const document = {
        parquetConfig: {
          flatDataset: {
            timeColumn: {
              path: 't',
              format: `TIME_FORMAT_${format}`,
              ...(format.startsWith('RELATIVE_')
                ? { relativeStartTime: new Date(START).toISOString() }
                : {}),
            },
            dataColumns: [
              { path: 'v', channelConfig: { name: 'v', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' } },
            ],
          },
        },
      } as ImportDocument;
      const got = await rowsOf(await readConfigRows(document, path, { full: true }));
      rmSync(path);
      expectRows(got, rows);
    }),
    { numRuns: 15 },
  );
});

/** How a TDMS channel is timed: a timestamp channel, relative seconds, or as a waveform. */
type TdmsTiming = 'timestamp' | 'relative' | 'waveform';

const tdmsCaseArb = fc
  .record({
    timing: fc.constantFrom<TdmsTiming>('timestamp', 'relative', 'waveform'),
    segments: fc.integer({ min: 1, max: 3 }),
    interleaved: fc.boolean(),
    bigEndian: fc.boolean(),
    // Waveform: the step in ms; the others: times of whole ms.
    stepMs: fc.integer({ min: 1, max: 1000 }),
  })
  .chain((s) =>
    fc.record({
      s: fc.constant(s),
      rows: timesArb('ABSOLUTE_UNIX_MILLISECONDS').chain((times) =>
        fc
          .array(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }), {
            minLength: times.length,
            maxLength: times.length,
          })
          .map((vs) =>
            times.map((t, i) => ({
              t: s.timing === 'waveform' ? START + i * s.stepMs : t,
              v: vs[i] as number,
            })),
          ),
      ),
    }),
  );

test('TDMS: every row comes back with its time and value, timed by a channel or as a waveform', async () => {
  await fc.assert(
    fc.asyncProperty(tdmsCaseArb, async ({ s, rows }) => {
      const cuts = Array.from({ length: s.segments + 1 }, (_, k) =>
        Math.round((k * rows.length) / s.segments),
      );
      const waveform: PropSpec[] = [
        { name: 'wf_start_time', type: 'timestamp', value: new Date(START).toISOString() },
        { name: 'wf_increment', type: 'f64', value: s.stepMs / 1000 },
      ];
      const segments: SegmentSpec[] = cuts.slice(1).flatMap((end, k) => {
        const from = cuts[k] as number;
        const part = rows.slice(from, end);
        if (part.length === 0) return [];
        const timed = s.timing !== 'waveform';
        return [
          {
            ...(s.interleaved ? { interleaved: true } : {}),
            ...(s.bigEndian ? { bigEndian: true } : {}),
            objects: [
              { path: ['G'] },
              ...(timed
                ? [
                    {
                      path: ['G', 'Time'],
                      data: {
                        type: s.timing === 'timestamp' ? 'timestamp' : 'f64',
                        count: part.length,
                      },
                    },
                  ]
                : []),
              {
                path: ['G', 'v'],
                ...(!timed && from === 0 ? { properties: waveform } : {}),
                data: { type: 'f64', count: part.length },
              },
            ],
            values: {
              ...(timed
                ? {
                    'G/Time': part.map(
                      (r): RawValue =>
                        s.timing === 'timestamp'
                          ? new Date(r.t).toISOString()
                          : (r.t - START) / 1000,
                    ),
                  }
                : {}),
              'G/v': part.map((r) => r.v),
            },
          } as SegmentSpec,
        ];
      });
      const path = join(dir, `t${n++}.tdms`);
      writeFileSync(path, tdmsBytes(segments).data);
      const document = {
        tdmsConfig: {
          data: [
            {
              groupName: 'G',
              channelName: 'v',
              ...(s.timing === 'waveform' ? {} : { timeChannelName: 'Time' }),
              channelConfig: { name: 'v', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' },
            },
          ],
          ...(s.timing === 'relative'
            ? {
                timeFormat: 'TIME_FORMAT_RELATIVE_SECONDS',
                relativeStartTime: new Date(START).toISOString(),
              }
            : {}),
        },
      } as ImportDocument;
      const got = await rowsOf(await readConfigRows(document, path, { full: true }));
      rmSync(path);
      expectRows(got, rows);
    }),
    { numRuns: 15 },
  );
});

/** How an HDF5 time dataset is stored, and the format its config declares. */
const HDF5_TIMES = {
  float64_s: 'ABSOLUTE_UNIX_SECONDS',
  int64_ns: 'ABSOLUTE_UNIX_NANOSECONDS',
  int64_ms: 'ABSOLUTE_UNIX_MILLISECONDS',
  float64_relative_s: 'RELATIVE_SECONDS',
  rfc3339: 'ABSOLUTE_RFC3339',
  datetime: 'ABSOLUTE_DATETIME',
} as const satisfies Record<string, Format>;
type Hdf5Time = keyof typeof HDF5_TIMES;

function hdf5Time(t: number, time: Hdf5Time, offset: number): number | bigint | string {
  switch (time) {
    case 'float64_s':
      return t / 1000;
    case 'int64_ns':
      return BigInt(t) * 1_000_000n;
    case 'int64_ms':
      return BigInt(t);
    case 'float64_relative_s':
      return (t - START) / 1000;
    case 'rfc3339':
      return written(t, 'ABSOLUTE_RFC3339', offset);
    case 'datetime':
      return written(t, 'ABSOLUTE_DATETIME', 0);
  }
}

const hdf5CaseArb = fc
  .record({
    time: fc.constantFrom(...(Object.keys(HDF5_TIMES) as Hdf5Time[])),
    offset: fc.constantFrom(0, 60, -300, 330),
    chunked: fc.constantFrom(0, 1, 2),
  })
  .chain((s) =>
    fc.record({
      s: fc.constant(s),
      rows: timesArb(HDF5_TIMES[s.time]).chain((times) =>
        fc
          .array(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }), {
            minLength: times.length,
            maxLength: times.length,
          })
          .map((vs) => times.map((t, i) => ({ t, v: vs[i] as number }))),
      ),
    }),
  );

test('HDF5: every row comes back with its time and value, in every way a time is stored', async () => {
  await fc.assert(
    fc.asyncProperty(hdf5CaseArb, async ({ s, rows }) => {
      const text = s.time === 'rfc3339' || s.time === 'datetime';
      const chunking =
        s.chunked === 0
          ? {}
          : {
              chunks: [Math.max(1, Math.ceil(rows.length / 2))],
              ...(s.chunked === 2 ? { deflate: 4 } : {}),
            };
      const path = join(dir, `h${n++}.h5`);
      await writeHdf5(path, [
        {
          path: '/time',
          kind: s.time.startsWith('int64') ? 'int64' : text ? 'string' : 'float64',
          values: rows.map((r) => hdf5Time(r.t, s.time, s.offset)),
          // h5wasm deflates no variable-length strings.
          ...(text ? {} : chunking),
        },
        { path: '/v', kind: 'float64', values: rows.map((r) => r.v), ...chunking },
      ]);
      const format = HDF5_TIMES[s.time];
      const document = {
        hdf5Config: {
          timeFormat: `TIME_FORMAT_${format}`,
          ...(format.startsWith('RELATIVE_')
            ? { relativeStartTime: new Date(START).toISOString() }
            : {}),
          data: [
            {
              timeDataset: '/time',
              valueDataset: '/v',
              channelConfig: { name: 'v', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' },
            },
          ],
        },
      } as ImportDocument;
      const got = await rowsOf(await readConfigRows(document, path, { full: true }));
      rmSync(path);
      expectRows(got, rows);
    }),
    { numRuns: 60 },
  );
});

const ulogCaseArb = fc.record({
  anchor: fc.constantFrom('start', 'gps'),
  // The GPS time's µs past a whole ms.
  gpsMicros: fc.integer({ min: 0, max: 999 }),
  steps: fc.array(fc.integer({ min: 0, max: 50_000 }), { minLength: 1, maxLength: 40 }),
  values: fc.array(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }), {
    minLength: 40,
    maxLength: 40,
  }),
});

test('ULog: every message comes back with its time and value, placed by relativeStartTime or by the GPS', async () => {
  await fc.assert(
    fc.asyncProperty(ulogCaseArb, async ({ anchor, gpsMicros, steps, values }) => {
      // Boot at START (µs since 1970); the GPS message at 0.5 s says so, to the µs.
      const bootUs = BigInt(START) * 1000n + BigInt(gpsMicros);
      let ts = 1_000_000n;
      const sent = steps.map((step, i) => {
        ts += BigInt(step);
        return { ts, v: values[i] as number };
      });
      const path = join(dir, `u${n++}.ulg`);
      writeFileSync(path, ulogOfRows(sent, { bootUs }));
      const document = {
        ulogConfig: {
          ...(anchor === 'start' ? { relativeStartTime: new Date(START).toISOString() } : {}),
          data: [
            {
              messageName: 'm',
              instance: '0',
              fieldName: 'v',
              channelConfig: { name: 'm_0.v', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' },
            },
          ],
        },
      } as ImportDocument;
      const got = await rowsOf(await readConfigRows(document, path, { full: true }));
      rmSync(path);
      // Placed by the start given, or by the GPS to the µs.
      const boot = anchor === 'start' ? START : START + gpsMicros / 1000;
      expectRows(
        got,
        sent.map((r) => ({ t: boot + Number(r.ts) / 1000, v: r.v })),
      );
    }),
    { numRuns: 60 },
  );
});

/** A row of a sampled read: its index in the file (from its time), its value, a gap before. */
interface Sampled {
  r: number;
  v: number;
  gap: boolean;
}

/**
 * The first thing wrong with a sampled read of `count` rows, where row r holds r / 4: a row
 * that is none of the file's, a value not its row's (two halves of rows), a row out of order,
 * or a jump where no batch said rows were passed over. Undefined when all is right.
 */
function firstWrong(read: readonly Sampled[], count: number): string | undefined {
  let prev = -1;
  for (const x of read) {
    if (!Number.isInteger(x.r) || x.r < 0 || x.r >= count)
      return `row ${x.r} is none of the file's`;
    if (x.v !== x.r / 4) return `row ${x.r} holds ${x.v}`;
    if (x.r !== prev + 1 && !(x.gap && x.r > prev)) return `row ${x.r} after ${prev}`;
    prev = x.r;
  }
  return undefined;
}

test('sampled: each row read from a slice of a CSV is a row of the file, the rows of a slice in a run', async () => {
  await fc.assert(
    fc.asyncProperty(
      // Up to about 1 MiB after the head the rest is read whole; beyond, in slices.
      fc.oneof(fc.integer({ min: 10_000, max: 40_000 }), fc.integer({ min: 60_000, max: 150_000 })),
      fc.constantFrom('\n', '\r\n'),
      fc.boolean(),
      async (count, eol, quoted) => {
        const path = join(dir, `s${n++}.csv`);
        const q = (cell: string) => (quoted ? `"${cell}"` : cell);
        // Row r (0-based): time START + r ms, value r / 4 (each row its own).
        const lines = ['time,v'];
        for (let r = 0; r < count; r++) lines.push(`${q(String(START + r))},${q(String(r / 4))}`);
        writeFileSync(path, `${lines.join(eol)}${eol}`);
        const document = {
          csvConfig: {
            firstDataRow: 2,
            timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS' },
            dataColumns: { '2': { name: 'v', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' } },
          },
        } as ImportDocument;
        const rows = await readConfigRows(document, path, {});
        if (!rows) throw new Error('no rows');
        const read: Sampled[] = [];
        const result = await rows.read((b) => {
          for (let i = 0; i < b.length; i++) {
            const r = (b.times[i] as number) - START;
            read.push({ r, v: (b.columns[0] as Float64Array)[i] as number, gap: i === 0 && b.gap });
          }
        });
        rmSync(path);
        expect(firstWrong(read, count)).toBeUndefined();
        // What is said of the read is so: complete when every row was read.
        expect(result.complete, `${read.length} rows read of ${count}`).toBe(read.length === count);
        expect(result.rows).toBe(read.length);
        // The head is 10,000 records (the header and 9,999 rows); up to 1 MiB after it, the
        // rest is read whole, and nothing is passed over.
        const headBytes = lines.slice(0, 10_000).reduce((sum, l) => sum + l.length + eol.length, 0);
        const size = lines.reduce((sum, l) => sum + l.length + eol.length, 0);
        if (size - headBytes <= 1024 * 1024) expect(read.length).toBe(count);
      },
    ),
    { numRuns: 8 },
  );
});

test('sampled: each message read from a slice of a ULog is a message of the log, in a run', async () => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 55_000, max: 100_000 }), async (count) => {
      // Message k: timestamp (k + 1) ms, value k / 4; 80-byte messages, so that a log of a
      // few MiB is sampled in slices with fewer messages.
      const messages = Array.from({ length: count }, (_, k) => ({
        ts: BigInt(k + 1) * 1000n,
        v: k / 4,
      }));
      const path = join(dir, `su${n++}.ulg`);
      writeFileSync(path, ulogOfRows(messages, { pad: 8 }));
      const document = {
        ulogConfig: {
          relativeStartTime: new Date(START).toISOString(),
          data: [
            {
              messageName: 'm',
              instance: '0',
              fieldName: 'v',
              channelConfig: { name: 'v', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' },
            },
          ],
        },
      } as ImportDocument;
      const rows = await readConfigRows(document, path, {});
      if (!rows) throw new Error('no rows');
      const read: Sampled[] = [];
      const result = await rows.read((batch) => {
        for (let i = 0; i < batch.length; i++) {
          const r = (batch.times[i] as number) - START - 1;
          const v = (batch.columns[0] as Float64Array)[i] as number;
          read.push({ r, v, gap: i === 0 && batch.gap });
        }
      });
      rmSync(path);
      expect(firstWrong(read, count)).toBeUndefined();
      expect(result.complete, `${read.length} of ${count}`).toBe(read.length === count);
    }),
    { numRuns: 2 },
  );
});

/**
 * Reads a sample (not `full`) of the rows a document reads, each row known by its time, and
 * judges it: only rows of the file, in order, jumps only at gaps, complete only when whole;
 * a file of at most 18,000 rows (a head of 10,000, a rest of four slices of 2,000) whole.
 */
async function expectSampled(document: ImportDocument, path: string, count: number) {
  const rows = await readConfigRows(document, path, {});
  if (!rows) throw new Error('no rows');
  const read: Sampled[] = [];
  const result = await rows.read((b) => {
    for (let i = 0; i < b.length; i++) {
      const r = Math.round((b.times[i] as number) - START);
      read.push({ r, v: (b.columns[0] as Float64Array)[i] as number, gap: i === 0 && b.gap });
    }
  });
  rmSync(path);
  expect(firstWrong(read, count)).toBeUndefined();
  expect(result.complete, `${read.length} rows read of ${count}`).toBe(read.length === count);
  if (count <= 18_000) expect(read.length).toBe(count);
}

test('sampled: each row read from a sample of a Parquet file is a row of the file, in a run', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 9_000, max: 120_000 }),
      fc.integer({ min: 1, max: 8 }),
      async (count, groups) => {
        const schema: SchemaElement[] = [
          { name: 'root', num_children: 2 },
          { name: 't', repetition_type: 'REQUIRED', type: 'INT64' },
          { name: 'v', repetition_type: 'REQUIRED', type: 'DOUBLE' },
        ];
        const writer = new ByteWriter();
        const pw = new ParquetWriter({ writer, schema });
        const size = Math.ceil(count / groups);
        for (let from = 0; from < count; from += size) {
          const rows = Array.from({ length: Math.min(size, count - from) }, (_, i) => from + i);
          pw.write({
            rowGroupSize: rows.length,
            columnData: [
              { name: 't', data: rows.map((r) => BigInt(START + r)) },
              { name: 'v', data: rows.map((r) => r / 4) },
            ] as never,
          });
        }
        pw.finish();
        const path = join(dir, `sp${n++}.parquet`);
        writeFileSync(path, writer.getBytes());
        const document = {
          parquetConfig: {
            flatDataset: {
              timeColumn: { path: 't', format: 'TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS' },
              dataColumns: [
                { path: 'v', channelConfig: { name: 'v', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' } },
              ],
            },
          },
        } as ImportDocument;
        await expectSampled(document, path, count);
      },
    ),
    { numRuns: 8 },
  );
});

test('sampled: each row read from a sample of an HDF5 or TDMS file is a row of the file, in a run', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('hdf5', 'tdms'),
      fc.integer({ min: 9_000, max: 60_000 }),
      fc.integer({ min: 1, max: 4 }),
      async (kind, count, parts) => {
        const rs = Array.from({ length: count }, (_, r) => r);
        let path: string;
        let document: ImportDocument;
        if (kind === 'hdf5') {
          path = join(dir, `sh${n++}.h5`);
          const chunks = parts === 1 ? {} : { chunks: [Math.ceil(count / parts)] };
          await writeHdf5(path, [
            { path: '/time', kind: 'int64', values: rs.map((r) => BigInt(START + r)), ...chunks },
            { path: '/v', kind: 'float64', values: rs.map((r) => r / 4), ...chunks },
          ]);
          document = {
            hdf5Config: {
              timeFormat: 'TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS',
              data: [
                {
                  timeDataset: '/time',
                  valueDataset: '/v',
                  channelConfig: { name: 'v', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' },
                },
              ],
            },
          } as ImportDocument;
        } else {
          path = join(dir, `st${n++}.tdms`);
          // A waveform a ms apart, in `parts` segments.
          const cuts = Array.from({ length: parts + 1 }, (_, k) => Math.round((k * count) / parts));
          const segments: SegmentSpec[] = cuts.slice(1).map((end, k) => ({
            objects: [
              { path: ['G'] },
              {
                path: ['G', 'v'],
                ...(k === 0
                  ? {
                      properties: [
                        {
                          name: 'wf_start_time',
                          type: 'timestamp',
                          value: new Date(START).toISOString(),
                        },
                        { name: 'wf_increment', type: 'f64', value: 0.001 },
                      ] as PropSpec[],
                    }
                  : {}),
                data: { type: 'f64', count: end - (cuts[k] as number) },
              },
            ],
            values: { 'G/v': rs.slice(cuts[k], end).map((r) => r / 4) },
          }));
          writeFileSync(path, tdmsBytes(segments).data);
          document = {
            tdmsConfig: {
              data: [
                {
                  groupName: 'G',
                  channelName: 'v',
                  channelConfig: { name: 'v', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' },
                },
              ],
            },
          } as ImportDocument;
        }
        await expectSampled(document, path, count);
      },
    ),
    { numRuns: 15 },
  );
});
