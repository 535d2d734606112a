/**
 * The closed loop (`closedLoop`, test/helpers/closed-loop.ts) on generated TDMS files: a
 * draft `infer` writes lints clean, is canonical for `fmt`, and `check` and `check --full`
 * find no error in it that infer did not report (or, for a file infer refuses, check
 * refuses it with the same code). The files are small (up to a few hundred values a
 * channel), written by the fixtures' TDMS writer (scripts/fixtures/tdms-writer.ts): groups
 * of channels of every plain type (floats with NaN, ±inf and their extremes, integers of
 * each width and sign up to their limits, bools, strings, timestamps, complex numbers,
 * floats with units, extended floats), some scaled, some DAQmx raw data, some never given
 * data; each group timed by a timestamp channel, by waveform properties, by a numeric
 * channel of relative times, or not at all. One to four segments: the later ones with a
 * new raw data index (in a new object list, in another order, or not), the previous index
 * repeated ('same', some with changed properties), no metadata at all, or properties
 * alone; waveforms without data in some segments; contiguous or interleaved, little- or
 * big-endian, in one or more chunks; the last segment unfinished or cut short; with or
 * without the `.tdms_index` file, root and group objects; odd group and channel names and
 * infer's options (run name, channel naming, time format, start time).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type DataSpec,
  type ObjectSpec,
  type PropSpec,
  type RawValue,
  type SegmentSpec,
  TdmsWriter,
  tdmsBytes,
} from '../../scripts/fixtures/tdms-writer.js';
import { closedLoop, type LoopOptions, shown } from '../helpers/closed-loop.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-closed-loop-tdms-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const START_MS = Date.parse('2024-03-01T12:00:00Z');
const TDMS_EPOCH = '1904-01-01T00:00:00Z';
const iso = (ms: number) => new Date(ms).toISOString();

/** The channel types of the generated files: every plain type the writer writes. */
const DATA_TYPES = [
  'f64',
  'f32',
  'i8',
  'i16',
  'i32',
  'i64',
  'u8',
  'u16',
  'u32',
  'u64',
  'bool',
  'string',
  'timestamp',
  'complex-f32',
  'complex-f64',
  'f32-unit',
  'f64-unit',
  'extended',
] as const;
type DataType = (typeof DATA_TYPES)[number];

/** The least and greatest value of each integer type. */
const INT_RANGE: Record<string, readonly [bigint, bigint]> = {
  i8: [-128n, 127n],
  i16: [-32768n, 32767n],
  i32: [-(2n ** 31n), 2n ** 31n - 1n],
  i64: [-(2n ** 63n), 2n ** 63n - 1n],
  u8: [0n, 255n],
  u16: [0n, 65535n],
  u32: [0n, 2n ** 32n - 1n],
  u64: [0n, 2n ** 64n - 1n],
};

/** Strings of a string channel: empty, spaces, quotes, commas, line breaks, non-ASCII. */
const WORDS = ['ok', '', 'two words', "it's", 'a,b', 'line\nbreak', 'µε', '日本', '😀', '"q"'];

/** Names of groups and channels, among them ones YAML or a path could take for something else. */
const NAMES = fc.oneof(
  { weight: 3, arbitrary: fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,6}$/) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      ...['volts', 'Strain 1', "it's", 'a/b', 'x.y', 'yes', 'null', '~', '1e3', '007', '-'],
      ...['#c', '[0]', '{k}', '&a', '*b', 'a: b', ' lead', 'trail ', 'é', '温度', 'Temp (°C)'],
      ...['time', 'Time', 'elapsed', 'Zeit', 'speed_ms', 'duration [s]', "''", 'true', '.inf'],
    ),
  },
);

/** A value of a data channel at its row `i` (counted over the file); `odd`: with extremes, NaN, ±inf. */
function channelValue(type: DataType, i: number, odd: boolean, seed: number): RawValue {
  const k = (i + seed) % 11;
  switch (type) {
    case 'f64':
    case 'f64-unit':
    case 'f32':
    case 'f32-unit': {
      const big = type.startsWith('f64') ? Number.MAX_VALUE : 3.4028234663852886e38;
      const odds = [Number.NaN, Number.POSITIVE_INFINITY, -big, Number.NEGATIVE_INFINITY, -0];
      const v = odd && k < odds.length ? (odds[k] as number) : (i - seed) / 4;
      return type.startsWith('f32') ? Math.fround(v) : v;
    }
    case 'extended':
      return 0; // written as zeros: 80-bit floats are not decoded
    case 'complex-f32':
    case 'complex-f64':
      return odd && k === 2 ? [Number.NaN, i] : [i / 4, -i / 8];
    case 'bool':
      return (i + seed) % 3 === 0;
    case 'string':
      return WORDS[k % WORDS.length] as string;
    case 'timestamp':
      return odd && k === 1 ? TDMS_EPOCH : iso(START_MS + seed * 60_000 + i * 1000);
    default: {
      const [min, max] = INT_RANGE[type] as readonly [bigint, bigint];
      const v = odd && k < 2 ? (k === 0 ? min : max) : min + BigInt((i * 37 + seed) % 100);
      return type === 'i64' || type === 'u64' ? v : Number(v);
    }
  }
}

/** A value one time in four, else null. */
const rarely = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });

const channelSpec = fc.record({
  type: fc.constantFrom(...DATA_TYPES),
  odd: fc.boolean(),
  unit: fc.option(fc.constantFrom('V', 'µε', 'degC', '', 's', 'ms')),
  description: fc.option(fc.constantFrom('supply', 'a: b', '', 'two\nlines')),
  /** Waveform properties of its own, in a group timed otherwise: both, or the increment only. */
  ownWaveform: rarely(fc.constantFrom('both', 'increment')),
  /** NI_Scale properties: the platform imports the scaled values, as doubles. */
  scaled: fc.boolean(),
  /** Values per chunk, as a multiple of the segment's (a waveform may run at its own rate). */
  rate: fc.constantFrom(1, 1, 2),
  /** A waveform of DAQmx raw data (an i16 scaler in a buffer shared by the DAQmx channels). */
  daqmx: fc.boolean(),
  /** Listed, with its properties, but never given data (an acquisition that never started). */
  empty: fc.boolean(),
});

/** How a group's channels are timed. */
const TIMINGS = ['timestamp', 'waveform', 'relative', 'none'] as const;

const groupSpec = fc.record({
  timing: fc.constantFrom(...TIMINGS),
  /** Where the time channel stands among the data channels. */
  timeAt: fc.nat(4),
  /** A relative time channel's type and unit (none: named as time only). */
  relative: fc.record({
    type: fc.constantFrom('f64', 'f32', 'i32', 'u32', 'i64', 'u16'),
    unit: fc.option(fc.constantFrom('s', 'ms', 'us', 'min')),
  }),
  /** Nanoseconds between rows (the time channel's, or the waveform's increment). */
  stepNs: fc.constantFrom(1_000n, 1_000_000n, 10_000_000n, 1_000_000_000n),
  /** Waveforms starting at the 1904 epoch, or said to be relative. */
  relativeStart: fc.constantFrom(null, null, 'epoch', 'NI_ExpIsRelativeTime'),
  startProperty: fc.boolean(),
  channels: fc.array(channelSpec, { minLength: 0, maxLength: 4 }),
  names: fc.uniqueArray(NAMES, { minLength: 6, maxLength: 6 }),
});

/** A segment after the first: a new index, the same index, or no metadata. */
const laterSegment = fc.record({
  kind: fc.constantFrom('index', 'same', 'noMeta', 'props'),
  newList: fc.boolean(),
  /** Values per chunk of a segment with a new index. */
  count: fc.integer({ min: 1, max: 30 }),
  chunks: fc.integer({ min: 1, max: 3 }),
  interleaved: fc.boolean(),
  /** 'same': which channels it lists (a bit each), and whether it changes their properties. */
  listed: fc.nat(255),
  changes: fc.boolean(),
  /** 'index': which waveform channels have no data in it (a bit each), as no index or as none of their values. */
  idle: fc.nat(255),
  idleAsZero: fc.boolean(),
});

const tdmsSpec = fc.record({
  groups: fc.array(groupSpec, { minLength: 1, maxLength: 3 }),
  groupNames: fc.uniqueArray(NAMES, { minLength: 3, maxLength: 3 }),
  first: fc.record({
    count: fc.integer({ min: 1, max: 40 }),
    chunks: fc.integer({ min: 1, max: 3 }),
    interleaved: fc.boolean(),
  }),
  later: fc.array(laterSegment, { maxLength: 3 }),
  /** Which waveform channels the first segment lists without data (a bit each). */
  firstIdle: rarely(fc.nat(255)),
  /** Whether waveforms may be DAQmx raw data, and channels may hold no data at all. */
  daqmx: rarely(fc.constant(true)),
  empties: rarely(fc.constant(true)),
  bigEndian: fc.boolean(),
  /** The last segment's next-segment offset left all ones, as a writer that was stopped leaves it. */
  unfinished: fc.boolean(),
  /** The `.tdms_index` file written beside the data. */
  index: fc.boolean(),
  /** Bytes cut off the end (a copy or a writer stopped early), within the last segment. */
  cut: rarely(fc.oneof(fc.nat(40), fc.nat(1000))),
  /** Objects for the root and the groups (a writer may list only channels). */
  treeObjects: fc.boolean(),
  rootStart: fc.boolean(),
  seed: fc.nat(1000),
  options: fc.record(
    {
      runName: fc.constantFrom('run 1', 'yes'),
      tdmsNames: fc.constantFrom('plain', 'qualified'),
      relativeStartTime: fc.constant('2024-03-01T08:30:00.5Z'),
      // Full or short names, as the option takes them.
      timeFormat: fc.constantFrom('TIME_FORMAT_RELATIVE_MILLISECONDS', 'RELATIVE_SECONDS'),
    },
    { requiredKeys: [] },
  ),
});

type TdmsSpec = typeof tdmsSpec extends fc.Arbitrary<infer T> ? T : never;

/** A channel of the file: its path, type, the properties it starts with and its values. */
interface Channel {
  path: [string, string];
  key: string;
  type: string;
  properties: PropSpec[];
  /** Values per chunk, as a multiple of the segment's count. */
  rate: number;
  /** Timed by its own waveform properties: it may go without data in a segment. */
  free: boolean;
  /** Its raw data is DAQmx (a scaler in the buffer the DAQmx channels share). */
  daqmx: boolean;
  /** It never holds data. */
  empty: boolean;
  /** Value `i` of the channel (counted over the file), `j` of its chunk, under index `epoch`. */
  value: (i: number, j: number, epoch: number) => RawValue;
}

const str = (name: string, value: string): PropSpec => ({ name, type: 'string', value });

/** RFC 3339 text of a time in nanoseconds since the unix epoch, to the nanosecond. */
function isoNs(ns: bigint): string {
  const ms = ns / 1_000_000n;
  const rest = ns % 1_000_000n;
  const text = iso(Number(ms));
  return rest === 0n ? text : `${text.slice(0, -1)}${String(rest).padStart(6, '0')}Z`;
}

const START_NS = BigInt(START_MS) * 1_000_000n;

/** The properties of waveform channels: start, increment and offset. */
function waveformProps(g: TdmsSpec['groups'][number], which: 'both' | 'increment'): PropSpec[] {
  const increment: PropSpec = { name: 'wf_increment', type: 'f64', value: Number(g.stepNs) / 1e9 };
  if (which === 'increment') return [increment];
  return [
    {
      name: 'wf_start_time',
      type: 'timestamp',
      value: g.relativeStart === 'epoch' ? TDMS_EPOCH : isoNs(START_NS),
    },
    increment,
    { name: 'wf_start_offset', type: 'f64', value: 0 },
    { name: 'wf_samples', type: 'i32', value: 1 },
    ...(g.relativeStart === 'NI_ExpIsRelativeTime'
      ? [{ name: 'NI_ExpIsRelativeTime', type: 'u32' as const, value: 1 }]
      : []),
  ];
}

const SCALES: PropSpec[] = [
  str('NI_Scaling_Status', 'unscaled'),
  { name: 'NI_Number_Of_Scales', type: 'u32', value: 2 },
  str('NI_Scale[1]_Scale_Type', 'Linear'),
  { name: 'NI_Scale[1]_Linear_Slope', type: 'f64', value: 0.5 },
  { name: 'NI_Scale[1]_Linear_Y_Intercept', type: 'f64', value: 1 },
];

/** The channels of every group, in file order, with the time channels where the spec puts them. */
function channelsOf(s: TdmsSpec): Channel[] {
  return s.groups.flatMap((g, gi) => {
    const group = s.groupNames[gi] as string;
    const data = g.channels.map((c, ci): Channel => {
      const name = g.names[ci + 1] as string;
      const own = g.timing === 'waveform' ? 'both' : c.ownWaveform;
      const daqmx = s.daqmx === true && own === 'both' && c.daqmx && c.type !== 'string';
      return {
        path: [group, name],
        key: `${group}/${name}`,
        type: c.type,
        properties: [
          ...(own !== null ? waveformProps(g, own) : []),
          ...(c.unit !== null ? [str('unit_string', c.unit)] : []),
          ...(c.description !== null ? [str('description', c.description)] : []),
          ...(c.scaled ? SCALES : []),
        ],
        rate: own === 'both' && !daqmx ? c.rate : 1,
        free: own === 'both',
        daqmx,
        empty: s.empties === true && c.empty,
        // A string chunk's bytes must stay those of its index: its strings depend on
        // their place in the chunk and on the index they were written under.
        value:
          c.type === 'string'
            ? (_i, j, epoch) => WORDS[(j * 3 + epoch + s.seed) % WORDS.length] as string
            : (i) => channelValue(c.type, i, c.odd, s.seed),
      };
    });
    const time = timeChannelOf(s, g, group);
    if (time === undefined || data.some((d) => d.path[1] === time.path[1])) return data;
    const at = Math.min(g.timeAt, data.length);
    return [...data.slice(0, at), time, ...data.slice(at)];
  });
}

/** The time channel of a group timed by one: timestamps, or relative times in a unit. */
function timeChannelOf(
  s: TdmsSpec,
  g: TdmsSpec['groups'][number],
  group: string,
): Channel | undefined {
  const base = { rate: 1, free: false, daqmx: false, empty: false };
  if (g.timing === 'timestamp') {
    const name = g.names[0] as string;
    return {
      ...base,
      path: [group, name],
      key: `${group}/${name}`,
      type: 'timestamp',
      properties: [],
      value: (i) => isoNs(START_NS + BigInt(i) * g.stepNs + BigInt(s.seed)),
    };
  }
  if (g.timing !== 'relative') return undefined;
  const { type, unit } = g.relative;
  const name = unit === null ? 'Time' : (g.names[0] as string);
  const perUnit = { s: 1e9, ms: 1e6, us: 1e3, min: 6e10 }[unit ?? 's'];
  const step = Number(g.stepNs) / perUnit;
  return {
    ...base,
    path: [group, name],
    key: `${group}/${name}`,
    type,
    properties: unit !== null ? [str('unit_string', unit)] : [],
    value: (i) => {
      if (type.startsWith('f')) return type === 'f32' ? Math.fround(i * step) : i * step;
      // Integer times stay small enough for their type.
      const v = i * Math.min(100, Math.max(1, Math.round(step)));
      return type === 'i64' ? BigInt(v) : v;
    },
  };
}

/** The file's segments, each with the values of its channels. */
function segmentsOf(s: TdmsSpec, channels: readonly Channel[]): SegmentSpec[] {
  const strings = channels.some((c) => c.type === 'string');
  // Per chunk, the values of each channel in the list in force (0: none in this segment;
  // absent: not in the list), and those of the index each last had.
  const counts = new Map<string, number>();
  const last = new Map<string, number>();
  const written = new Map(channels.map((c) => [c.key, 0]));
  // The segment each channel's index was last written in: its strings' bytes follow it.
  const epochs = new Map<string, number>();
  let epoch = 0;
  // DAQmx channels share one buffer: a scaler each, two bytes apart.
  const daqmx = channels.filter((c) => c.daqmx);
  // Strings and DAQmx data are not interleaved, and interleaved rows hold a value of every channel.
  const interleavable = () => !strings && daqmx.length === 0 && new Set(counts.values()).size <= 1;
  const valuesOf = (chunks: number) =>
    Object.fromEntries(
      channels.flatMap((c) => {
        const count = counts.get(c.key) ?? 0;
        if (count === 0) return [];
        const from = written.get(c.key) ?? 0;
        written.set(c.key, from + count * chunks);
        const values = Array.from({ length: count * chunks }, (_, p) =>
          c.value(from + p, p % count, epochs.get(c.key) ?? 0),
        );
        return [[c.key, values]];
      }),
    );
  const index = (c: Channel, count: number, idle?: 'none' | 'zero'): DataSpec => {
    if (idle === 'none' || c.empty) {
      counts.set(c.key, 0);
      return 'none';
    }
    const n = idle === 'zero' ? 0 : count * c.rate;
    counts.set(c.key, n);
    last.set(c.key, n);
    epochs.set(c.key, epoch);
    if (!c.daqmx) return { type: c.type, count: n };
    const offset = 2 * daqmx.indexOf(c);
    return {
      daqmx: {
        count,
        scalers: [{ type: 3, buffer: 0, offset, scaleId: 0 }],
        widths: [2 * daqmx.length],
      },
    };
  };
  const same = (c: Channel): DataSpec => {
    counts.set(c.key, last.get(c.key) ?? 0);
    return 'same';
  };
  const groups = s.groups.map((_, gi) => s.groupNames[gi] as string);
  const root: PropSpec[] = [
    str('name', 'generated'),
    { name: 'count', type: 'u64', value: '18446744073709551615' },
    { name: 'offset', type: 'i64', value: '-9007199254740993' },
    ...(s.rootStart
      ? [{ name: 'datetime', type: 'timestamp' as const, value: iso(START_MS - 3_600_000) }]
      : []),
  ];
  const tree: ObjectSpec[] = s.treeObjects
    ? [
        { path: [], properties: root },
        ...groups.map(
          (g, gi): ObjectSpec => ({
            path: [g],
            properties: s.groups[gi]?.startProperty
              ? [{ name: 'start_time', type: 'timestamp', value: iso(START_MS) }]
              : [],
          }),
        ),
      ]
    : [];
  const segments: SegmentSpec[] = [];
  const push = (seg: SegmentSpec, l: { chunks: number; interleaved: boolean }) => {
    segments.push({
      ...seg,
      chunks: l.chunks,
      interleaved: l.interleaved && interleavable(),
      bigEndian: s.bigEndian,
      values: valuesOf(l.chunks),
    });
  };
  // A waveform channel without data in a segment: no index, or an index of no values.
  const idleIn = (mask: number | null, zero: boolean) => (c: Channel, i: number) =>
    c.free && mask !== null && (mask >> i) & 1 ? (zero && !c.daqmx ? 'zero' : 'none') : undefined;
  const firstIdle = idleIn(s.firstIdle, false);
  push(
    {
      objects: [
        ...tree,
        ...channels.map((c, i) => ({
          path: c.path,
          properties: c.properties,
          data: index(c, s.first.count, firstIdle(c, i)),
        })),
      ],
    },
    s.first,
  );
  for (const [k, l] of s.later.entries()) {
    const changed = (c: Channel) => (l.changes ? { properties: changes(c, k) } : {});
    if (l.kind === 'noMeta') push({ noMeta: true, objects: [] }, l);
    else if (l.kind === 'same') {
      // Listed again with the index they last had; the others keep the list's.
      const listed = channels.filter((c, i) => (l.listed >> i) & 1 && last.has(c.key));
      push(
        {
          newObjList: false,
          objects: listed.map((c) => ({ path: c.path, data: same(c), ...changed(c) })),
        },
        l,
      );
    } else if (l.kind === 'props') {
      // Properties written after the data, in a segment without raw data: a new list of
      // the root alone, or every channel listed without data.
      const objects: ObjectSpec[] = l.newList
        ? [{ path: [], properties: [str('finished', `yes ${k}`)] }]
        : channels.map((c) => ({ path: c.path, data: index(c, 0, 'none'), ...changed(c) }));
      if (l.newList) counts.clear();
      push({ newObjList: l.newList, objects }, l);
    } else {
      epoch = k + 1;
      const idle = idleIn(l.idle, l.idleAsZero);
      if (l.newList) counts.clear();
      const objects = channels.map((c, i) => ({
        path: c.path,
        data: index(c, l.count, idle(c, i)),
      }));
      // A new list may give the channels in another order.
      const turn = l.newList ? l.count % Math.max(1, objects.length) : 0;
      push(
        { newObjList: l.newList, objects: [...objects.slice(turn), ...objects.slice(0, turn)] },
        l,
      );
    }
  }
  const end = segments[segments.length - 1] as SegmentSpec;
  if (s.unfinished) end.unfinished = true;
  return segments;
}

/** Properties a later segment changes: the unit and description of a channel. */
function changes(c: Channel, k: number): PropSpec[] {
  return [str('unit_string', `u${k}`), str('description', `changed ${k} of ${c.path[1]}`)];
}

/** The file's bytes and its index: its segments, the last cut short by `cut` bytes. */
function fileOf(s: TdmsSpec): { data: Uint8Array; index: Uint8Array } {
  const segments = segmentsOf(s, channelsOf(s));
  const { data, index } = tdmsBytes(segments);
  if (s.cut === null || s.cut === 0) return { data, index };
  // The last segment, as the writer lays it out: the cut stays within it.
  const writer = new TdmsWriter();
  const last = segments.map((seg) => writer.segment(seg)).at(-1);
  const length = (last?.head.byteLength ?? 0) + (last?.rawLength ?? 0);
  return { data: data.subarray(0, data.byteLength - Math.min(s.cut, length - 1)), index };
}

/** The options infer is given: those of the spec. */
function optionsOf(s: TdmsSpec): LoopOptions {
  return { ...s.options } as LoopOptions;
}

describe('generated TDMS files: infer → lint → fmt → check', () => {
  test('random channel types, timing, segments, layouts and names', async () => {
    await fc.assert(
      fc.asyncProperty(tdmsSpec, async (s) => {
        const { data, index } = fileOf(s);
        const path = join(dir, 'gen.tdms');
        await writeFile(path, data);
        if (s.index) await writeFile(`${path}_index`, index);
        else await rm(`${path}_index`, { force: true });
        expect(shown(await closedLoop(path, dir, 'tdms', optionsOf(s)))).toEqual([]);
      }),
      { numRuns: 100 },
    );
  }, 120_000);
});
