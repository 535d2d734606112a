/**
 * TDMS rows as a TdmsConfig reads them: each data entry's channel on its time, which is
 * either its time channel (a timestamp channel, or a numeric one in the config's time
 * format) or, without one, its waveform properties (`wf_start_time`, or the config's
 * `startTimeOverride`, plus `wf_start_offset` and `wf_increment` per value). Channels that
 * share a time channel, or the same waveform timing, share a time axis. The values come
 * from the inspect stage's raw data reader (one walk over the segments, only the wanted
 * bytes read). Sampled: the first 10,000 values of each axis, three slices and the last
 * values; `full`: every value. Memory holds what one read brings (at most 65,536 values of
 * a channel) plus how far one channel of an axis runs ahead of another in the file (at
 * most 4 Mi values; past that the axis stops, with a note).
 */

import {
  BatchBuilder,
  type ConfigRows,
  numberOfValue,
  numericTime,
  type RowBatch,
  type RowChannel,
  type RowReadOptions,
  type RowsRead,
  rowChannel,
  sampleRanges,
} from '../../check/shared.js';
import type { TdmsConfig, TdmsDataEntry } from '../../model/index.js';
import { minOf, pointer } from '../../model/plain.js';
import { throughTurns } from '../../values/index.js';
import { channelIndex } from './channel-index.js';
import {
  inspectTdms,
  readTdmsValuesInPieces,
  type TdmsChannelProfile,
  type TdmsProfile,
  type TdmsValueRequest,
} from './inspect.js';
import type { WalkStart } from './walk-starts.js';
import { waveformTiming } from './waveform-time.js';

type Time =
  | { kind: 'waveform'; startMs: number; stepMs: number }
  | { kind: 'channel'; path: string; timestamp: boolean };

interface Axis {
  time: Time;
  channels: Array<{ index: number; path: string; component?: 'real' | 'imaginary' }>;
  /** Values of the axis: the fewest of its channels (and time channel). */
  rows: number;
}

interface Plan {
  axes: Axis[];
  channels: RowChannel[];
  notes: string[];
}

/** A channel's waveform timing, when it has one (the config's start replaces the file's). */
function waveformOf(c: TdmsChannelProfile, startOverride: string | undefined): Time | undefined {
  const timing = waveformTiming(c, startOverride);
  return timing && { kind: 'waveform', ...timing };
}

/** The entries to show: the config's, or (empty `data`) every channel on its group's time. */
function entriesOf(config: TdmsConfig, profile: TdmsProfile): TdmsDataEntry[] {
  if ((config.data ?? []).length > 0) return config.data ?? [];
  const { stampOf: timeOf } = channelIndex(profile);
  return profile.channels
    .filter((c) => c.dataType !== 'timestamp' && c.dataType !== 'none')
    .map((c) => {
      const time = waveformOf(c, undefined) ? undefined : timeOf(c.group);
      return {
        groupName: c.group,
        channelName: c.name,
        ...(time ? { timeChannelName: time } : {}),
      };
    });
}

function planOf(config: TdmsConfig, key: string, profile: TdmsProfile): Plan {
  const plan: Plan = { axes: [], channels: [], notes: [] };
  const keys: string[] = [];
  const { find } = channelIndex(profile);
  const explicit = (config.data ?? []).length > 0;
  entriesOf(config, profile).forEach((e, i) => {
    const ptr = explicit ? pointer(key, 'data', i) : pointer(key, 'data');
    const channel = find(e.groupName, e.channelName);
    const timeChannel = e.timeChannelName ? find(e.groupName, e.timeChannelName) : undefined;
    const time: Time | undefined = e.timeChannelName
      ? timeChannel && {
          kind: 'channel',
          path: timeChannel.path,
          timestamp: timeChannel.dataType === 'timestamp',
        }
      : channel && waveformOf(channel, config.startTimeOverride);
    const name = `${e.groupName ?? ''}/${e.channelName ?? ''}`;
    if (!channel || !time) {
      plan.notes.push(
        `${name}: ${channel ? 'no time channel or waveform timing' : 'not in the file'}, so it is not plotted`,
      );
      return;
    }
    const axisKey = time.kind === 'channel' ? time.path : `${time.startMs}|${time.stepMs}`;
    let a = keys.indexOf(axisKey);
    if (a < 0) {
      a = keys.push(axisKey) - 1;
      const count = time.kind === 'channel' ? (timeChannel?.valueCount ?? 0) : Infinity;
      plan.axes.push({ time, channels: [], rows: count });
    }
    const axis = plan.axes[a] as Axis;
    axis.rows = Math.min(axis.rows, channel.valueCount ?? 0);
    const component =
      e.complexComponent === 'TDMS_COMPLEX_COMPONENT_IMAGINARY' ? 'imaginary' : 'real';
    axis.channels.push({ index: plan.channels.length, path: channel.path, component });
    plan.channels.push(rowChannel(e.channelConfig, `${channel.group}.${channel.name}`, ptr, a));
  });
  return plan;
}

export async function tdmsRows(
  raw: Record<string, unknown>,
  key: string,
  dataPath: string,
  options: RowReadOptions,
): Promise<ConfigRows> {
  const config = raw as TdmsConfig;
  // Where a walk may begin: the read of each slice of rows begins near it (read-pieces.ts).
  const starts: WalkStart[] = [];
  const profile = await inspectTdms(dataPath, { starts });
  const plan = planOf(config, key, profile);
  const read = (onBatch: (b: RowBatch) => void) =>
    readRows(dataPath, config, plan, { ...options, starts }, onBatch);
  return {
    kind: 'tdms',
    channels: plan.channels,
    timeFormat: config.timeFormat,
    relativeStartTime: config.relativeStartTime,
    read,
  };
}

/**
 * Queued values of one request, taken row by row. The parts taken are passed by an index
 * and dropped in bulk: `Array.shift()` per part moved every part left behind it, so a file
 * of one value per chunk (a part per value) cost the square of its values.
 */
class Queue {
  private parts: Array<Float64Array | string[]> = [];
  /** The part being taken, and the next value in it. */
  private part = 0;
  private head = 0;
  length = 0;
  push(values: Float64Array | string[]): void {
    if (values.length === 0) return;
    this.parts.push(values);
    this.length += values.length;
  }
  shift(): number | string | undefined {
    const part = this.parts[this.part];
    if (!part) return undefined;
    const v = part[this.head];
    this.head += 1;
    this.length -= 1;
    if (this.head === part.length) {
      this.part += 1;
      this.head = 0;
      if (this.part >= 1024 && this.part * 2 >= this.parts.length) {
        this.parts = this.parts.slice(this.part);
        this.part = 0;
      }
    }
    return v;
  }
}

/** One axis being emitted: where in its ranges the next row is. */
interface Emitter {
  axis: Axis;
  ranges: Array<[number, number]>;
  range: number;
  offset: number;
  queues: Queue[];
  out: BatchBuilder;
  rows: number;
  /** Set when one channel ran too far ahead of another: the axis stops there. */
  stopped?: boolean;
}

/** Values one channel of an axis may be ahead of another before the axis stops (memory). */
const MAX_AHEAD = 1 << 22;

async function readRows(
  dataPath: string,
  config: TdmsConfig,
  plan: Plan,
  options: RowReadOptions & { starts: readonly WalkStart[] },
  onBatch: (b: RowBatch) => void,
): Promise<RowsRead> {
  const requests: TdmsValueRequest[] = [];
  const numeric = numericTime(config.timeFormat, config.relativeStartTime);
  const emitters = plan.axes.map((axis, a): Emitter => {
    const rows = Number.isFinite(axis.rows) ? axis.rows : 0;
    const ranges = options.full
      ? rows > 0
        ? [[0, rows] as [number, number]]
        : []
      : sampleRanges(rows);
    const queues: Queue[] = [];
    const want = (path: string, component?: 'real' | 'imaginary') => {
      requests.push({ path, ranges, ...(component ? { component } : {}) });
      queues.push(new Queue());
    };
    if (axis.time.kind === 'channel') want(axis.time.path);
    for (const c of axis.channels) want(c.path, c.component);
    const kinds = axis.channels.map((c) => (plan.channels[c.index] as RowChannel).values);
    const out = new BatchBuilder(
      a,
      axis.channels.map((c) => c.index),
      kinds,
      onBatch,
    );
    return { axis, ranges, range: 0, offset: 0, queues, out, rows: 0 };
  });
  const owner = emitters.flatMap((e) => e.queues.map((q) => ({ e, q })));
  // Read with blocking reads into buffers that take turns (the handler gets new arrays of
  // numbers or strings, never views of the bytes read): a small segment is a read or two,
  // and an awaited read a trip through the thread pool (tdms/values.ts readInThisThread).
  const unread = await throughTurns(dataPath, (source) =>
    readTdmsValuesInPieces(
      source,
      requests,
      (r, values) => {
        const o = owner[r];
        if (!o || o.e.stopped) return;
        // Numbers requests: doubles or text.
        o.q.push(values as Float64Array | string[]);
        emit(o.e, numeric, plan.channels);
        if (o.q.length > MAX_AHEAD) o.e.stopped = true;
      },
      options.starts,
      options.onProgress ? { onProgress: options.onProgress } : {},
    ),
  );
  let rows = 0;
  let total = 0;
  for (const e of emitters) {
    e.out.flush();
    rows += e.rows;
    total += Number.isFinite(e.axis.rows) ? e.axis.rows : 0;
  }
  const notes = unread.map((u) =>
    u.kind === 'undecoded'
      ? `${u.path}: ${u.reason}; not plotted`
      : `${u.path}: segment ${u.segment}: ${u.reason}; its values there are not shown`,
  );
  const stopped = emitters.filter((e) => e.stopped).map((e) => e.axis.channels[0]?.path);
  for (const path of stopped) {
    notes.push(
      `${path}: its channels lie too far apart in the file (over ${MAX_AHEAD} values); the rows after that are not shown`,
    );
  }
  return { rows, complete: rows >= total, notes: [...plan.notes, ...notes] };
}

/** Emits the rows every queue of the axis has a value for. */
function emit(
  e: Emitter,
  numeric: ((v: number) => number) | undefined,
  channels: readonly RowChannel[],
): void {
  const ready = minOf(e.queues.map((q) => q.length));
  const timed = e.axis.time.kind === 'channel';
  for (let k = 0; k < ready; k++) {
    const range = e.ranges[e.range];
    if (!range) return;
    const index = range[0] + e.offset;
    const i = e.out.next();
    const time = e.axis.time;
    if (time.kind === 'waveform') e.out.batch.times[i] = time.startMs + index * time.stepMs;
    else {
      const t = Number(e.queues[0]?.shift());
      e.out.batch.times[i] = time.timestamp ? t : numeric ? numeric(t) : Number.NaN;
    }
    e.axis.channels.forEach((c, j) => {
      const v = e.queues[timed ? j + 1 : j]?.shift();
      const col = e.out.batch.columns[j] as Float64Array | Array<string | null>;
      if (Array.isArray(col)) col.push(v === undefined || v === '' ? null : String(v));
      else col[i] = numberOfValue(v, channels[c.index] as RowChannel);
    });
    e.rows += 1;
    e.offset += 1;
    if (e.offset === range[1] - range[0]) {
      e.range += 1;
      e.offset = 0;
      const next = e.ranges[e.range];
      if (next && next[0] > range[1]) e.out.gap();
    }
  }
}
