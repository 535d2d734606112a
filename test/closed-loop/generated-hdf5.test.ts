/**
 * The closed loop (`closedLoop`, test/helpers/closed-loop.ts) on generated HDF5 files: a
 * draft `infer` writes lints clean, is canonical for `fmt`, and `check` and `check --full`
 * find no error in it that infer did not report.
 *
 * Most files are written with the fixture writer (scripts/fixtures/hdf5.ts, which also
 * writes h5py's booleans, enums, float16 and opaque data) and hold one to three sources of
 * time series, each in a layout the platform imports: a 1-D time dataset beside 1-D value
 * datasets (in the root or in groups, some named `value`, with units and name attributes,
 * the time sometimes a dimension scale); an [N, k] dataset with a time column (the first,
 * or one named in a `columns` attribute) or timed by a dimension scale; a compound dataset
 * with a time member among value members. Times are float, int32, int64 or uint64 unix
 * times of any unit, RFC 3339 text in several styles, zoneless date-time text, relative
 * times with or without units, or CF "<unit> since <date>" units; values of every stored
 * type, some NaN, ±inf or the extremes of their type. Datasets are chunked or contiguous,
 * deflated or not, possibly empty; a time may repeat, step back or be NaN (text: not a time)
 * at its start, middle or end. Beside them lie datasets infer leaves out (a scalar, an image,
 * a 3-D cube, a dataset of no time's length) and soft, hard, dangling and external links;
 * infer may be given a time dataset. Files of one time encoding; files whose sources differ
 * in it, or inferred with a time format given, right or wrong; and batches of files, as a
 * folder and as a zip. Then with h5wasm directly, what the fixture writer cannot write:
 * fixed-length text times (1-D and as a compound member), datasets grown by appending
 * (unlimited, chunked, some rows never written), the shuffle, fletcher32 and scale-offset
 * filters; and the logger files of test/helpers/hdf5.ts.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import h5wasm from 'h5wasm/node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type DatasetSpec,
  type Kind,
  type MemberSpec,
  type Scalar,
  writeHdf5,
} from '../../scripts/fixtures/hdf5.js';
import { type ZipMember, zipBytes } from '../../scripts/fixtures/zip-writer.js';
import { TIME_FORMAT_VALUES } from '../../src/model/enum-values.js';
import { closedLoop, type LoopOptions, shown } from '../helpers/closed-loop.js';
import { appendedTimeAndValues } from '../helpers/hdf5.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-closed-loop-hdf5-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** 2024-03-01T12:00:00Z in seconds. */
const T0 = 1_709_294_400;
/** The start given to infer for relative times. */
const START = '2024-03-01T12:00:00Z';

const range = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
/** Date and time to the second, no zone, `T` or another separator between them. */
const stamp = (seconds: number, separator = 'T') =>
  iso(seconds).slice(0, 19).replace('T', separator);

// ---- times --------------------------------------------------------------------------------

/** How a source writes its time: the stored kind, row i's time, and what goes with it. */
interface TimeEncoding {
  kind: Kind;
  value: (i: number) => Scalar;
  /** Attributes of a 1-D time dataset. */
  attrs?: Record<string, string>;
  /** Relative, with no start in the file: infer is given one. */
  relative?: boolean;
  /** The kind of an [N, k] dataset holding this time in a column (numbers only). */
  grid?: Kind;
}

const TIMES = {
  floatSeconds: { kind: 'float64', value: (i) => T0 + i / 100, grid: 'float64' },
  int32Seconds: { kind: 'int32', value: (i) => T0 + i, grid: 'int32' },
  int64Millis: { kind: 'int64', value: (i) => BigInt(T0) * 1000n + BigInt(i * 10), grid: 'int64' },
  uint64Micros: {
    kind: 'uint64',
    value: (i) => BigInt(T0) * 1_000_000n + BigInt(i * 250),
    grid: 'uint64',
  },
  int64Nanos: {
    kind: 'int64',
    value: (i) => BigInt(T0) * 1_000_000_000n + BigInt(i) * 1_000_001n,
    grid: 'int64',
  },
  /** Float nanoseconds: beyond 2^53, neighbours 1 µs apart stay apart. */
  float64Nanos: { kind: 'float64', value: (i) => (T0 + i / 1000) * 1e9, grid: 'float64' },
  /** A bare unit that agrees with the magnitude. */
  int64NanosUnits: {
    kind: 'int64',
    value: (i) => BigInt(T0 + i) * 1_000_000_000n,
    attrs: { units: 'ns' },
    grid: 'int64',
  },
  rfc3339: { kind: 'string', value: (i) => iso(T0 + i / 8) },
  rfc3339Offset: {
    kind: 'string',
    value: (i) => `${stamp(T0 + 7200 + i)}.${String(i % 1000).padStart(6, '0')}+02:00`,
  },
  rfc3339Lower: { kind: 'string', value: (i) => `${stamp(T0 + i, 't')}z` },
  rfc3339Compact: {
    kind: 'string',
    value: (i) => `${stamp(T0 + 19_800 + i, ' ')}.${String(i).padStart(9, '0')}+0530`,
  },
  rfc3339LongFraction: {
    kind: 'string',
    value: (i) => `${stamp(T0 + i)}.${String(i).padStart(12, '0')}Z`,
  },
  datetime: { kind: 'string', value: (i) => stamp(T0 + i, ' ') },
  datetimeFraction: { kind: 'string', value: (i) => iso(T0 + i / 4).slice(0, 23) },
  relativeSeconds: {
    kind: 'float64',
    value: (i) => i * 0.5,
    attrs: { units: 's' },
    relative: true,
    grid: 'float64',
  },
  relativeMillis: {
    kind: 'int32',
    value: (i) => i * 10,
    attrs: { units: 'ms' },
    relative: true,
    grid: 'int32',
  },
  /** No units and no unix magnitude: infer guesses relative seconds. */
  relativeGuessed: { kind: 'float32', value: (i) => i / 4, relative: true, grid: 'float32' },
  cfSince: {
    kind: 'float64',
    value: (i) => i * 0.25,
    attrs: { units: 'seconds since 2024-03-01 12:00:00' },
  },
  cfHours: { kind: 'float64', value: (i) => i / 3600, attrs: { units: 'hours since 2024-03-01' } },
  cfMinutesZone: {
    kind: 'float32',
    value: (i) => i / 60,
    attrs: { units: 'minutes since 2024-03-01T12:00:00+01:00' },
  },
  /** A unit no time format has. */
  cfDays: { kind: 'float64', value: (i) => i / 86_400, attrs: { units: 'days since 2024-03-01' } },
  cfEpochMillis: {
    kind: 'int64',
    value: (i) => BigInt(T0) * 1000n + BigInt(i),
    attrs: { units: 'milliseconds since 1970-01-01T00:00:00Z' },
    grid: 'int64',
  },
  /** Unix milliseconds labelled seconds, as a careless writer labels them. */
  mislabelled: {
    kind: 'int64',
    value: (i) => BigInt(T0) * 1000n + BigInt(i * 20),
    attrs: { units: 's' },
    grid: 'int64',
  },
} satisfies Record<string, TimeEncoding>;
type TimeName = keyof typeof TIMES;
const TIME_NAMES = Object.keys(TIMES) as TimeName[];

/** A time gone wrong at one row: repeated, a step back, or NaN (text: not a time). */
type Glitch = 'none' | 'repeat' | 'back' | 'nan';
type Where = 'start' | 'middle' | 'end';

/** The row of a glitch: the first or last row (which infer samples), or one in between. */
function glitchRow(rows: number, where: Where): number {
  if (where === 'start') return 0;
  if (where === 'end') return rows - 1;
  return Math.floor(rows / 2);
}

/** Row i's time of a source of `rows` rows, with the file's glitch. */
function timeAt(enc: TimeEncoding, glitch: [Glitch, Where], rows: number, i: number): Scalar {
  const [what, where] = glitch;
  if (what === 'none' || i !== glitchRow(rows, where)) return enc.value(i);
  // A repeat or a step back at row 0 is one of row 1.
  const before = i === 0 ? 1 : i - 1;
  if (what === 'repeat') return enc.value(before);
  if (what === 'back') return enc.value(i === 0 ? 3 : Math.max(0, i - 3));
  if (enc.kind === 'float64' || enc.kind === 'float32') return Number.NaN;
  if (enc.kind === 'string') return 'n/a';
  return enc.value(before);
}

// ---- values -------------------------------------------------------------------------------

const INT_RANGES: Partial<Record<Kind, [bigint, bigint]>> = {
  int8: [-128n, 127n],
  int16: [-32768n, 32767n],
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint8: [0n, 255n],
  uint16: [0n, 65535n],
  uint32: [0n, 2n ** 32n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
};

/** Row i's value of a channel of `kind`; `special`: NaN, ±inf, extremes, odd text. */
function valueAt(kind: Kind, i: number, special: boolean, seed: number): Scalar {
  const odd = special && i % 5 === 1;
  const ints = INT_RANGES[kind];
  if (ints) {
    const v = odd ? ints[i % 2] : BigInt(((i * 37 + seed) % 200) - (ints[0] < 0n ? 100 : 0));
    return kind === 'int64' || kind === 'uint64' ? (v as bigint) : Number(v);
  }
  switch (kind) {
    case 'float16':
    case 'float32':
    case 'float64':
      if (odd) return [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY][i % 3] ?? 0;
      return Math.sin((i + seed) / 7) * 100;
    case 'bool':
      return special ? true : (i + seed) % 3 === 0;
    case 'enum':
      return (i + seed) % 3;
    case 'string':
      return odd ? (['', 'é ü', 'a "quoted", text\nline'][i % 3] ?? '') : `s${seed}-${i}`;
    case 'fixed-string':
      return odd ? '' : `v${(i + seed) % 1000}`;
    default:
      return i * 3 + seed;
  }
}

const ENUM = { IDLE: 0, RUN: 1, FAULT: 2 };

/** Kinds of 1-D value datasets; compounds take those h5wasm writes inside a compound. */
const VALUE_KINDS: Kind[] = [
  ...['int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64'],
  ...['float16', 'float32', 'float64', 'bool', 'enum', 'string', 'fixed-string', 'opaque'],
] as Kind[];
const MEMBER_KINDS = VALUE_KINDS.filter(
  (k) => !['string', 'float16', 'bool', 'enum', 'opaque'].includes(k),
);
/** Kinds of an [N, k] dataset timed by a dimension scale (its columns are all values). */
const GRID_KINDS: Kind[] = ['int16', 'int64', 'uint8', 'uint32', 'float32', 'float64'];
const NAMES = ['speed', 'value', 'volts', 'a.b', 'x y', 'é', 'mode', 'count'];
const UNITS = ['m/s', 'V', 'degC', '%', ''];

// ---- files of the fixture writer ------------------------------------------------------------

const storageArb = fc.record({
  chunk: fc.option(fc.integer({ min: 1, max: 64 }), { nil: undefined }),
  deflate: fc.constantFrom(0, 1, 9),
});
type Storage = typeof storageArb extends fc.Arbitrary<infer T> ? T : never;

/** Mostly none: the file's own time encoding. */
const ownTimeArb = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 4 },
  { arbitrary: fc.constantFrom(...TIME_NAMES), weight: 1 },
);
/** Rows of a source: mostly tens to a hundred and more, sometimes none or one. */
const rowsArb = fc.oneof(
  { arbitrary: fc.integer({ min: 2, max: 160 }), weight: 8 },
  { arbitrary: fc.constantFrom(0, 1), weight: 1 },
);

const channelArb = fc.record({
  kind: fc.constantFrom(...VALUE_KINDS),
  name: fc.constantFrom(...NAMES),
  units: fc.option(fc.constantFrom(...UNITS), { nil: undefined }),
  nameAttr: fc.boolean(),
  special: fc.boolean(),
  storage: storageArb,
});

const oneDArb = fc.record({
  layout: fc.constant('oneD' as const),
  time: ownTimeArb,
  group: fc.constantFrom('', '/run', '/run/engine', '/log'),
  timeName: fc.constantFrom('time', 'timestamp', 'Time', 't', 'ts', 'timestamps'),
  /** The time is a dimension scale attached to every channel. */
  scale: fc.boolean(),
  rows: rowsArb,
  channels: fc.array(channelArb, { minLength: 1, maxLength: 4 }),
  storage: storageArb,
});

const gridArb = fc.record({
  layout: fc.constant('grid' as const),
  time: ownTimeArb,
  group: fc.constantFrom('', '/run', '/log'),
  name: fc.constantFrom('grid', 'sensor_0', 'data'),
  columns: fc.integer({ min: 2, max: 5 }),
  /** The time column, named in a `columns` attribute (else column 0, unnamed). */
  timeColumn: fc.option(fc.nat(4), { nil: undefined }),
  /** Timed by a 1-D dimension scale instead of a column (always, for text times). */
  scaled: fc.boolean(),
  scaledKind: fc.constantFrom(...GRID_KINDS),
  units: fc.option(fc.constantFrom(...UNITS, 'per column'), { nil: undefined }),
  special: fc.boolean(),
  rows: rowsArb,
  storage: storageArb,
});

const compoundArb = fc.record({
  layout: fc.constant('compound' as const),
  time: ownTimeArb,
  group: fc.constantFrom('', '/run', '/log'),
  name: fc.constantFrom('sensors', 'records', 'table'),
  /** `x0`: no member is named like time, the first is the time. */
  timeName: fc.constantFrom('time', 'timestamp', 't', 'x0'),
  timeAt: fc.nat(3),
  members: fc.array(fc.constantFrom(...MEMBER_KINDS), { minLength: 1, maxLength: 3 }),
  boolLast: fc.boolean(),
  units: fc.boolean(),
  special: fc.boolean(),
  rows: rowsArb,
  storage: storageArb,
});

const EXTRAS = ['scalar', 'image', 'cube', 'orphan'] as const;
/** Links added to the file: to a value dataset (soft and hard), to nowhere, to another file. */
const LINKS = ['soft', 'hard', 'dangling', 'external'] as const;

const fileArb = fc.record({
  time: fc.constantFrom(...TIME_NAMES),
  glitch: fc.tuple(
    fc.constantFrom<Glitch>('none', 'none', 'repeat', 'back', 'nan'),
    fc.constantFrom<Where>('start', 'middle', 'middle', 'end'),
  ),
  sources: fc.array(fc.oneof(oneDArb, gridArb, compoundArb), { minLength: 1, maxLength: 3 }),
  extras: fc.subarray([...EXTRAS]),
  links: fc.subarray([...LINKS]),
  /** A time format given to infer, right or wrong for the file. */
  timeFormat: fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 6 },
    { arbitrary: fc.constantFrom(...TIME_FORMAT_VALUES.slice(1)), weight: 1 },
  ),
  /** A time dataset given to infer: a time dataset of the file, a value dataset, or none. */
  timeDataset: fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 6 },
    { arbitrary: fc.constantFrom('time', 'value', 'missing'), weight: 1 },
  ),
  seed: fc.nat(999),
});
type FileSpec = typeof fileArb extends fc.Arbitrary<infer T> ? T : never;
type OneD = typeof oneDArb extends fc.Arbitrary<infer T> ? T : never;
type Grid = typeof gridArb extends fc.Arbitrary<infer T> ? T : never;
type Compound = typeof compoundArb extends fc.Arbitrary<infer T> ? T : never;

/**
 * A dataset's chunking and deflate level: chunks no longer than its rows, none for an empty
 * dataset, and no deflate of variable-length strings (HDF5 compresses no such data).
 */
function stored(
  s: Storage,
  rows: number,
  kind: Kind | 'compound',
  width?: number,
): Partial<DatasetSpec> {
  if (s.chunk === undefined || rows === 0) return {};
  const chunk = Math.min(s.chunk, rows);
  return {
    chunks: width === undefined ? [chunk] : [chunk, width],
    ...(s.deflate > 0 && kind !== 'string' ? { deflate: s.deflate } : {}),
  };
}

/** What a file is built of, while its datasets are written down. */
interface Build {
  spec: FileSpec;
  /** Paths taken: a source whose paths are taken moves to a group of its own. */
  taken: Set<string>;
  datasets: DatasetSpec[];
  /** The 1-D time datasets written, and the 1-D value datasets. */
  times: string[];
  values: string[];
}

const encodingOf = (b: Build, own: TimeName | undefined): TimeEncoding => TIMES[own ?? b.spec.time];

function times(b: Build, enc: TimeEncoding, rows: number): Scalar[] {
  return range(rows, (i) => timeAt(enc, b.spec.glitch, rows, i));
}

/** A group for a source: its own, or a fresh one below it when a path there is taken. */
function groupFor(b: Build, group: string, names: string[], k: number): string {
  const free = (g: string) => names.every((n) => !b.taken.has(`${g}/${n}`));
  const g = free(group) ? group : `${group}/s${k}`;
  for (const n of names) b.taken.add(`${g}/${n}`);
  return g;
}

/** A 1-D time dataset and 1-D value datasets beside it (names made unique in the group). */
function writeOneD(b: Build, s: OneD, k: number): void {
  const enc = encodingOf(b, s.time);
  const used = new Set<string>([s.timeName]);
  const names = s.channels.map((c) => {
    let name = c.name;
    while (used.has(name)) name = `${c.name}_${used.size}`;
    used.add(name);
    return name;
  });
  const group = groupFor(b, s.group, [...used], k);
  const timePath = `${group}/${s.timeName}`;
  b.times.push(timePath);
  b.datasets.push({
    path: timePath,
    kind: enc.kind,
    values: times(b, enc, s.rows),
    ...(enc.attrs ? { attrs: enc.attrs } : {}),
    ...(s.scale ? { scale: s.timeName } : {}),
    ...stored(s.storage, s.rows, enc.kind),
  });
  s.channels.forEach((c, j) => {
    const attrs: Record<string, string> = {};
    if (c.units !== undefined) attrs[j % 2 === 0 ? 'units' : 'Units'] = c.units;
    if (c.nameAttr) attrs.Name = `channel ${j}`;
    b.values.push(`${group}/${names[j]}`);
    b.datasets.push({
      path: `${group}/${names[j]}`,
      kind: c.kind,
      values: range(s.rows, (i) => valueAt(c.kind, i, c.special, b.spec.seed + j)),
      ...(c.kind === 'enum' ? { enumMembers: ENUM } : {}),
      ...(Object.keys(attrs).length > 0 ? { attrs } : {}),
      ...(s.scale ? { attachScale: timePath } : {}),
      ...stored(c.storage, s.rows, c.kind),
    });
  });
}

/** An [N, k] dataset: time in a column, or from a dimension scale; values in the others. */
function writeGrid(b: Build, s: Grid, k: number): void {
  const enc = encodingOf(b, s.time);
  const scaled = s.scaled || enc.grid === undefined;
  const kind = scaled ? s.scaledKind : (enc.grid ?? 'float64');
  const timeName = `${s.name}_time`;
  const group = groupFor(b, s.group, scaled ? [s.name, timeName] : [s.name], k);
  const path = `${group}/${s.name}`;
  const timeColumn = s.timeColumn === undefined ? 0 : s.timeColumn % s.columns;
  const t = times(b, enc, s.rows);
  const attrs: Record<string, string | string[]> = {};
  if (s.timeColumn !== undefined && !scaled) {
    attrs.columns = range(s.columns, (c) => (c === timeColumn ? 'time' : `c${c}`));
  }
  if (s.units === 'per column') attrs.units = range(s.columns, (c) => `u${c}`);
  else if (s.units !== undefined) attrs.units = s.units;
  const values = range(s.rows * s.columns, (j) => {
    const row = Math.floor(j / s.columns);
    const c = j % s.columns;
    if (!scaled && c === timeColumn) return t[row] as Scalar;
    return valueAt(kind, row, s.special && c === s.columns - 1, b.spec.seed + c);
  });
  if (scaled) {
    b.times.push(`${group}/${timeName}`);
    b.datasets.push({
      path: `${group}/${timeName}`,
      kind: enc.kind,
      values: t,
      ...(enc.attrs ? { attrs: enc.attrs } : {}),
      scale: timeName,
    });
  }
  b.datasets.push({
    path,
    kind,
    shape: [s.rows, s.columns],
    values,
    ...(Object.keys(attrs).length > 0 ? { attrs } : {}),
    ...(scaled ? { attachScale: `${group}/${timeName}` } : {}),
    ...stored(s.storage, s.rows, kind, s.columns),
  });
}

/** A compound dataset: a time member among value members (a bool one last). */
function writeCompound(b: Build, s: Compound, k: number): void {
  const enc = encodingOf(b, s.time);
  const group = groupFor(b, s.group, [s.name], k);
  const others: MemberSpec[] = s.members.map((kind, j) => ({
    name: `v${j}`,
    kind,
    values: range(s.rows, (i) => valueAt(kind, i, s.special, b.spec.seed + j)),
  }));
  const time: MemberSpec = { name: s.timeName, kind: enc.kind, values: times(b, enc, s.rows) };
  const at = s.timeName === 'x0' ? 0 : Math.min(s.timeAt, others.length);
  const members = [...others.slice(0, at), time, ...others.slice(at)];
  if (s.boolLast) {
    members.push({ name: 'flag', kind: 'bool', values: range(s.rows, (i) => i % 2 === 0) });
  }
  b.datasets.push({
    path: `${group}/${s.name}`,
    kind: 'compound',
    members,
    ...(s.units ? { attrs: { units: members.map((m) => (m === time ? 's' : 'V')) } } : {}),
    ...stored(s.storage, s.rows, 'compound'),
  });
}

/** Datasets infer leaves out, each for its reason. */
const EXTRA_DATASETS: Record<(typeof EXTRAS)[number], DatasetSpec> = {
  scalar: { path: '/meta/version', kind: 'int32', values: [3], shape: [] },
  image: {
    path: '/meta/image',
    kind: 'uint8',
    values: range(64, (i) => i),
    shape: [8, 8],
    attrs: { CLASS: 'IMAGE' },
  },
  cube: { path: '/meta/cube', kind: 'float32', values: range(24, (i) => i), shape: [2, 3, 4] },
  orphan: { path: '/meta/lonely', kind: 'float64', values: range(7, (i) => i) },
};

/**
 * The datasets of a spec. Text times go in no [N, k] dataset (its columns share one numeric
 * type) and in no compound here (the fixture writer's fixed-length text is 8 bytes): such a
 * compound source is written as a 1-D time and value instead.
 */
function built(spec: FileSpec): Build {
  const b: Build = { spec, taken: new Set(), datasets: [], times: [], values: [] };
  spec.sources.forEach((s, k) => {
    if (s.layout === 'grid') writeGrid(b, s, k);
    else if (s.layout === 'compound' && encodingOf(b, s.time).kind !== 'string') {
      writeCompound(b, s, k);
    } else if (s.layout === 'compound') {
      const channel = { kind: s.members[0] ?? 'float64', name: s.name, units: undefined };
      const oneD: OneD = {
        ...s,
        layout: 'oneD',
        timeName: 'time',
        scale: false,
        channels: [{ ...channel, nameAttr: false, special: s.special, storage: s.storage }],
      };
      writeOneD(b, oneD, k);
    } else writeOneD(b, s, k);
  });
  for (const e of spec.extras) b.datasets.push(EXTRA_DATASETS[e]);
  return b;
}

/** Writes the file of a spec: its datasets, then its links. */
async function writeSpec(path: string, b: Build): Promise<void> {
  await writeHdf5(path, b.datasets);
  if (b.spec.links.length === 0) return;
  await h5wasm.ready;
  const f = new h5wasm.File(path, 'a');
  try {
    const target = b.values[0] ?? b.times[0] ?? '/meta/version';
    if (b.spec.links.includes('soft')) f.create_soft_link(target, 'alias');
    if (b.spec.links.includes('hard') && b.values[0]) f.create_hard_link(b.values[0], 'copy');
    if (b.spec.links.includes('dangling')) f.create_soft_link('/nowhere', 'dangling');
    if (b.spec.links.includes('external')) f.create_external_link('other.h5', '/time', 'external');
  } finally {
    f.close();
  }
}

/**
 * Infer's options for a spec: a start when a relative time has none; a time format and a
 * time dataset given, right or wrong for the file.
 */
function optionsOf(b: Build): LoopOptions {
  const { spec } = b;
  const used = [spec.time, ...spec.sources.map((s) => s.time ?? spec.time)];
  const relative = used.some((t) => (TIMES[t] as TimeEncoding).relative === true);
  const timeDataset =
    spec.timeDataset === 'time'
      ? b.times[0]
      : spec.timeDataset === 'value'
        ? b.values[0]
        : spec.timeDataset === 'missing'
          ? '/no/such/time'
          : undefined;
  return {
    ...(relative ? { relativeStartTime: START } : {}),
    ...(spec.timeFormat !== undefined ? { timeFormat: spec.timeFormat } : {}),
    ...(timeDataset !== undefined ? { timeDataset } : {}),
  };
}

// ---- files written with h5wasm directly ------------------------------------------------------

type H5File = InstanceType<(typeof h5wasm)['File']>;

/**
 * A time of the h5wasm writer and its dtype: fixed-length text (space-padded UTF-8, or ASCII
 * just long enough), or 64-bit numbers.
 */
const TEXT_TIMES = {
  rfc3339: { dtype: 'S32', value: (i: number) => iso(T0 + i / 10) },
  rfc3339Exact: { dtype: 'A24', value: (i: number) => iso(T0 + i / 10) },
  datetime: { dtype: 'S26', value: (i: number) => stamp(T0 + i, ' ') },
  int64Nanos: { dtype: '<q', value: (i: number) => BigInt(T0 + i) * 1_000_000_000n },
  float64Seconds: { dtype: '<d', value: (i: number) => T0 + i / 10 },
} as const;

/** Filters h5wasm writes besides deflate (h5py's shuffle=True, fletcher32=True). */
const FILTERS = {
  none: {},
  gzip: { compression: 'gzip', compression_opts: 6 },
  shuffle: { compression: 2, compression_opts: [8] },
  fletcher32: { compression: 3, compression_opts: [] },
} as const;

const directArb = fc.record({
  time: fc.constantFrom(...(Object.keys(TEXT_TIMES) as Array<keyof typeof TEXT_TIMES>)),
  compound: fc.boolean(),
  rows: fc.integer({ min: 1, max: 200 }),
  /** Rows appended at a time to unlimited datasets (none: written whole). */
  step: fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }),
  /** Appended datasets grown by rows never written (a logger stopped mid-write): fill values. */
  unwritten: fc.oneof({ arbitrary: fc.constant(0), weight: 3 }, fc.integer({ min: 1, max: 3 })),
  filter: fc.constantFrom(...(Object.keys(FILTERS) as Array<keyof typeof FILTERS>)),
  /** A bad time in the middle (text: not a time; numbers: a step back). */
  bad: fc.boolean(),
  /** An int32 channel stored with the scale-offset filter. */
  scaleOffset: fc.boolean(),
  /** Units as fixed-length text attributes. */
  units: fc.boolean(),
});
type Direct = typeof directArb extends fc.Arbitrary<infer T> ? T : never;

/** Writes a dataset whole, or grows an unlimited one `step` rows at a time. */
function writeGrown(
  f: H5File,
  name: string,
  data: (from: number, to: number) => unknown,
  dtype: unknown,
  s: Direct,
  filtered: object,
): void {
  if (s.step === undefined) {
    f.create_dataset({ name, data: data(0, s.rows) as never, dtype: dtype as never, ...filtered });
    return;
  }
  const first = Math.min(s.step, s.rows);
  const ds = f.create_dataset({
    name,
    data: data(0, first) as never,
    dtype: dtype as never,
    shape: [first],
    maxshape: [null],
    ...{ chunks: [s.step], ...filtered },
  });
  for (let at = first; at < s.rows; at += s.step) {
    const to = Math.min(s.rows, at + s.step);
    ds.resize([to]);
    ds.write_slice([[at, to]], data(at, to) as never);
  }
  if (s.unwritten > 0) ds.resize([s.rows + s.unwritten]);
}

/** Typed values of a time of a numeric dtype, else text. */
function timeData(s: Direct, values: Scalar[]): unknown {
  const dtype = TEXT_TIMES[s.time].dtype;
  if (dtype === '<q') return BigInt64Array.from(values as bigint[]);
  if (dtype === '<d') return Float64Array.from(values as number[]);
  return values;
}

/**
 * A file of a time (fixed-length text, int64 or float64) and float and int values: 1-D
 * datasets in a group, or one compound with a nested compound member beside them.
 */
async function writeDirect(path: string, s: Direct): Promise<void> {
  await h5wasm.ready;
  const enc = TEXT_TIMES[s.time];
  const badRow = s.bad && s.rows > 2 ? Math.floor(s.rows / 2) : -1;
  const t = (i: number): Scalar =>
    i !== badRow ? enc.value(i) : enc.dtype.startsWith('<') ? enc.value(0) : 'n/a';
  const chunk = s.step ?? Math.max(1, Math.min(16, s.rows));
  const filtered = s.filter === 'none' ? {} : { chunks: [chunk], ...FILTERS[s.filter] };
  const all = range(s.rows, t);
  const times = (a: number, b: number) => timeData(s, all.slice(a, b));
  const speeds = (a: number, b: number) => Float32Array.from(range(b - a, (i) => (a + i) / 3));
  const counts = (a: number, b: number) => Int32Array.from(range(b - a, (i) => (a + i) * 7 - 50));
  const f = new h5wasm.File(path, 'w');
  try {
    if (s.compound) {
      const rows = (a: number, b: number) =>
        new Map<string, unknown>([
          ['timestamp', times(a, b)],
          ['speed', speeds(a, b)],
          ['count', counts(a, b)],
          [
            'pos',
            new Map([
              ['x', Float64Array.from(range(b - a, (i) => a + i))],
              ['y', Float64Array.from(range(b - a, (i) => -(a + i)))],
            ]),
          ],
        ]);
      const dtype = [
        ['timestamp', enc.dtype],
        ['speed', '<f'],
        ['count', '<i'],
        [
          'pos',
          [
            ['x', '<d'],
            ['y', '<d'],
          ],
        ],
      ];
      writeGrown(f, 'sensors', rows, dtype, s, filtered);
    } else {
      f.create_group('log');
      writeGrown(f, 'log/time', times, enc.dtype, s, filtered);
      writeGrown(f, 'log/speed', speeds, '<f', s, filtered);
      const offset = { chunks: [chunk], compression: 6, compression_opts: [2, 0] };
      writeGrown(f, 'log/count', counts, '<i', s, s.scaleOffset ? offset : filtered);
      if (s.units) {
        const speed = f.get('log/speed') as InstanceType<(typeof h5wasm)['Dataset']>;
        speed.create_attribute('units', 'm/s', null, 'S8');
      }
    }
  } finally {
    f.close();
  }
}

/** Files whose sources all write the file's time encoding, inferred without a format. */
const oneEncodingArb = fileArb.map((f) => ({
  ...f,
  timeFormat: undefined,
  sources: f.sources.map((s) => ({ ...s, time: undefined })),
}));

/**
 * Files whose sources each write a time encoding of their own (the same or another), or
 * inferred with a time format given, right or wrong for the file.
 */
const otherTimesArb = fc
  .record({
    file: fileArb,
    times: fc.array(fc.constantFrom(...TIME_NAMES), { minLength: 3, maxLength: 3 }),
    timeFormat: fc.option(fc.constantFrom(...TIME_FORMAT_VALUES.slice(1)), { nil: undefined }),
  })
  .map(({ file, times, timeFormat }) => ({
    ...file,
    timeFormat,
    sources: file.sources.map((s, i) => ({ ...s, time: times[i] })),
  }))
  .filter((f) => f.sources.length > 1 || f.timeFormat !== undefined);

/** The loop on the file of a spec, written with the fixture writer. */
async function fixtureLoop(spec: FileSpec, path: string, name: string): Promise<string[]> {
  const b = built(spec);
  await writeSpec(path, b);
  return shown(await closedLoop(path, dir, name, optionsOf(b)));
}

describe('generated HDF5 files: infer → lint → fmt → check', () => {
  test('1-D, [N, k] and compound layouts, every stored type and time encoding, in groups', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(oneEncodingArb, async (spec) => {
        expect(await fixtureLoop(spec, join(dir, `one-${n++}.h5`), 'one')).toEqual([]);
      }),
      { numRuns: 20 },
    );
  }, 120_000);

  test('time datasets of different encodings in one file, and a time format given right or wrong', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(otherTimesArb, async (spec) => {
        expect(await fixtureLoop(spec, join(dir, `other-${n++}.h5`), 'other')).toEqual([]);
      }),
      { numRuns: 20 },
    );
  }, 120_000);

  test('batches of files, as a folder and as a zip of stored and deflated members', async () => {
    // A batch is given its options once, for every file: no time format or dataset of one.
    const spec = fc.record({
      files: fc.array(
        oneEncodingArb.map((f) => ({ ...f, timeDataset: undefined })),
        { minLength: 1, maxLength: 3 },
      ),
      zip: fc.boolean(),
    });
    let n = 0;
    await fc.assert(
      fc.asyncProperty(spec, async ({ files, zip }) => {
        const folder = join(dir, `batch-${n++}`);
        await mkdir(join(folder, 'runs'), { recursive: true });
        const members: ZipMember[] = [];
        let options: LoopOptions = {};
        for (const [i, f] of files.entries()) {
          const b = built(f);
          const name = `runs/run-${i}.h5`;
          await writeSpec(join(folder, name), b);
          const data = await readFile(join(folder, name));
          members.push({ name, data, method: i % 2 === 0 ? 8 : 0 });
          options = { ...options, ...optionsOf(b) };
        }
        const path = zip ? `${folder}.zip` : folder;
        if (zip) await writeFile(path, zipBytes(members));
        expect(shown(await closedLoop(path, dir, 'batch', options))).toEqual([]);
      }),
      { numRuns: 5 },
    );
  }, 120_000);

  test('fixed-length text times, appended unlimited datasets and filters, written with h5wasm', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(directArb, async (s) => {
        const path = join(dir, `direct-${n++}.h5`);
        await writeDirect(path, s);
        expect(shown(await closedLoop(path, dir, 'direct'))).toEqual([]);
      }),
      { numRuns: 8 },
    );
  }, 120_000);

  test('logger files: time and values appended in turn, deflated', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 300 }),
        fc.integer({ min: 1, max: 50 }),
        async (rows, step) => {
          const path = join(dir, 'logger.h5');
          await appendedTimeAndValues(path, rows, step);
          expect(shown(await closedLoop(path, dir, 'logger'))).toEqual([]);
        },
      ),
      { numRuns: 4 },
    );
  }, 120_000);
});
