/**
 * `check --full` for Parquet reads the values of the columns the config names: one row group
 * at a time, in batches (parquet-wasm's reader: the faster of the two decoders measured,
 * see bench/check-parquet.bench.ts), so memory is bounded by one row group. It counts, per
 * column: time going backwards, repeated and null times; NaN and ±inf; integers (or
 * fractions) outside the declared integer type; ENUM values not among the enumTypes.
 */
import { openAsBlob } from 'node:fs';
import type { Data } from 'apache-arrow';
import type { ChannelDataType, EnumType } from '../model/index.js';
import type { Issue, IssueSource } from '../model/plain.js';
import { checkIssue, listSome, quoteValue, shortName } from './_issue.js';

/** A channel whose values are judged, with the pointer of its channel config. */
export interface ValueChannel {
  column: string;
  ptr: string;
  dataType: ChannelDataType;
  enumTypes?: readonly EnumType[] | undefined;
}

export interface TimeTally {
  decreases: number;
  firstDecrease?: number;
  repeats: number;
  firstRepeat?: number;
  nulls: number;
  firstNull?: number;
  min?: bigint | number;
  max?: bigint | number;
}

export interface ChannelTally {
  nan: number;
  posInf: number;
  negInf: number;
  firstNonFinite?: number;
  outside: number;
  firstOutside?: number;
  /** Smallest and largest value outside the type (numbers and bigints as text). */
  outsideMin?: bigint | number;
  outsideMax?: bigint | number;
  fractions: number;
  /** ENUM values not in enumTypes, in order of first appearance, with their counts. */
  unknown: Map<string, number>;
  firstUnknown?: number;
}

export interface ValueTallies {
  rows: number;
  time?: TimeTally;
  channels: Map<string, ChannelTally>;
}

/** Rows decoded per batch: small enough that a batch is a few MB whatever the width. */
const BATCH_ROWS = 65_536;

/** Declared integer types and the values they hold. */
const INT_RANGES: Partial<Record<ChannelDataType, readonly [bigint, bigint]>> = {
  CHANNEL_DATA_TYPE_INT_32: [-(2n ** 31n), 2n ** 31n - 1n],
  CHANNEL_DATA_TYPE_UINT_32: [0n, 2n ** 32n - 1n],
  CHANNEL_DATA_TYPE_INT_64: [-(2n ** 63n), 2n ** 63n - 1n],
  CHANNEL_DATA_TYPE_UINT_64: [0n, 2n ** 64n - 1n],
};

export function intRangeOf(t: ChannelDataType): readonly [bigint, bigint] | undefined {
  return INT_RANGES[t];
}

/** Reads the named columns row group by row group and tallies what the checks report. */
export async function scanParquetValues(
  path: string,
  time: string | undefined,
  channels: readonly ValueChannel[],
  onProgress?: (done: number, total: number) => void,
): Promise<ValueTallies> {
  const columns = [
    ...new Set([...(time === undefined ? [] : [time]), ...channels.map((c) => c.column)]),
  ];
  const timeState = time === undefined ? undefined : newTimeState();
  const judges = channels.map((c) => ({ c, j: channelJudge(c) }));
  /** One decoded piece of a column, its first row at `base` (0-based). */
  const feed = (column: string, chunk: Chunk, base: number) => {
    if (column === time && timeState) tallyTime(timeState, chunk, base);
    for (const x of judges) if (x.c.column === column) x.j.tally(chunk, base);
  };
  let rows: number;
  try {
    rows = await readWithParquetWasm(path, columns, feed, onProgress);
  } catch (err) {
    // parquet-wasm refuses some footers other writers produce (hyparquet reads them):
    // read those with hyparquet, which is slower but accepts them.
    if (!/Parquet error/i.test(String(err))) throw err;
    judges.forEach((x) => {
      x.j = channelJudge(x.c);
    });
    if (timeState) Object.assign(timeState, newTimeState());
    rows = await readWithHyparquet(path, columns, feed, onProgress);
  }
  const out: ValueTallies = { rows, channels: new Map() };
  if (timeState) out.time = timeState.tally;
  for (const { c, j } of judges) out.channels.set(c.column, j.result);
  return out;
}

type Feed = (column: string, chunk: Chunk, base: number) => void;

async function readWithParquetWasm(
  path: string,
  columns: string[],
  feed: Feed,
  onProgress: ((done: number, total: number) => void) | undefined,
): Promise<number> {
  const pw = await import('parquet-wasm');
  const { tableFromIPC } = await import('apache-arrow');
  const file = await pw.ParquetFile.fromFile(await openAsBlob(path));
  let rows = 0;
  try {
    const total = file.metadata().fileMetadata().numRows();
    // One stream over every row group: the reader still decodes one group at a time, and a
    // stream per group costs twice the time in setting up.
    const stream = await file.stream({ batchSize: BATCH_ROWS, columns });
    for await (const batch of stream as unknown as AsyncIterable<{ intoIPCStream(): Uint8Array }>) {
      const table = tableFromIPC(batch.intoIPCStream());
      for (const column of columns) {
        let row = rows;
        for (const d of table.getChild(column)?.data ?? []) {
          feed(column, arrowChunk(d), row);
          row += d.length;
        }
      }
      rows += table.numRows;
      onProgress?.(rows, total);
    }
  } finally {
    file.free();
  }
  return rows;
}

/** Raw integers for times and dates (hyparquet's defaults make `Date`s and drop nanoseconds). */
const RAW = {
  timestampFromMilliseconds: (v: bigint) => v,
  timestampFromMicroseconds: (v: bigint) => v,
  timestampFromNanoseconds: (v: bigint) => v,
  dateFromDays: (v: number) => v,
};

async function readWithHyparquet(
  path: string,
  columns: string[],
  feed: Feed,
  onProgress: ((done: number, total: number) => void) | undefined,
): Promise<number> {
  const { asyncBufferFromFile, parquetMetadataAsync, parquetRead } = await import('hyparquet');
  const file = await asyncBufferFromFile(path);
  const metadata = await parquetMetadataAsync(file);
  const total = Number(metadata.num_rows);
  let start = 0;
  for (const group of metadata.row_groups) {
    const end = start + Number(group.num_rows);
    await parquetRead({
      file,
      metadata,
      columns,
      rowStart: start,
      rowEnd: end,
      parsers: RAW as never,
      onChunk: (c) => {
        // A chunk may hold rows outside the group asked for: keep only the group's.
        const from = Math.max(start, c.rowStart);
        const to = Math.min(end, c.rowEnd);
        if (to > from) {
          const view = c.columnData.slice(from - c.rowStart, to - c.rowStart);
          feed(c.columnName, arrayChunk(view as ArrayLike<unknown>), from);
        }
      },
    });
    start = end;
    onProgress?.(start, total);
  }
  return start;
}

/**
 * A decoded piece of one column, whichever reader decoded it: which rows hold a value,
 * the values as numbers or bigints (numeric columns), else each row's text.
 */
interface Chunk {
  length: number;
  has(i: number): boolean;
  numbers?: ArrayLike<number> | ArrayLike<bigint> | undefined;
  text?: ((i: number) => string) | undefined;
  /** UTF-8 bytes of a text column and each row's start (row i ends where i + 1 starts). */
  utf8?: { bytes: Uint8Array; offsets: ArrayLike<number> } | undefined;
}

/** Arrow type ids whose values are one number a row: Int, Float, Date, Time, Timestamp, Duration. */
const NUMERIC_TYPE_IDS: ReadonlySet<number> = new Set([2, 3, 8, 9, 10, 18]);

function arrowChunk(d: Data): Chunk {
  const bitmap = d.nullBitmap;
  const off = d.offset;
  const has =
    !bitmap || bitmap.length === 0 || d.nullCount === 0
      ? () => true
      : (i: number) => ((bitmap[(off + i) >> 3] as number) & (1 << ((off + i) & 7))) !== 0;
  const chunk: Chunk = { length: d.length, has };
  const v = d.values as unknown;
  if (NUMERIC_TYPE_IDS.has(d.typeId) && d.dictionary === undefined && ArrayBuffer.isView(v)) {
    chunk.numbers = v as unknown as ArrayLike<number> | ArrayLike<bigint>;
  } else if (d.dictionary !== undefined) {
    const dict = d.dictionary;
    const indices = v as ArrayLike<number>;
    chunk.text = (i) => String(dict.get(Number(indices[i])));
  } else if (d.valueOffsets !== undefined && v instanceof Uint8Array) {
    const offsets = d.valueOffsets as ArrayLike<number>;
    const bytes = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
    chunk.text = (i) => bytes.toString('utf8', Number(offsets[i]), Number(offsets[i + 1]));
    chunk.utf8 = { bytes: v, offsets };
  }
  return chunk;
}

function arrayChunk(values: ArrayLike<unknown>): Chunk {
  const has = (i: number) => values[i] !== null && values[i] !== undefined;
  const chunk: Chunk = { length: values.length, has };
  let first: unknown;
  for (let i = 0; i < values.length && first === undefined; i++) first = values[i] ?? undefined;
  if (typeof first === 'number' || typeof first === 'bigint') {
    chunk.numbers = values as ArrayLike<number> | ArrayLike<bigint>;
  } else if (typeof first === 'string') {
    chunk.text = (i) => String(values[i]);
  }
  return chunk;
}

interface TimeState {
  tally: TimeTally;
  prev: bigint | number | undefined;
}

function newTimeState(): TimeState {
  return { tally: { decreases: 0, repeats: 0, nulls: 0 }, prev: undefined };
}

/** Time order, repeats and nulls of one chunk of the time column (rows from `base`). */
function tallyTime(s: TimeState, d: Chunk, base: number): void {
  const t = s.tally;
  const { has, numbers: values } = d;
  if (values instanceof BigInt64Array) {
    tallyTimeInt64(s, values, has, base);
    return;
  }
  for (let i = 0; i < d.length; i++) {
    if (!has(i)) {
      t.nulls += 1;
      t.firstNull ??= base + i + 1;
      continue;
    }
    if (values === undefined) continue;
    const v = values[i] as bigint | number;
    const prev = s.prev;
    if (prev !== undefined) {
      if (v < prev) {
        t.decreases += 1;
        t.firstDecrease ??= base + i + 1;
      } else if (v === prev) {
        t.repeats += 1;
        t.firstRepeat ??= base + i + 1;
      }
    }
    if (t.min === undefined || v < t.min) t.min = v;
    if (t.max === undefined || v > t.max) t.max = v;
    s.prev = v;
  }
}

/**
 * The same for 64-bit integers, compared as two 32-bit halves: reading a BigInt64Array
 * element makes a bigint on the heap, and 20 M of them cost more than the decoding.
 */
function tallyTimeInt64(
  s: TimeState,
  values: BigInt64Array,
  has: (i: number) => boolean,
  base: number,
): void {
  const t = s.tally;
  const lo32 = new Uint32Array(values.buffer, values.byteOffset, values.length * 2);
  const hi32 = new Int32Array(values.buffer, values.byteOffset, values.length * 2);
  const prev = typeof s.prev === 'bigint' ? s.prev : undefined;
  let prevHi = prev === undefined ? 0 : Number(BigInt.asIntN(32, prev >> 32n));
  let prevLo = prev === undefined ? 0 : Number(BigInt.asUintN(32, prev));
  let havePrev = prev !== undefined;
  let minI = -1;
  let maxI = -1;
  let minHi = 0;
  let minLo = 0;
  let maxHi = 0;
  let maxLo = 0;
  let last = -1;
  for (let i = 0; i < values.length; i++) {
    if (!has(i)) {
      t.nulls += 1;
      t.firstNull ??= base + i + 1;
      continue;
    }
    const hi = hi32[2 * i + 1] as number;
    const lo = lo32[2 * i] as number;
    if (havePrev) {
      if (hi < prevHi || (hi === prevHi && lo < prevLo)) {
        t.decreases += 1;
        t.firstDecrease ??= base + i + 1;
      } else if (hi === prevHi && lo === prevLo) {
        t.repeats += 1;
        t.firstRepeat ??= base + i + 1;
      }
    }
    if (minI < 0 || hi < minHi || (hi === minHi && lo < minLo)) {
      minI = i;
      minHi = hi;
      minLo = lo;
    }
    if (maxI < 0 || hi > maxHi || (hi === maxHi && lo > maxLo)) {
      maxI = i;
      maxHi = hi;
      maxLo = lo;
    }
    prevHi = hi;
    prevLo = lo;
    havePrev = true;
    last = i;
  }
  if (last < 0) return;
  const min = values[minI] as bigint;
  const max = values[maxI] as bigint;
  if (t.min === undefined || min < t.min) t.min = min;
  if (t.max === undefined || max > t.max) t.max = max;
  s.prev = values[last] as bigint;
}

interface Judge {
  tally(d: Chunk, base: number): void;
  result: ChannelTally;
}

function channelJudge(c: ValueChannel): Judge {
  const result: ChannelTally = {
    nan: 0,
    posInf: 0,
    negInf: 0,
    outside: 0,
    fractions: 0,
    unknown: new Map(),
  };
  const range = INT_RANGES[c.dataType];
  const isEnum = c.dataType === 'CHANNEL_DATA_TYPE_ENUM';
  const names = new Set((c.enumTypes ?? []).map((e) => e.name));
  const nameBytes = [...names].map((n) => new TextEncoder().encode(n));
  const keys = new Set((c.enumTypes ?? []).map((e) => BigInt(e.key)));
  return {
    result,
    tally(d, base) {
      if (d.numbers !== undefined) {
        tallyNumbers(result, d, d.numbers, base, range, isEnum ? keys : undefined);
      } else if (isEnum && d.text !== undefined) {
        tallyEnumText(result, d, d.text, base, names, nameBytes);
      }
    },
  };
}

/** NaN/±inf, values outside the declared integer range, and unknown enum keys. */
function tallyNumbers(
  r: ChannelTally,
  d: Chunk,
  values: ArrayLike<number> | ArrayLike<bigint>,
  base: number,
  range: readonly [bigint, bigint] | undefined,
  enumKeys: ReadonlySet<bigint> | undefined,
): void {
  const { has } = d;
  if (enumKeys === undefined && (range === undefined || holdsEvery(range, values))) {
    if (values instanceof Float64Array || values instanceof Float32Array)
      tallyNonFinite(r, values, has, base);
    return;
  }
  const lo = range === undefined ? 0 : Number(range[0]);
  const hi = range === undefined ? 0 : Number(range[1]);
  for (let i = 0; i < d.length; i++) {
    const v = values[i] as number | bigint;
    if (typeof v === 'number' && !Number.isFinite(v)) {
      if (!has(i)) continue;
      if (Number.isNaN(v)) r.nan += 1;
      else if (v > 0) r.posInf += 1;
      else r.negInf += 1;
      r.firstNonFinite ??= base + i + 1;
      continue;
    }
    if (range !== undefined) {
      const whole = typeof v === 'bigint' || Number.isInteger(v);
      const inside =
        typeof v === 'bigint'
          ? v >= (range[0] as bigint) && v <= (range[1] as bigint)
          : v >= lo && v <= hi;
      if ((!whole || !inside) && has(i)) {
        r.outside += 1;
        if (!whole) r.fractions += 1;
        r.firstOutside ??= base + i + 1;
        if (r.outsideMin === undefined || v < r.outsideMin) r.outsideMin = v;
        if (r.outsideMax === undefined || v > r.outsideMax) r.outsideMax = v;
      }
    }
    if (enumKeys !== undefined && has(i)) {
      const key = typeof v === 'bigint' ? v : Number.isInteger(v) ? BigInt(v) : undefined;
      if (key === undefined || !enumKeys.has(key)) unknownEnum(r, String(v), base + i + 1);
    }
  }
}

/** Integer arrays whose every value a declared range holds need no look at each value. */
function holdsEvery(
  range: readonly [bigint, bigint],
  values: ArrayLike<number> | ArrayLike<bigint>,
): boolean {
  const [lo, hi] =
    values instanceof Int32Array
      ? [-(2n ** 31n), 2n ** 31n - 1n]
      : values instanceof Int16Array
        ? [-(2n ** 15n), 2n ** 15n - 1n]
        : values instanceof Int8Array
          ? [-128n, 127n]
          : values instanceof Uint32Array
            ? [0n, 2n ** 32n - 1n]
            : values instanceof Uint16Array
              ? [0n, 65_535n]
              : values instanceof Uint8Array
                ? [0n, 255n]
                : values instanceof BigInt64Array
                  ? [-(2n ** 63n), 2n ** 63n - 1n]
                  : [1n, 0n];
  return lo <= hi && range[0] <= lo && hi <= range[1];
}

/** NaN and ±inf of a float column with no declared integer type. */
function tallyNonFinite(
  r: ChannelTally,
  values: Float64Array | Float32Array,
  has: (i: number) => boolean,
  base: number,
): void {
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    // v - v is NaN exactly for NaN and ±inf.
    if (v - v === 0 || !has(i)) continue;
    if (Number.isNaN(v)) r.nan += 1;
    else if (v > 0) r.posInf += 1;
    else r.negInf += 1;
    r.firstNonFinite ??= base + i + 1;
  }
}

function unknownEnum(r: ChannelTally, value: string, row: number): void {
  r.unknown.set(value, (r.unknown.get(value) ?? 0) + 1);
  r.firstUnknown ??= row;
}

/** ENUM names in a text chunk that enumTypes lacks. */
function tallyEnumText(
  r: ChannelTally,
  d: Chunk,
  text: (i: number) => string,
  base: number,
  names: ReadonlySet<string>,
  nameBytes: readonly Uint8Array[],
): void {
  const utf8 = d.utf8;
  for (let i = 0; i < d.length; i++) {
    if (!d.has(i)) continue;
    // Compare bytes with the known names: no string is made for a known value.
    if (
      utf8 &&
      knownBytes(utf8.bytes, utf8.offsets[i] as number, utf8.offsets[i + 1] as number, nameBytes)
    )
      continue;
    const s = text(i);
    if (!names.has(s)) unknownEnum(r, s, base + i + 1);
  }
}

function knownBytes(
  bytes: Uint8Array,
  start: number,
  end: number,
  names: readonly Uint8Array[],
): boolean {
  const len = end - start;
  for (const name of names) {
    if (name.length !== len) continue;
    let k = 0;
    while (k < len && bytes[start + k] === name[k]) k++;
    if (k === len) return true;
  }
  return false;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The time column's findings: nulls, going backwards, repeats. */
export function timeValueIssues(t: TimeTally, ptr: string, file: string, column: string): Issue[] {
  const out: Issue[] = [];
  const source = (row: number) => ({ file, column, row });
  if (t.firstNull !== undefined) {
    out.push(
      checkIssue(
        'time_null',
        ptr,
        `${plural(t.nulls, 'row has', 'rows have')} no time (null); first at row ${t.firstNull}`,
        { source: source(t.firstNull) },
      ),
    );
  }
  if (t.firstDecrease !== undefined) {
    out.push(
      checkIssue(
        'time_decreasing',
        ptr,
        `time goes backwards ${plural(t.decreases, 'time')}; first at row ${t.firstDecrease}`,
        { source: source(t.firstDecrease) },
      ),
    );
  }
  if (t.firstRepeat !== undefined) {
    out.push(
      checkIssue(
        'time_repeated',
        ptr,
        `${plural(t.repeats, 'row repeats', 'rows repeat')} the time of the row before; first at row ${t.firstRepeat}`,
        { source: source(t.firstRepeat) },
      ),
    );
  }
  return out;
}

/** A channel's findings: NaN/±inf, values outside its integer type, unknown ENUM values. */
export function channelValueIssues(
  c: ValueChannel,
  r: ChannelTally,
  file: string,
  storedType: ChannelDataType,
): Issue[] {
  const out: Issue[] = [];
  const label = `column '${c.column}'`;
  const source = (row: number) => ({ file, column: c.column, row });
  if (r.firstNonFinite !== undefined) {
    const kinds = [
      r.nan > 0 ? `${r.nan} NaN` : '',
      r.posInf > 0 ? `${r.posInf} +inf` : '',
      r.negInf > 0 ? `${r.negInf} -inf` : '',
    ].filter((x) => x !== '');
    out.push(
      checkIssue(
        'value_not_finite',
        c.ptr,
        `${label} holds ${listSome(kinds, 3)}; first at row ${r.firstNonFinite}`,
        { source: source(r.firstNonFinite) },
      ),
    );
  }
  if (r.firstOutside !== undefined) out.push(outsideIssue(c, r, label, storedType, source));
  if (r.firstUnknown !== undefined) {
    const shown = [...r.unknown.entries()]
      .slice(0, 5)
      .map(([v, n]) => `${quoteValue(v)} (${plural(n, 'row')})`);
    out.push(
      checkIssue(
        'enum_value_unknown',
        `${c.ptr}/enumTypes`,
        `${label} holds ${plural(sum(r.unknown.values()), 'value')} not in enumTypes: ${listSome(shown, 5, r.unknown.size)}; first at row ${r.firstUnknown}`,
        {
          hint: 'Add them to enumTypes (a name and a key each), or fix the data.',
          source: source(r.firstUnknown),
        },
      ),
    );
  }
  return out;
}

function sum(xs: Iterable<number>): number {
  let n = 0;
  for (const x of xs) n += x;
  return n;
}

function outsideIssue(
  c: ValueChannel,
  r: ChannelTally,
  label: string,
  storedType: ChannelDataType,
  source: (row: number) => IssueSource,
): Issue {
  const [lo, hi] = INT_RANGES[c.dataType] ?? [0n, 0n];
  const what =
    r.fractions === r.outside
      ? `${plural(r.outside, 'value')} that ${r.outside === 1 ? 'is not a whole number' : 'are not whole numbers'}`
      : `${plural(r.outside, 'value')} outside ${shortName(c.dataType)} (${lo} to ${hi}), from ${r.outsideMin} to ${r.outsideMax}`;
  // The type the file stores the column as holds every value.
  const fits = storedType !== c.dataType ? storedType : undefined;
  return checkIssue(
    'value_outside_type',
    `${c.ptr}/dataType`,
    `${label} holds ${what}; first at row ${r.firstOutside}`,
    {
      hint: fits ? `Use dataType: ${fits}.` : undefined,
      source: source(r.firstOutside as number),
    },
  );
}

/**
 * The time tally of values given in pieces (rows in order), null where `has` says no:
 * the scan's own tally, exposed for tests of its fast path.
 */
export function timeTallyOf(
  pieces: ReadonlyArray<{
    values: ArrayLike<number> | ArrayLike<bigint>;
    has?: (i: number) => boolean;
  }>,
): TimeTally {
  const s = newTimeState();
  let base = 0;
  for (const p of pieces) {
    tallyTime(s, { length: p.values.length, has: p.has ?? (() => true), numbers: p.values }, base);
    base += p.values.length;
  }
  return s.tally;
}
