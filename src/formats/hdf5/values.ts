/**
 * The values of the HDF5 datasets a config names, read and judged: each time dataset with
 * the value datasets it times, one dataset after another, a slice of rows at a time
 * (`check --full` reads every row; infer every row of a small file, else the first and last
 * rows of each dataset). Every slice is read in the HDF5 worker with its time limit (a file on
 * which the library loops gives `hdf5_unreadable`, never a hang), and only the tallies stay
 * (values/tally-time.ts, values/tally.ts), so memory is bounded by one slice however long
 * the datasets. Rows are named by their 0-based index, as HDF5 tools show them.
 */
import type { ByteSource } from '../../inspect/shared.js';
import type { ChannelConfig, ChannelDataType, TimeFormat } from '../../model/index.js';
import { type Issue, issue, maxOf, minOf, pushAll } from '../../model/plain.js';
import {
  type ChannelTally,
  type Chunk,
  channelJudge,
  channelValueIssues,
  type Judge,
  type JudgedChannel,
  newTimeState,
  type TimeState,
  tallyTime,
  timeValueIssues,
  type ValuePlace,
} from '../../values/index.js';
import { type Hdf5Dataset, readHdf5Slice } from './inspect.js';
import type { SliceRequest, SliceValues } from './reader.js';
import { chunkOf } from './slice-tally.js';

/** One part of a dataset read whole: the dataset, a column of an [N, k] one, or a compound member. */
export interface PartRead {
  dataset: Hdf5Dataset;
  /** The column of an [N, k] dataset (number) or the member of a compound one (name). */
  column: number | string | undefined;
  /** Where findings about it point. */
  ptr: string;
  /** A time dataset's format: text times are read in it (values/text-times.ts). */
  format?: TimeFormat | undefined;
}

/** A channel's values to judge against its declared type. */
export interface ChannelRead extends PartRead {
  channel: JudgedChannel;
  /** The channel type the stored values have (named in hints). */
  storedType: ChannelDataType | undefined;
}

/**
 * The channel a value part is judged as, if its values can be: numbers (the declared type,
 * else the stored one), or text in an ENUM channel.
 */
export function hdf5ChannelRead(
  entry: { channelConfig?: ChannelConfig | undefined },
  dataset: Hdf5Dataset,
  part: { type: Hdf5Dataset['type']; column: number | string | undefined },
  ptr: string,
  storedType: ChannelDataType | undefined,
): ChannelRead | undefined {
  const declared = entry.channelConfig?.dataType;
  const dataType = declared && declared !== 'CHANNEL_DATA_TYPE_UNSPECIFIED' ? declared : storedType;
  const cls = part.type.class;
  const numeric = cls === 'integer' || cls === 'float' || cls === 'enum';
  const enumText = cls === 'string' && dataType === 'CHANNEL_DATA_TYPE_ENUM';
  if (!dataType || !(numeric || enumText)) return undefined;
  const enumTypes = entry.channelConfig?.enumTypes;
  return {
    dataset,
    column: part.column,
    ptr,
    channel: { dataType, ...(enumTypes ? { enumTypes } : {}) },
    storedType,
  };
}

/** A time dataset (if the config gives one and its format) and the channels it times. */
export interface ReadGroup {
  time?: PartRead;
  channels: ChannelRead[];
}

export interface ValueReadOptions {
  timeoutMs?: number;
  /** Rows done of the rows of every group. */
  onProgress?: (done: number, total: number) => void;
  /** Rows per slice instead of a few MB of them (tests cut small files into many slices). */
  sliceRows?: number;
  /**
   * Rows read from each end of each part, instead of every row (infer on a large file):
   * the middle is left unread, and the findings say they are of the values read.
   */
  sample?: number;
}

/**
 * Bytes of one slice of a dataset of numbers: memory stays bounded by a few of them. Peak
 * RSS of `check --full` on the 195 MiB bench file (5 channels, one run each): 8 MiB slices
 * 194 MiB, 4 MiB 176, 2 MiB 159, 1 MiB 149, 512 KiB 145 (the sampled check: 113). Each
 * slice passes through the worker's wasm heap (which never shrinks), is copied out by the
 * library and moved to this thread; smaller slices than 1 MiB gain little and cost a read
 * of the file's metadata each.
 */
export const SLICE_BYTES = 1024 * 1024;
/** Rows per slice of a compound dataset (the library returns one array a row). */
const COMPOUND_SLICE_ROWS = 65_536;

/** What reading one part found: its tallies, and where reading stopped if it did. */
export interface PartState {
  read: PartRead;
  rows: number;
  feed(chunk: Chunk, base: number): void;
  /** Rows were skipped before the next chunk: a time tally compares nothing across them. */
  gap?(): void;
  unread?: { from: number; error: string };
}

/** Reads every group's datasets in slices and returns the findings, group by group. */
export async function hdf5ValueIssues(
  data: string | ByteSource,
  groups: readonly ReadGroup[],
  options: ValueReadOptions = {},
): Promise<Issue[]> {
  const path = typeof data === 'string' ? data : data.name;
  const total = groups.reduce((n, g) => n + groupRows(g), 0);
  const issues: Issue[] = [];
  let done = 0;
  for (const g of groups) {
    const states = groupStates(g, options.sample);
    const parts = states.map((r) => r.part);
    const limit = options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };
    const read = (r: SliceRequest) => readHdf5Slice(data, r, limit);
    await readPartByPart(read, parts, options, (rows) => options.onProgress?.(done + rows, total));
    done += groupRows(g);
    pushAll(issues, stateIssues(path, states));
  }
  return issues;
}

/** A part being read: what it found so far, the tally ranges read elsewhere join, its issues. */
export interface ReadState {
  part: PartState;
  into: { time: TimeState } | { channel: ChannelTally; as: JudgedChannel };
  issues(file: string): Issue[];
}

/** The states of a group's parts, in the order they are read: its time, then its channels. */
export function groupStates(g: ReadGroup, sample?: number): ReadState[] {
  const sampled = (r: PartRead) => rangesOf(rowsOf(r), sample).length > 1;
  const time = g.time ? timeState(g.time, sampled(g.time)) : undefined;
  const channels = g.channels.map((c) => channelState(c, sampled(c)));
  return time ? [time, ...channels] : channels;
}

/** The findings of a group's parts, once read: each part's unread rows, then its tallies'. */
export function stateIssues(file: string, states: readonly ReadState[]): Issue[] {
  const issues: Issue[] = [];
  for (const r of states) pushAll(pushAll(issues, partlyRead(file, r.part)), r.issues(file));
  return issues;
}

export function rowsOf(read: PartRead): number {
  return read.dataset.shape?.[0] ?? 0;
}

export function groupRows(g: ReadGroup): number {
  return Math.max(0, maxOf([g.time, ...g.channels].map((r) => (r ? rowsOf(r) : 0))));
}

function timeState(read: PartRead, sampled: boolean): ReadState {
  const s: TimeState = newTimeState(read.format);
  const part: PartState = {
    read,
    rows: rowsOf(read),
    feed: (chunk, base) => tallyTime(s, chunk, base),
    gap: () => {
      s.prev = undefined;
    },
  };
  return {
    part,
    into: { time: s },
    issues: (file: string) => timeValueIssues(s.tally, read.ptr, placeOf(file, read, sampled)),
  };
}

function channelState(read: ChannelRead, sampled: boolean): ReadState {
  const judge: Judge = channelJudge(read.channel);
  const part: PartState = {
    read,
    rows: rowsOf(read),
    feed: (chunk, base) => judge.tally(chunk, base),
  };
  return {
    part,
    into: { channel: judge.result, as: read.channel },
    issues: (file: string) =>
      channelValueIssues(
        { ...read.channel, ptr: read.ptr },
        judge.result,
        placeOf(file, read, sampled),
        read.storedType ?? read.channel.dataType,
      ),
  };
}

/**
 * Reads the parts one after another, each slice by slice from its first row: a part the
 * library fails on stops there (its `unread`), the others go on. One part at a time, so the
 * reads of each go forward through the file: a compressed archive member, read through a
 * stream that starts again for a read behind it, is passed about once a part, where reading
 * the parts side by side would jump between datasets and start again at every slice (a
 * 62 MiB deflated member: 45 s, against 1.1 s stored). `progress` gets the rows done, as a
 * share of the group's rows. `read` reads one slice (in the HDF5 worker).
 *
 * Each slice is asked for before the one before it is fed, so the worker reads the next
 * while this thread tallies the last (worker.ts sends two jobs at a time): on a file of
 * 3,000 datasets of 1,000 rows, one slice each, both threads waited on the round trips. A
 * slice asked for after one its part fails on is dropped, whatever its read gave, as if
 * it had not been read.
 */
export async function readPartByPart(
  read: (request: SliceRequest) => Promise<SliceValues>,
  parts: readonly PartState[],
  options: ValueReadOptions,
  progress: (rows: number) => void,
): Promise<void> {
  const rows = Math.max(0, maxOf(parts.map((p) => p.rows)));
  const feed = async ({ slice: s, got }: Asked) => {
    const answer = await got.then(
      (slice) => ({ slice }),
      (failed: unknown) => ({ failed }),
    );
    if (s.part.unread) return;
    if ('failed' in answer) throw answer.failed;
    const { values, error } = answer.slice;
    if (s.gap) s.part.gap?.();
    if (error !== undefined) s.part.unread = { from: s.a, error };
    else s.part.feed(chunkOf(values), s.a);
    progress(Math.floor(((s.index + s.b / s.part.rows) / parts.length) * rows));
  };
  let ahead: Asked | undefined;
  for (const slice of slicesOf(parts, stepOf(parts, options.sliceRows), options.sample)) {
    if (slice.part.unread) continue;
    const asked = {
      slice,
      got: read(sliceRequest(slice.part.read, slice.a, slice.b)),
    };
    // Awaited when fed; a read left behind when one before it throws fails unheard.
    asked.got.catch(() => undefined);
    if (ahead) await feed(ahead);
    ahead = asked;
  }
  if (ahead) await feed(ahead);
  progress(rows);
}

/** One slice: rows [a, b) of the part at `index`; `gap` when rows before it are skipped. */
interface Slice {
  part: PartState;
  index: number;
  a: number;
  b: number;
  gap: boolean;
}

/** A slice asked for, and its read. */
interface Asked {
  slice: Slice;
  got: Promise<SliceValues>;
}

/** The slices of the parts, in the order they are read. */
function* slicesOf(
  parts: readonly PartState[],
  step: number,
  sample: number | undefined,
): Generator<Slice> {
  for (const [index, part] of parts.entries()) {
    for (const [from, to] of rangesOf(part.rows, sample)) {
      for (let a = from; a < to; a += step) {
        yield { part, index, a, b: Math.min(to, a + step), gap: a === from && from > 0 };
      }
    }
  }
}

/** The rows of a part read: every row, or `sample` from each end when it has more than twice that. */
function rangesOf(rows: number, sample: number | undefined): Array<[number, number]> {
  if (sample === undefined || rows <= 2 * sample) return [[0, rows]];
  return [
    [0, sample],
    [rows - sample, rows],
  ];
}

/** Rows per slice of a group's parts: those of the smallest slices, or `sliceRows`. */
export function stepOf(parts: readonly PartState[], rowsGiven?: number): number {
  return rowsGiven ?? minOf(parts.map((p) => sliceRows(p.read.dataset)));
}

/** Rows per slice: a few MB of numbers, fewer rows for compounds. */
function sliceRows(d: Hdf5Dataset): number {
  if (d.type.class === 'compound') return COMPOUND_SLICE_ROWS;
  return Math.max(1, Math.min(1 << 20, Math.floor(SLICE_BYTES / Math.max(1, d.type.size))));
}

export function sliceRequest(read: PartRead, start: number, end: number): SliceRequest {
  const d = read.dataset;
  const member =
    typeof read.column === 'string'
      ? (d.type.members?.findIndex((m) => m.name === read.column) ?? -1)
      : -1;
  return {
    dataset: d.path,
    column: d.shape?.length === 2 && typeof read.column === 'number' ? read.column : null,
    member: member >= 0 ? member : null,
    start,
    end,
  };
}

/**
 * How the findings name a part and its rows. The tallies count rows from 1; HDF5 rows are
 * named by their 0-based index, in the message and in the source.
 */
function placeOf(file: string, read: PartRead, sampled: boolean): ValuePlace {
  const path = read.dataset.path;
  const label =
    typeof read.column === 'string'
      ? `member '${read.column}' of '${path}'`
      : typeof read.column === 'number' && read.dataset.shape?.length === 2
        ? `column ${read.column} of '${path}'`
        : `dataset '${path}'`;
  const within = sampled ? ' (in the values read)' : '';
  return {
    label: `${label}${within}`,
    time: `the time of '${path}'${within}`,
    within,
    at: (row) => ({ text: `index ${row - 1}`, source: { file, dataset: path, row: row - 1 } }),
  };
}

/** A part the library could not read to its end: the rows after it were not checked. */
function partlyRead(file: string, p: PartState): Issue[] {
  if (!p.unread) return [];
  const path = p.read.dataset.path;
  const { from, error } = p.unread;
  return [
    issue(
      'time_partly_read',
      p.read.ptr,
      `the HDF5 library could not read '${path}' from index ${from} on (${error || 'no reason given'}): the rows after it were not checked`,
      {
        hint: 'The file may be damaged there; the platform is likely to fail on it too.',
        source: { file, dataset: path, row: from },
      },
    ),
  ];
}
