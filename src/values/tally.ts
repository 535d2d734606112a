/**
 * The value findings of `check --full`, whatever the format: the tallies of a time column
 * (going backwards, repeated, null, NaN/±inf) and of a channel (NaN/±inf, integers or
 * fractions outside the declared integer type, values other than 0 and 1 in a BOOL channel,
 * ENUM values not among the enumTypes), fed one decoded piece (`Chunk`) at a time, and the
 * issues they make (the time column's tally: tally-time.ts). The readers of each format feed
 * it: HDF5 and TDMS, shared by check and infer; Parquet and ULog in check.
 */
import type { ChannelDataType, EnumType } from '../model/index.js';
import { type Issue, type IssueCode, type IssueSource, issue, listSome } from '../model/plain.js';
import { type Chunk, isNumberArray } from './chunk.js';
import { type KnownNames, knownNamesOf, nextUnknownUtf8 } from './known-names.js';
import type { TimeTally } from './tally-time.js';

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

/** Declared integer types and the values they hold. */
const INT_RANGES: Partial<Record<ChannelDataType, readonly [bigint, bigint]>> = {
  CHANNEL_DATA_TYPE_INT_32: [-(2n ** 31n), 2n ** 31n - 1n],
  CHANNEL_DATA_TYPE_UINT_32: [0n, 2n ** 32n - 1n],
  CHANNEL_DATA_TYPE_INT_64: [-(2n ** 63n), 2n ** 63n - 1n],
  CHANNEL_DATA_TYPE_UINT_64: [0n, 2n ** 64n - 1n],
  CHANNEL_DATA_TYPE_BOOL: [0n, 1n],
};

export interface Judge {
  tally(d: Chunk, base: number): void;
  result: ChannelTally;
}

/** A channel whose values are judged: its declared type and enumTypes. */
export interface JudgedChannel {
  dataType: ChannelDataType;
  enumTypes?: readonly EnumType[] | undefined;
}

export function channelJudge(c: JudgedChannel): Judge {
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
  const known = knownNamesOf(names);
  // A signed enum's keys are its values as 32-bit unsigned: -1 is written 4294967295.
  const keyNumbers = new Set(
    (c.enumTypes ?? []).flatMap((e) => (e.isSigned ? [e.key, e.key | 0] : [e.key])),
  );
  const keys = new Set([...keyNumbers].map((k) => BigInt(k)));
  const keyLookup = enumKeyLookup(keyNumbers);
  return {
    result,
    tally(d, base) {
      const numbers = d.numbers;
      if (isEnum && isNumberArray(numbers)) {
        tallyEnumNumbers(result, d, numbers, base, keyLookup);
      } else if (numbers !== undefined) {
        tallyNumbers(result, d, numbers, base, range, isEnum ? keys : undefined);
      } else if (isEnum && d.text !== undefined) {
        tallyEnumText(result, d, d.text, base, names, known);
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
  if (enumKeys === undefined && range === undefined) {
    if (values instanceof Float64Array || values instanceof Float32Array) {
      tallyNonFinite(r, values, has, base);
      return;
    }
    // Integer arrays hold no NaN; plain arrays (hyparquet's) are looked at below.
    if (ArrayBuffer.isView(values)) return;
  } else if (enumKeys === undefined && range !== undefined && holdsEvery(range, values)) return;
  const lo = range === undefined ? 0 : Number(range[0]);
  const hi = range === undefined ? 0 : Number(range[1]);
  for (let i = 0; i < d.length; i++) {
    const v = values[i] as number | bigint;
    if (typeof v === 'number' && !Number.isFinite(v)) {
      if (has === undefined || has(i)) countNonFinite(r, v, base + i + 1);
      continue;
    }
    if (range !== undefined) {
      const whole = typeof v === 'bigint' || Number.isInteger(v);
      const inside =
        typeof v === 'bigint'
          ? v >= (range[0] as bigint) && v <= (range[1] as bigint)
          : v >= lo && v <= hi;
      if ((!whole || !inside) && (has === undefined || has(i))) {
        r.outside += 1;
        if (!whole) r.fractions += 1;
        r.firstOutside ??= base + i + 1;
        if (r.outsideMin === undefined || v < r.outsideMin) r.outsideMin = v;
        if (r.outsideMax === undefined || v > r.outsideMax) r.outsideMax = v;
      }
    }
    if (enumKeys !== undefined && (has === undefined || has(i))) {
      const key = typeof v === 'bigint' ? v : Number.isInteger(v) ? BigInt(v) : undefined;
      if (key === undefined || !enumKeys.has(key)) unknownEnum(r, String(v), base + i + 1);
    }
  }
}

/**
 * ENUM keys as numbers (integers of 32 bits, exact as numbers): a table of flags for the
 * keys from 0 to SMALL_KEYS - 1, the usual ones, and a set for any other.
 */
interface EnumKeyLookup {
  small: Uint8Array;
  others: ReadonlySet<number>;
}

const SMALL_KEYS = 65_536;

function enumKeyLookup(keys: Iterable<number>): EnumKeyLookup {
  const all = [...keys];
  const small = all.filter((k) => Number.isInteger(k) && k >= 0 && k < SMALL_KEYS);
  const table = new Uint8Array(small.reduce((most, k) => Math.max(most, k + 1), 0));
  for (const k of small) table[k] = 1;
  return { small: table, others: new Set(all.filter((k) => !small.includes(k))) };
}

/**
 * ENUM keys in a chunk of numbers that enumTypes lacks, and NaN/±inf, as tallyNumbers
 * counts them, each value looked up as the number it is. tallyNumbers makes a bigint of
 * every value to look it up among bigint keys: 415 to 420 ms on 20 M rows of an Int32Array
 * of three keys (720 ms of a Float64Array), against about 100 ms with a set of numbers and
 * 50 ms with the table (scripts over chunks of 65,536).
 */
function tallyEnumNumbers(
  r: ChannelTally,
  d: Chunk,
  values: ArrayLike<number>,
  base: number,
  keys: EnumKeyLookup,
): void {
  const { has } = d;
  const { small, others } = keys;
  const n = small.length;
  const checkOthers = others.size > 0;
  for (let i = 0; i < d.length; i++) {
    const v = values[i] as number;
    const k = v >>> 0;
    if ((k === v && k < n && small[k] === 1) || (checkOthers && others.has(v))) continue;
    if (has !== undefined && !has(i)) continue;
    if (Number.isFinite(v)) unknownEnum(r, String(v), base + i + 1);
    else countNonFinite(r, v, base + i + 1);
  }
}

/** The values each integer typed array can hold. */
const HELD: ReadonlyArray<readonly [abstract new (...args: never[]) => unknown, bigint, bigint]> = [
  [Int8Array, -128n, 127n],
  [Uint8Array, 0n, 255n],
  [Int16Array, -(2n ** 15n), 2n ** 15n - 1n],
  [Uint16Array, 0n, 65_535n],
  [Int32Array, -(2n ** 31n), 2n ** 31n - 1n],
  [Uint32Array, 0n, 2n ** 32n - 1n],
  [BigInt64Array, -(2n ** 63n), 2n ** 63n - 1n],
  [BigUint64Array, 0n, 2n ** 64n - 1n],
];

/**
 * Integer arrays whose every value a declared range holds need no look at each value
 * (a Buffer is a Uint8Array).
 */
function holdsEvery(
  range: readonly [bigint, bigint],
  values: ArrayLike<number> | ArrayLike<bigint>,
): boolean {
  const held = HELD.find(([Kind]) => values instanceof Kind);
  return held !== undefined && range[0] <= held[1] && held[2] <= range[1];
}

/** NaN and ±inf of a float column with no declared integer type. */
function tallyNonFinite(
  r: ChannelTally,
  values: Float64Array | Float32Array,
  has: ((i: number) => boolean) | undefined,
  base: number,
): void {
  // One loop per array type, so that each stays monomorphic: finding the next NaN or
  // ±inf is the whole cost of a clean column.
  const next =
    values instanceof Float64Array
      ? (from: number) => nextNonFinite64(values, from)
      : (from: number) => nextNonFinite32(values as Float32Array, from);
  for (let i = next(0); i >= 0; i = next(i + 1)) {
    if (has === undefined || has(i)) countNonFinite(r, values[i] as number, base + i + 1);
  }
}

/** The first NaN or ±inf at or after `from` (v - v is NaN exactly for those), or -1. */
function nextNonFinite64(values: Float64Array, from: number): number {
  for (let i = from; i < values.length; i++) {
    const v = values[i] as number;
    if (v - v !== 0) return i;
  }
  return -1;
}

function nextNonFinite32(values: Float32Array, from: number): number {
  for (let i = from; i < values.length; i++) {
    const v = values[i] as number;
    if (v - v !== 0) return i;
  }
  return -1;
}

/** A NaN or ±inf value of a channel, at `row` (1-based). */
function countNonFinite(r: ChannelTally, v: number, row: number): void {
  if (Number.isNaN(v)) r.nan += 1;
  else if (v > 0) r.posInf += 1;
  else r.negInf += 1;
  r.firstNonFinite ??= row;
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
  known: KnownNames,
): void {
  const { has, utf8 } = d;
  // Compare bytes with the known names: no string is made for a known value.
  if (utf8 && utf8.offsets instanceof Int32Array) {
    const { bytes, offsets } = utf8;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let i = nextUnknownUtf8(bytes, offsets, 0, d.length, known, view);
    for (; i >= 0; i = nextUnknownUtf8(bytes, offsets, i + 1, d.length, known, view)) {
      if (has !== undefined && !has(i)) continue;
      const s = text(i);
      if (!names.has(s)) unknownEnum(r, s, base + i + 1);
    }
    return;
  }
  for (let i = 0; i < d.length; i++) {
    if (has !== undefined && !has(i)) continue;
    const s = text(i);
    if (!names.has(s)) unknownEnum(r, s, base + i + 1);
  }
}

/** A cell value quoted for a message, cut when long. */
export function quoteValue(v: string): string {
  const s = v.length > 40 ? `${v.slice(0, 37)}...` : v;
  return `'${s}'`;
}

/** Short enum name for messages: CHANNEL_DATA_TYPE_INT_32 → INT_32. */
export function shortName(v: string): string {
  return v.replace(/^(CHANNEL_DATA_TYPE_|TIME_FORMAT_)/, '');
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Where the values are, as the messages name them. */
export interface ValuePlace {
  /** The channel's values: `column 'speed'`, `dataset '/v'`. */
  label: string;
  /** The time's values: `time`, `the time of '/t'`. */
  time: string;
  /**
   * Said of a count of rows when not every value was read (` (in the values read)`): the
   * time findings that name no channel put it after their count.
   */
  within?: string;
  /** A row (1-based, as tallied) as a message names it, and the issue's source. */
  at(row: number): { text: string; source: IssueSource };
  /** What a row is called in messages: `row` unless given (a ULog data message: `message`). */
  row?: string;
}

/** The time's findings: nulls, NaN/±inf, going backwards, repeats. */
export function timeValueIssues(t: TimeTally, ptr: string, place: ValuePlace): Issue[] {
  const out: Issue[] = [];
  const within = place.within ?? '';
  const found = (code: IssueCode, message: (at: string) => string, row: number) => {
    const { text, source } = place.at(row);
    out.push(issue(code, ptr, message(text), { source }));
  };
  if (t.firstNull !== undefined) {
    const n = plural(t.nulls, 'row has', 'rows have');
    found('time_null', (at) => `${n} no time (null)${within}; first at ${at}`, t.firstNull);
  }
  if (t.firstNonFinite !== undefined && t.unparsed !== undefined) {
    out.push(unparsedTimeIssue(t.unparsed, t.nonFinite ?? 0, t.firstNonFinite, ptr, place));
  } else if (t.firstNonFinite !== undefined) {
    const n = plural(t.nonFinite ?? 0, 'row');
    found(
      'time_not_parseable',
      (at) => `${place.time} is NaN or infinite in ${n}; first at ${at}`,
      t.firstNonFinite,
    );
  }
  if (t.firstDecrease !== undefined) {
    const n = plural(t.decreases, 'time');
    found(
      'time_decreasing',
      (at) => `${place.time} goes backwards ${n}; first at ${at}`,
      t.firstDecrease,
    );
  }
  if (t.firstRepeat !== undefined) {
    const row = place.row ?? 'row';
    const n = plural(t.repeats, `${row} repeats`, `${row}s repeat`);
    found(
      'time_repeated',
      (at) => `${n} the time of the ${row} before${within}; first at ${at}`,
      t.firstRepeat,
    );
  }
  return out;
}

/**
 * Text times that are no time in the declared format (text-times.ts): how many, the first
 * as written, and why when it is a date and time all the same (a zone, or none).
 */
function unparsedTimeIssue(
  u: NonNullable<TimeTally['unparsed']>,
  count: number,
  row: number,
  ptr: string,
  place: ValuePlace,
): Issue {
  const { text, source } = place.at(row);
  const rfc = u.format === 'TIME_FORMAT_ABSOLUTE_RFC3339';
  const why = u.zone === undefined ? '' : rfc ? ' (it has no zone)' : ' (it carries a zone)';
  const hint =
    u.zone === undefined
      ? undefined
      : rfc
        ? 'RFC 3339 times carry a zone (Z or ±HH:MM); times without one are TIME_FORMAT_ABSOLUTE_DATETIME.'
        : 'Date-times have no zone; times with one are TIME_FORMAT_ABSOLUTE_RFC3339.';
  return issue(
    'time_not_parseable',
    ptr,
    `${place.time} does not parse as ${shortName(u.format)} in ${plural(count, 'row')}; first at ${text}: ${quoteValue(u.value)}${why}`,
    { source, ...(hint ? { hint } : {}) },
  );
}

/** NaN and infinite values counted by kind, as findings say them: `2 NaN and 1 -inf`. */
export function nonFiniteCounts(r: { nan: number; posInf: number; negInf: number }): string {
  const kinds = [
    r.nan > 0 ? `${r.nan} NaN` : '',
    r.posInf > 0 ? `${r.posInf} +inf` : '',
    r.negInf > 0 ? `${r.negInf} -inf` : '',
  ];
  return listSome(
    kinds.filter((x) => x !== ''),
    3,
  );
}

/** A channel's findings: NaN/±inf, values outside its integer type, unknown ENUM values. */
export function channelValueIssues(
  c: JudgedChannel & { ptr: string },
  r: ChannelTally,
  place: ValuePlace,
  storedType: ChannelDataType,
): Issue[] {
  const out: Issue[] = [];
  const { label } = place;
  if (r.firstNonFinite !== undefined) {
    const { text, source } = place.at(r.firstNonFinite);
    out.push(
      issue('value_not_finite', c.ptr, `${label} holds ${nonFiniteCounts(r)}; first at ${text}`, {
        source,
      }),
    );
  }
  if (r.firstOutside !== undefined) out.push(outsideIssue(c, r, place, storedType));
  if (r.firstUnknown !== undefined) {
    const shown = [...r.unknown.entries()]
      .slice(0, 5)
      .map(([v, n]) => `${quoteValue(v)} (${plural(n, 'row')})`);
    const { text, source } = place.at(r.firstUnknown);
    out.push(
      issue(
        'enum_value_unknown',
        `${c.ptr}/enumTypes`,
        `${label} holds ${plural(sum(r.unknown.values()), 'value')} not in enumTypes: ${listSome(shown, 5, r.unknown.size)}; first at ${text}`,
        { hint: 'Add them to enumTypes (a name and a key each), or fix the data.', source },
      ),
    );
  }
  return out;
}

/**
 * One fact, one message: when `--full` found values outside the declared type (INT_64
 * data declared INT_32), that finding, with its count and first row, replaces the
 * structural one saying the stored type does not fit the declared one (same pointer).
 * Where every value fits, the structural finding stays.
 */
export function withoutRestatedTypeIssues(issues: readonly Issue[]): Issue[] {
  const outside = new Set(issues.filter((i) => i.code === 'value_outside_type').map((i) => i.path));
  return issues.filter((i) => !(i.code === 'value_type_mismatch' && outside.has(i.path)));
}

function sum(xs: Iterable<number>): number {
  let n = 0;
  for (const x of xs) n += x;
  return n;
}

function outsideIssue(
  c: JudgedChannel & { ptr: string },
  r: ChannelTally,
  place: ValuePlace,
  storedType: ChannelDataType,
): Issue {
  const [lo, hi] = INT_RANGES[c.dataType] ?? [0n, 0n];
  const what =
    r.fractions === r.outside
      ? `${plural(r.outside, 'value')} that ${r.outside === 1 ? 'is not a whole number' : 'are not whole numbers'}`
      : `${plural(r.outside, 'value')} outside ${shortName(c.dataType)} (${lo} to ${hi}), from ${r.outsideMin} to ${r.outsideMax}`;
  // The type the file stores the column as holds every value.
  const fits = storedType !== c.dataType ? storedType : undefined;
  const { text, source } = place.at(r.firstOutside as number);
  return issue(
    'value_outside_type',
    `${c.ptr}/dataType`,
    `${place.label} holds ${what}; first at ${text}`,
    { hint: fits ? `Use dataType: ${fits}.` : undefined, source },
  );
}
