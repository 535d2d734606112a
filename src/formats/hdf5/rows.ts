/**
 * HDF5 rows as an Hdf5Config reads them, through the guarded HDF5 worker (the reader the
 * check stage uses): each entry's value dataset (a 1-D dataset, a column of an [N, k] one,
 * or a compound member) on its time dataset, in the config's time format. Entries that
 * share a time dataset share a time axis, read once. Sampled: the first 10,000 rows, three
 * slices and the last rows; `full`: every row, 65,536 rows at a time.
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
import type { Hdf5Config, Hdf5DataEntry, TimeFormat } from '../../model/index.js';
import { pointer } from '../../model/plain.js';
import { textTimeMs } from '../../values/index.js';
import { type Hdf5Dataset, inspectHdf5, readHdf5Rows } from './inspect.js';

const FULL_CHUNK = 65_536;

/** Where one value (or time) lives: a dataset and, for 2-D or compound ones, the part. */
interface Part {
  dataset: Hdf5Dataset;
  column: number | null;
  member: number | null;
}

interface Axis {
  time: Part;
  /** Channel indexes and where their values are. */
  channels: Array<{ index: number; part: Part }>;
  rows: number;
}

function partOf(
  d: Hdf5Dataset | undefined,
  index: string | undefined,
  field: string | undefined,
  defaultMember: number,
): Part | undefined {
  if (!d?.shape || d.shape.length === 0) return undefined;
  const members = d.type.members;
  if (members) {
    const m = field === undefined ? defaultMember : members.findIndex((x) => x.name === field);
    return m >= 0 && m < members.length ? { dataset: d, column: null, member: m } : undefined;
  }
  if (d.shape.length === 2) {
    const c = Number(index ?? 0);
    return c < (d.shape[1] ?? 0) ? { dataset: d, column: c, member: null } : undefined;
  }
  return d.shape.length === 1 ? { dataset: d, column: null, member: null } : undefined;
}

/** Channels and time axes of the entries whose datasets exist (others are noted). */
function planOf(config: Hdf5Config, key: string, datasets: Hdf5Dataset[]) {
  const byPath = new Map(datasets.map((d) => [d.path, d]));
  const get = (p: string | undefined) =>
    p === undefined ? undefined : byPath.get(p.startsWith('/') ? p : `/${p}`);
  const axes = new Map<string, Axis>();
  const channels: RowChannel[] = [];
  const notes: string[] = [];
  (config.data ?? []).forEach((e: Hdf5DataEntry, i) => {
    const time = partOf(get(e.timeDataset), e.timeIndex, e.timeField, 0);
    const value = partOf(get(e.valueDataset), e.valueIndex, e.valueField, 1);
    if (!time || !value) {
      notes.push(`data/${i}: its time or value dataset cannot be read, so it is not plotted`);
      return;
    }
    const axisKey = `${time.dataset.path}|${time.column}|${time.member}`;
    let axis = axes.get(axisKey);
    if (!axis) {
      axis = { time, channels: [], rows: time.dataset.shape?.[0] ?? 0 };
      axes.set(axisKey, axis);
    }
    const axisIndex = [...axes.keys()].indexOf(axisKey);
    axis.rows = Math.min(axis.rows, value.dataset.shape?.[0] ?? 0);
    axis.channels.push({ index: channels.length, part: value });
    channels.push(
      rowChannel(
        e.channelConfig,
        e.valueDataset ?? `data ${i}`,
        pointer(key, 'data', i),
        axisIndex,
      ),
    );
  });
  return { axes: [...axes.values()], channels, notes };
}

export async function hdf5Rows(
  raw: Record<string, unknown>,
  key: string,
  dataPath: string,
  options: RowReadOptions,
): Promise<ConfigRows> {
  const config = raw as Hdf5Config;
  const limit = options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };
  const profile = await inspectHdf5(dataPath, { sample: [], ...limit });
  const plan = planOf(config, key, profile.datasets);
  const numeric = numericTime(config.timeFormat, config.relativeStartTime);
  const time = (v: TimeValue) => timeOf(v, numeric, config.timeFormat);
  const read = async (onBatch: (b: RowBatch) => void): Promise<RowsRead> => {
    let rows = 0;
    let complete = true;
    const total = plan.axes.reduce((s, a) => s + a.rows, 0);
    for (const [a, axis] of plan.axes.entries()) {
      const ranges = options.full ? fullRanges(axis.rows) : sampleRanges(axis.rows);
      const r = await readAxis(dataPath, axis, a, plan.channels, ranges, time, onBatch, limit);
      rows += r;
      if (r < axis.rows) complete = false;
      options.onProgress?.(rows, total);
    }
    return { rows, complete, notes: plan.notes };
  };
  return {
    kind: 'hdf5',
    channels: plan.channels,
    timeFormat: config.timeFormat,
    relativeStartTime: config.relativeStartTime,
    read,
  };
}

/** Reads one axis range by range (time, then each channel), emitting a batch per range. */
async function readAxis(
  dataPath: string,
  axis: Axis,
  a: number,
  channels: RowChannel[],
  ranges: Array<[number, number]>,
  time: (v: TimeValue) => number,
  onBatch: (b: RowBatch) => void,
  limit: { timeoutMs?: number },
): Promise<number> {
  const out = new BatchBuilder(
    a,
    axis.channels.map((c) => c.index),
    axis.channels.map((c) => (channels[c.index] as RowChannel).values),
    onBatch,
  );
  const read = (p: Part, range: [number, number]) =>
    readHdf5Rows(
      dataPath,
      { dataset: p.dataset.path, column: p.column, member: p.member, ranges: [range] },
      limit,
    ).then((r) => r.values[0] ?? []);
  let rows = 0;
  let prevEnd = 0;
  for (const range of ranges) {
    if (range[0] > prevEnd) out.gap();
    prevEnd = range[1];
    const times = await read(axis.time, range);
    const values: Array<Array<number | string | null>> = [];
    for (const c of axis.channels) values.push(await read(c.part, range));
    for (let k = 0; k < times.length; k++) {
      const i = out.next();
      out.batch.times[i] = time(times[k]);
      axis.channels.forEach((c, j) => {
        const col = out.batch.columns[j] as Float64Array | Array<string | null>;
        const v = values[j]?.[k] ?? null;
        if (Array.isArray(col)) col.push(v === null || v === '' ? null : String(v));
        else col[i] = numberOfValue(v, channels[c.index] as RowChannel);
      });
    }
    rows += times.length;
  }
  out.flush();
  return rows;
}

/** A value of a time dataset as read. */
type TimeValue = number | string | null | undefined;

/** A time value → ms since 1970 under the config's format (text as the import reads it). */
function timeOf(
  v: TimeValue,
  numeric: ((v: number) => number) | undefined,
  format: TimeFormat | undefined,
) {
  if (typeof v === 'number') return numeric ? numeric(v) : Number.NaN;
  if (typeof v === 'string') return numeric ? numeric(Number(v)) : textTimeMs(v, format);
  return Number.NaN;
}

function fullRanges(rows: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let a = 0; a < rows; a += FULL_CHUNK) out.push([a, Math.min(rows, a + FULL_CHUNK)]);
  return out;
}
