/**
 * ULog rows as a UlogConfig reads them: each data entry's field of its subscribed message
 * instance, on the message's `timestamp` (µs since boot), and the logged texts
 * (`log_messages`, `log_messages_<tag>`) on theirs. Each message instance and each log tag
 * is a time axis. Time since boot becomes a date from `relativeStartTime`, else from the
 * first GPS message with a UTC time (its `time_utc_usec` less its own `timestamp`), else
 * from 1970 (the page says so). The data messages come from the inspect stage's walk over
 * byte ranges of the data section. Sampled: the first 2 MiB, three slices of 512 KiB and
 * the last 512 KiB of the data section (each re-synchronised to a message boundary) and the
 * first 512 KiB of each appended part; `full`: every message.
 */

import {
  BatchBuilder,
  type ConfigRows,
  numberOfValue,
  type RowBatch,
  type RowChannel,
  type RowReadOptions,
  type RowsRead,
  rowChannel,
} from '../../check/shared.js';
import type { UlogConfig } from '../../model/index.js';
import { pointer } from '../../model/plain.js';
import { startMillis } from '../../values/index.js';
import { ulogRanges } from './check-values.js';
import {
  inspectUlog,
  readUlogData,
  type UlogLeaf,
  type UlogMessageLayout,
  type UlogProfile,
  type UlogSizes,
  ulogFieldLeaf,
  ulogFieldValue,
  ulogLayouts,
} from './inspect.js';

interface Axis {
  /** msg_ids of the message instance, or the log tag (-1 untagged). */
  msgIds: number[];
  tag?: number;
  channels: Array<{ index: number; leaf?: UlogLeaf }>;
  out?: BatchBuilder;
}

interface Plan {
  axes: Axis[];
  channels: RowChannel[];
  notes: string[];
}

function planOf(
  config: UlogConfig,
  key: string,
  profile: UlogProfile,
  layouts: UlogMessageLayout[],
): Plan {
  const plan: Plan = { axes: [], channels: [], notes: [] };
  const keys: string[] = [];
  const axisOf = (k: string, make: () => Axis) => {
    let a = keys.indexOf(k);
    if (a < 0) a = keys.push(k) - 1;
    plan.axes[a] ??= make();
    return a;
  };
  (config.data ?? []).forEach((e, i) => {
    const name = e.messageName ?? '';
    const ptr = pointer(key, 'data', i);
    const log = /^log_messages(?:_(\d+))?$/.exec(name);
    if (log && !e.fieldName) {
      const tag = log[1] === undefined ? -1 : Number(log[1]);
      const a = axisOf(`log|${tag}`, () => ({ msgIds: [], tag, channels: [] }));
      plan.axes[a]?.channels.push({ index: plan.channels.length });
      plan.channels.push(rowChannel(e.channelConfig, name, ptr, a));
      return;
    }
    const instance = Number(e.instance ?? 0);
    const matching = layouts.filter((l) => l.messageName === name && l.instance === instance);
    const leaf = matching[0] ? ulogFieldLeaf(profile, name, e.fieldName ?? '') : undefined;
    const label = `${name}_${instance}.${e.fieldName ?? ''}`;
    if (!leaf || leaf.offset === undefined) {
      plan.notes.push(`${label}: not a readable field of a logged message, so it is not plotted`);
      return;
    }
    const a = axisOf(`${name}|${instance}`, () => ({
      msgIds: matching.map((l) => l.msgId),
      channels: [],
    }));
    plan.axes[a]?.channels.push({ index: plan.channels.length, leaf });
    plan.channels.push(rowChannel(e.channelConfig, label, ptr, a));
  });
  return plan;
}

export async function ulogRows(
  raw: Record<string, unknown>,
  key: string,
  dataPath: string,
  options: RowReadOptions,
): Promise<ConfigRows> {
  const config = raw as UlogConfig;
  const profile = await inspectUlog(dataPath);
  const layouts = ulogLayouts(profile);
  const plan = planOf(config, key, profile, layouts);
  const sizes: UlogSizes = new Map(layouts.map((l) => [l.msgId, [l.minSize, l.size] as const]));
  const start = config.relativeStartTime ?? (await gpsStart(dataPath, profile, layouts, sizes));
  const read = (onBatch: (b: RowBatch) => void) =>
    readRows(dataPath, profile, plan, sizes, start, options, onBatch);
  return {
    kind: 'ulog',
    channels: plan.channels,
    // ULog times are microseconds since boot, placed in time by the start.
    timeFormat: 'TIME_FORMAT_RELATIVE_MICROSECONDS',
    relativeStartTime: start,
    read,
  };
}

/** Boot time from the first GPS fix: its UTC time less its own timestamp (RFC 3339, to the µs). */
async function gpsStart(
  dataPath: string,
  profile: UlogProfile,
  layouts: UlogMessageLayout[],
  sizes: UlogSizes,
): Promise<string | undefined> {
  const gps = profile.gps;
  if (!gps) return undefined;
  const ids = new Set(layouts.filter((l) => l.messageName === gps.messageName).map((l) => l.msgId));
  let since: bigint | undefined;
  await readUlogData(dataPath, profile.sections.data, [[gps.offset, gps.offset + 1]], sizes, {
    onData(msgId, message) {
      if (since === undefined && ids.has(msgId) && message.byteLength >= 8) {
        since = new DataView(message.buffer, message.byteOffset, 8).getBigUint64(0, true);
      }
    },
    onGap() {},
  });
  if (since === undefined) return undefined;
  return usecText(BigInt(gps.timeUtcUsec) - since);
}

/** µs since 1970 as RFC 3339 to the µs (the GPS gives them; a ms would shift every row). */
function usecText(us: bigint): string | undefined {
  const ms = us / 1000n - (us % 1000n < 0n ? 1n : 0n);
  const rest = us - ms * 1000n;
  const date = new Date(Number(ms));
  if (Number.isNaN(date.getTime())) return undefined;
  const text = date.toISOString();
  return rest === 0n ? text : `${text.slice(0, -1)}${String(rest).padStart(3, '0')}Z`;
}

async function readRows(
  dataPath: string,
  profile: UlogProfile,
  plan: Plan,
  sizes: UlogSizes,
  start: string | undefined,
  options: RowReadOptions,
  onBatch: (b: RowBatch) => void,
): Promise<RowsRead> {
  const startMs = start === undefined ? 0 : startMillis(start);
  const byMsgId = new Map<number, Axis>();
  const byTag = new Map<number, Axis>();
  plan.axes.forEach((axis, a) => {
    const kinds = axis.channels.map((c) => (plan.channels[c.index] as RowChannel).values);
    axis.out = new BatchBuilder(
      a,
      axis.channels.map((c) => c.index),
      kinds,
      onBatch,
    );
    for (const id of axis.msgIds) byMsgId.set(id, axis);
    if (axis.tag !== undefined) byTag.set(axis.tag, axis);
  });
  let rows = 0;
  const handlers = {
    onData(msgId: number, message: Uint8Array) {
      const axis = byMsgId.get(msgId);
      if (!axis?.out || message.byteLength < 8) return;
      const us = new DataView(message.buffer, message.byteOffset, 8).getBigUint64(0, true);
      rows += 1;
      addRow(axis, plan.channels, startMs + Number(us) / 1000, (c) =>
        c.leaf ? ulogFieldValue(message, c.leaf) : null,
      );
    },
    onLog(tag: number, us: bigint, text: string) {
      const axis = byTag.get(tag);
      if (!axis?.out) return;
      rows += 1;
      addRow(axis, plan.channels, startMs + Number(us) / 1000, () => text);
    },
    onGap() {
      for (const axis of plan.axes) axis.out?.gap();
    },
  };
  const parts = [profile.sections.data, ...profile.sections.appended];
  let complete = true;
  let done = 0;
  const total = parts.reduce((n, [s, e]) => n + e - s, 0);
  for (const [i, part] of parts.entries()) {
    const ranges = ulogRanges(part, options.full === true, i === 0);
    const [first] = ranges;
    if (ranges.length > 1 || (first && first[1] - first[0] < part[1] - part[0])) complete = false;
    await readUlogData(dataPath, part, ranges, sizes, handlers);
    done += part[1] - part[0];
    options.onProgress?.(done, total);
  }
  for (const axis of plan.axes) axis.out?.flush();
  return { rows, complete, notes: plan.notes };
}

/** One message (or logged text) as a row of its axis. */
function addRow(
  axis: Axis,
  channels: readonly RowChannel[],
  time: number,
  valueFor: (c: Axis['channels'][number]) => string | number | boolean | null,
): void {
  const out = axis.out as BatchBuilder;
  const i = out.next();
  out.batch.times[i] = time;
  axis.channels.forEach((c, j) => {
    const v = valueFor(c);
    const col = out.batch.columns[j] as Float64Array | Array<string | null>;
    if (Array.isArray(col)) col.push(v === null || v === '' ? null : String(v));
    else col[i] = v === null ? Number.NaN : numberOfValue(v, channels[c.index] as RowChannel);
  });
}
