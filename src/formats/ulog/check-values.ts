/**
 * The values of a ULog file as a UlogConfig reads them, for `check`: the data messages of
 * the message instances the config names (every timed one when it names none) and the
 * logged texts of the log channels it names, decoded straight from the file's bytes into
 * typed arrays, a few thousand messages at a time, and fed to the shared tallies
 * (values/tally-time.ts, values/tally.ts): time going backwards or repeated on each message
 * instance's timestamp (a ULog timestamp is never null, so `time_null` does not apply), and
 * NaN/±inf and values outside the declared type on each channel. Sampled, the byte ranges
 * read are the head (2 MiB), three slices and the tail (512 KiB each) of the data section
 * and the head (512 KiB) of each appended part; with `full`, all of every part. Each range
 * is walked message by message through one 1 MiB window (positioned reads, never the whole
 * file). A data message shorter or longer than its format allows is damage (pyulog drops it
 * as corrupt; the walk reports it): it is not decoded. A `bool` is true when its byte is
 * not 0, as C and pyulog read it.
 */
import { type ByteSource, wholeFileOf } from '../../inspect/shared.js';
import type { ChannelDataType, EnumType, UlogConfig } from '../../model/index.js';
import { type Issue, pointer, pushAll } from '../../model/plain.js';
import {
  type ChannelTally,
  channelJudge,
  channelValueIssues,
  HeadWatch,
  type Judge,
  jobsOf,
  newTimeState,
  readThroughTurns,
  type TimeState,
  type TimeTally,
  type TypedNumbers,
  tallyTime,
  timeValueIssues,
  type ValuePlace,
  type WorkerPool,
} from '../../values/index.js';
import { ulogChannelTypeOf } from './channel-types.js';
import {
  type AxisPart,
  readUlogParts,
  startUlogWorkers,
  type UlogPart,
  type UlogPartInput,
  type UlogRange,
} from './check-jobs.js';
import {
  readUlogData,
  type UlogDataHandlers,
  type UlogLeaf,
  type UlogMessageLayout,
  type UlogProfile,
  type UlogSizes,
  ulogFieldLeaf,
  ulogLayouts,
} from './inspect.js';

const HEAD = 2 << 20;
const SLICE = 512 << 10;
const SLICES = 3;

/**
 * The byte ranges read of a data part: all of it (`full`, or a part small enough), else the
 * main part's head, three slices and tail, or an appended part's head. The preview reads
 * the same ranges.
 */
export function ulogRanges(
  part: readonly [number, number],
  full: boolean,
  main: boolean,
): Array<readonly [number, number]> {
  const [s, e] = part;
  if (full || e - s <= HEAD + (SLICES + 1) * SLICE) return [[s, e]];
  if (!main) return [[s, s + SLICE]];
  const out: Array<readonly [number, number]> = [[s, s + HEAD]];
  const rest = e - s - HEAD;
  for (let i = 1; i <= SLICES; i++) {
    const at = s + HEAD + Math.floor((rest * i) / (SLICES + 1));
    out.push([at, Math.min(e - SLICE, at + SLICE)]);
  }
  out.push([e - SLICE, e]);
  return out;
}

/**
 * The typed array each ULog type is decoded into. A `uint64_t` timestamp goes into a
 * BigInt64Array, whose time tally compares 32-bit halves without making a bigint per value;
 * a time of 2^63 µs or more (292,000 years) would read as negative there.
 */
const ARRAYS: Readonly<Record<string, new (n: number) => TypedNumbers>> = {
  int8_t: Int8Array,
  uint8_t: Uint8Array,
  bool: Uint8Array,
  int16_t: Int16Array,
  uint16_t: Uint16Array,
  int32_t: Int32Array,
  uint32_t: Uint32Array,
  int64_t: BigInt64Array,
  uint64_t: BigUint64Array,
  float: Float32Array,
  double: Float64Array,
};

/** Messages decoded per piece fed to the tallies. */
const PIECE = 4096;
/** The bytes of a ULog value are little-endian; so are typed arrays on this machine, or not. */
const LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * One column of a piece: the value at `offset` in each message, decoded into `values` when
 * the piece goes to the tallies (`decode`). Its bits are copied as unsigned integers of its
 * size, read little-endian and stored in this machine's order, so no number or bigint is
 * made of a value on the way.
 */
class Column {
  readonly values: TypedNumbers;
  readonly #u8: Uint8Array;
  readonly #u16: Uint16Array;
  readonly #u32: Uint32Array;
  readonly #size: number;
  readonly offset: number;
  readonly #bool: boolean;

  constructor(type: string, offset: number, array = ARRAYS[type] ?? Float64Array) {
    this.values = new array(PIECE);
    const buffer = this.values.buffer;
    this.#u8 = new Uint8Array(buffer);
    this.#size = this.values.BYTES_PER_ELEMENT;
    this.#u16 = new Uint16Array(buffer, 0, this.#size >= 2 ? buffer.byteLength >> 1 : 0);
    this.#u32 = new Uint32Array(buffer, 0, this.#size >= 4 ? buffer.byteLength >> 2 : 0);
    this.offset = offset;
    this.#bool = type === 'bool';
  }

  /**
   * Rows [0, k) from the messages whose bytes after the msg_id start at `ats[row]` in the
   * window `w` (`dv` its view): a loop per size, each one read a value.
   */
  decode(w: Uint8Array, dv: DataView, ats: Int32Array, k: number): void {
    const o = this.offset;
    const size = this.#size;
    if (this.#bool) {
      const u8 = this.#u8;
      for (let r = 0; r < k; r++) u8[r] = w[(ats[r] as number) + o] === 0 ? 0 : 1;
    } else if (size === 1) {
      const u8 = this.#u8;
      for (let r = 0; r < k; r++) u8[r] = w[(ats[r] as number) + o] as number;
    } else if (size === 2) {
      const u16 = this.#u16;
      for (let r = 0; r < k; r++) u16[r] = dv.getUint16((ats[r] as number) + o, true);
    } else if (size === 4) {
      const u32 = this.#u32;
      for (let r = 0; r < k; r++) u32[r] = dv.getUint32((ats[r] as number) + o, true);
    } else this.#decode8(dv, ats, k);
  }

  /** 8-byte values as two 32-bit halves, the low one first where this machine is little-endian. */
  #decode8(dv: DataView, ats: Int32Array, k: number): void {
    const u32 = this.#u32;
    const lo = LITTLE ? 0 : 1;
    for (let r = 0; r < k; r++) {
      const p = (ats[r] as number) + this.offset;
      u32[2 * r + lo] = dv.getUint32(p, true);
      u32[2 * r + 1 - lo] = dv.getUint32(p + 4, true);
    }
  }
}

/** Where a tallied message is: its index in its series (NaN after a gap), offset, time. */
interface Place {
  index: number;
  offset: number;
  time: string;
}

/** A channel of an axis: a numeric field the config names, judged against its type. */
interface ChannelRead {
  ptr: string;
  label: string;
  dataType: ChannelDataType;
  storedType: ChannelDataType;
  column: Column;
  judge: Judge;
}

/** One time axis: a message instance (its msg_ids) or a log tag, and what it tallies. */
interface Axis {
  label: string;
  ptr: string;
  msgIds: number[];
  tag?: number;
  minSize: number;
  size: number;
  time: Column;
  channels: ChannelRead[];
  state: TimeState;
  /** Messages fed to the tallies, and those waiting in the piece. */
  fed: number;
  k: number;
  /**
   * Where the waiting messages' bytes after the msg_id start, in `window`: decoded when the
   * piece goes to the tallies, before the walk leaves the window (`onLeave`).
   */
  ats: Int32Array;
  window: Uint8Array | undefined;
  offsets: Float64Array;
  indexes: Float64Array;
  /** The next message's index in its series; NaN once a gap was skipped. */
  index: number;
  places: Map<number, Place>;
  /** A part read in a worker: finds the message its join compares (values/tally-merge.ts). */
  watch?: HeadWatch;
}

/** What the axes of a config are made of: the entries each reads, with their pointers. */
export interface ValuePlan {
  axes: Axis[];
}

function newAxis(
  label: string,
  ptr: string,
  time: Column,
  sizes: { min: number; max: number },
): Axis {
  return {
    label,
    ptr,
    msgIds: [],
    minSize: sizes.min,
    size: sizes.max,
    time,
    channels: [],
    state: newTimeState(),
    fed: 0,
    k: 0,
    ats: new Int32Array(PIECE),
    window: undefined,
    offsets: new Float64Array(PIECE),
    indexes: new Float64Array(PIECE),
    index: 0,
    places: new Map(),
  };
}

/**
 * The axes a config reads: per message instance it names (every timed instance when
 * `data` is empty), with the numeric channels it names on it, and per log tag it names.
 * Entries that do not name a readable field are left to the structural check.
 */
export function planValues(
  config: UlogConfig,
  profile: UlogProfile,
  layouts: readonly UlogMessageLayout[],
  key: string,
  storedTypeOf: (ulogType: string) => ChannelDataType,
): ValuePlan {
  const axes = new Map<string, Axis>();
  const entries = config.data ?? [];
  const axisOf = (name: string, instance: number, ptr: string): Axis | undefined => {
    const id = `${name}\u0000${instance}`;
    const found = axes.get(id);
    if (found) return found;
    const mine = layouts.filter((l) => l.messageName === name && l.instance === instance);
    const ts = mine[0]?.timestamp;
    if (!ts || !mine[0]) return undefined;
    const time = new Column(ts.type, ts.offset, ts.type === 'uint64_t' ? BigInt64Array : undefined);
    const axis = newAxis(`${name}_${instance}`, ptr, time, {
      min: mine[0].minSize,
      max: mine[0].size,
    });
    axis.msgIds = mine.map((l) => l.msgId);
    axes.set(id, axis);
    return axis;
  };
  if (entries.length === 0) {
    for (const l of layouts) axisOf(l.messageName, l.instance, pointer(key));
    for (const t of profile.logs.tagged) logAxis(axes, t.tag, pointer(key));
    if (profile.logs.untagged > 0) logAxis(axes, -1, pointer(key));
  }
  for (const [i, e] of entries.entries()) {
    const name = e.messageName ?? '';
    const ptr = pointer(key, 'data', i);
    const log = /^log_messages(?:_(\d+))?$/.exec(name);
    if (log && !e.fieldName) {
      logAxis(axes, log[1] === undefined ? -1 : Number(log[1]), ptr);
      continue;
    }
    const leaf = ulogFieldLeaf(profile, name, e.fieldName ?? '');
    const axis = leaf ? axisOf(name, Number(e.instance ?? '0'), ptr) : undefined;
    if (!leaf || !axis || leaf.offset === undefined || ARRAYS[leaf.type] === undefined) continue;
    const stored = storedTypeOf(leaf.type);
    const declared = e.channelConfig?.dataType;
    const dataType = declared && declared !== 'CHANNEL_DATA_TYPE_UNSPECIFIED' ? declared : stored;
    axis.channels.push(channelRead(axis, leaf, e.channelConfig?.enumTypes, dataType, stored, ptr));
  }
  return { axes: [...axes.values()] };
}

function channelRead(
  axis: Axis,
  leaf: UlogLeaf,
  enumTypes: readonly EnumType[] | undefined,
  dataType: ChannelDataType,
  storedType: ChannelDataType,
  entryPtr: string,
): ChannelRead {
  return {
    ptr: `${entryPtr}/channelConfig`,
    label: `${axis.label}.${leaf.field}`,
    dataType,
    storedType,
    column: new Column(leaf.type, leaf.offset ?? 0),
    judge: channelJudge({ dataType, enumTypes }),
  };
}

function logAxis(axes: Map<string, Axis>, tag: number, ptr: string): void {
  const id = `log\u0000${tag}`;
  if (axes.has(id)) return;
  const label = tag < 0 ? 'log_messages' : `log_messages_${tag}`;
  const axis = newAxis(label, ptr, new Column('int64_t', 0), { min: 0, max: 0 });
  axis.tag = tag;
  axes.set(id, axis);
}

/**
 * Reads the ranges of every data part (`ulogRanges`) and feeds the plan's tallies;
 * `onProgress` gets the bytes of the parts walked.
 */
export async function readUlogValues(
  data: string | ByteSource,
  profile: UlogProfile,
  layouts: readonly UlogMessageLayout[],
  plan: ValuePlan,
  options: UlogValueOptions,
): Promise<void> {
  if (plan.axes.length === 0) return;
  const sizes: UlogSizes = new Map(layouts.map((l) => [l.msgId, [l.minSize, l.size] as const]));
  const parts = [profile.sections.data, ...profile.sections.appended];
  const source = typeof data === 'string' ? undefined : data;
  const path = source && wholeFileOf(source);
  const jobs = options.full && options.planned ? jobsOf(options.jobs) : 1;
  if (source && path !== undefined && options.planned && jobs > 1) {
    const input = { ...options.planned, path, profile };
    // A range walked here beside the workers reads as they do: into two buffers that take turns.
    const here = (range: UlogRange) => readThroughTurns(path, (s) => readUlogPart(s, input, range));
    const pool = options.pool ?? startUlogWorkers(jobs);
    const split = { jobs, least: options.rangeBytes, pool };
    await readUlogParts({ ...input, ...split }, source, plan.axes, sizes, here, options.onProgress);
    return;
  }
  const handlers = handlersOf(plan);
  const total = parts.reduce((n, [s, e]) => n + e - s, 0);
  let done = 0;
  for (const [i, part] of parts.entries()) {
    const ranges = ulogRanges(part, options.full, i === 0);
    await readUlogData(data, part, ranges, sizes, handlers);
    done += part[1] - part[0];
    options.onProgress?.(done, total);
  }
  for (const axis of plan.axes) flush(axis);
}

export interface UlogValueOptions {
  full: boolean;
  onProgress?: ((done: number, total: number) => void) | undefined;
  /**
   * `full`: threads reading the data (check-jobs.ts); default the cores, 1 reads in this
   * thread, as does a source that is not a whole file on disk.
   */
  jobs?: number | undefined;
  /** With threads: the least bytes of a range of messages (default 4 MiB). */
  rangeBytes?: number | undefined;
  /** What the plan was made of, for the workers to make it again (no threads without it). */
  planned?: { config: UlogConfig; key: string } | undefined;
  /** With threads: the workers, when started before (`startUlogWorkers`); closed at the end. */
  pool?: WorkerPool | undefined;
}

/**
 * Reads the messages of one range of a data part, from a message boundary, into tallies of
 * their own (a worker's share of readUlogParts): the plan made again, each axis noting the
 * message its join compares with the range before. `readAhead` false: a worker's blocking
 * source (ChunkReader).
 */
export async function readUlogPart(
  source: ByteSource,
  input: UlogPartInput,
  range: UlogRange,
  readAhead = true,
): Promise<UlogPart> {
  const layouts = ulogLayouts(input.profile);
  const plan = planValues(input.config, input.profile, layouts, input.key, ulogChannelTypeOf);
  for (const axis of plan.axes) axis.watch = new HeadWatch();
  const sizes: UlogSizes = new Map(layouts.map((l) => [l.msgId, [l.minSize, l.size] as const]));
  const part = [range.start, range.partEnd] as const;
  const reached = await readUlogData(
    source,
    part,
    [[range.start, range.end]],
    sizes,
    handlersOf(plan),
    readAhead,
  );
  for (const axis of plan.axes) flush(axis);
  const axes = plan.axes.map(
    (axis): AxisPart => ({
      time: (axis.watch as HeadWatch).part(axis.state),
      channels: axis.channels.map((c) => c.judge.result),
      fed: axis.fed,
      index: axis.index,
      places: [...axis.places],
    }),
  );
  return { start: range.start, reached, axes };
}

/** The walk's handlers: each message of an axis into its piece, a full piece to the tallies. */
function handlersOf(plan: ValuePlan): UlogDataHandlers {
  const byMsgId: Array<Axis | undefined> = [];
  const byTag = new Map<number, Axis>();
  for (const axis of plan.axes) {
    for (const id of axis.msgIds) byMsgId[id] = axis;
    if (axis.tag !== undefined) byTag.set(axis.tag, axis);
  }
  const withLogs = byTag.size > 0;
  const onDataIn = (msgId: number, bytes: Uint8Array, at: number, size: number, offset: number) => {
    const axis = byMsgId[msgId];
    if (axis === undefined) return;
    // A size the format does not allow is damage the walk reports: not decoded.
    if (size < axis.minSize || size > axis.size) return;
    // Bytes in another buffer than the waiting messages' (the walk says when it leaves a
    // window; `onData` hands a view a message): the piece goes first.
    if (bytes !== axis.window) {
      flush(axis);
      axis.window = bytes;
    }
    axis.ats[axis.k] = at;
    add(axis, offset);
  };
  return {
    onData: (msgId, message, offset) => onDataIn(msgId, message, 0, message.byteLength, offset),
    onDataIn,
    ...(withLogs
      ? {
          onLog(tag: number, us: bigint, _text: string, offset: number) {
            const axis = byTag.get(tag);
            if (axis === undefined) return;
            (axis.time.values as BigInt64Array)[axis.k] = BigInt.asIntN(64, us);
            add(axis, offset);
          },
        }
      : {}),
    onLeave() {
      for (const axis of plan.axes) flush(axis);
    },
    onGap() {
      // Messages were skipped: times are compared again from the next message on.
      for (const axis of plan.axes) {
        flush(axis);
        axis.state.prev = undefined;
        axis.index = Number.NaN;
        axis.watch?.gap();
      }
    },
  };
}

function add(axis: Axis, offset: number): void {
  axis.offsets[axis.k] = offset;
  axis.indexes[axis.k] = axis.index;
  axis.index += 1;
  axis.k += 1;
  if (axis.k === PIECE) flush(axis);
}

/** The waiting messages of an axis to its tallies; the places of any first finding kept. */
function flush(axis: Axis): void {
  const k = axis.k;
  if (k === 0) return;
  decode(axis, k);
  const base = axis.fed;
  const times = axis.time.values.subarray(0, k);
  const piece = { length: k, numbers: times };
  tallyTime(axis.state, piece, base);
  for (const c of axis.channels) {
    c.judge.tally({ length: k, numbers: c.column.values.subarray(0, k) }, base);
  }
  const head = axis.watch?.after(axis.state, piece, base);
  const keep = (row: number | undefined) => {
    if (row === undefined || row <= base || row > base + k || axis.places.has(row)) return;
    const i = row - base - 1;
    axis.places.set(row, {
      index: axis.indexes[i] as number,
      offset: axis.offsets[i] as number,
      time: String(times[i]),
    });
  };
  const t = axis.state.tally;
  for (const row of [t.firstDecrease, t.firstRepeat, head?.row]) keep(row);
  for (const c of axis.channels) {
    const r = c.judge.result;
    for (const row of [r.firstNonFinite, r.firstOutside, r.firstUnknown]) keep(row);
  }
  axis.fed += k;
  axis.k = 0;
}

/** The waiting messages' values of a message instance's axis, from their window. */
function decode(axis: Axis, k: number): void {
  const w = axis.window;
  // A log axis's times are put as its messages come.
  if (axis.tag !== undefined || w === undefined) return;
  const dv = new DataView(w.buffer, w.byteOffset, w.byteLength);
  axis.time.decode(w, dv, axis.ats, k);
  for (const c of axis.channels) c.column.decode(w, dv, axis.ats, k);
  axis.window = undefined;
}

/** The findings of every axis: its damaged messages, its time, then its channels. */
export function ulogValueIssues(plan: ValuePlan, file: string): Issue[] {
  const out: Issue[] = [];
  for (const axis of plan.axes) {
    pushAll(out, timeValueIssues(axis.state.tally as TimeTally, axis.ptr, placeOf(axis, file)));
    for (const c of axis.channels) {
      const place = { ...placeOf(axis, file), label: c.label };
      pushAll(
        out,
        channelValueIssues(
          { dataType: c.dataType, ptr: c.ptr },
          c.judge.result as ChannelTally,
          place,
          c.storedType,
        ),
      );
    }
  }
  return out;
}

/** How findings name the messages of an axis: by index when known, always by offset and time. */
function placeOf(axis: Axis, file: string): ValuePlace {
  return {
    label: axis.label,
    time: `the timestamp of ${axis.label}`,
    row: 'message',
    at(row) {
      const p = axis.places.get(row);
      if (!p) return { text: `message ${row - 1} read of ${axis.label}`, source: { file } };
      const where = `offset ${p.offset}, timestamp ${p.time} µs`;
      if (Number.isNaN(p.index)) {
        return {
          text: `the ${axis.label} message at ${where}`,
          source: { file, offset: p.offset },
        };
      }
      return {
        text: `message ${p.index} of ${axis.label} (${where})`,
        source: { file, row: p.index, offset: p.offset },
      };
    },
  };
}
