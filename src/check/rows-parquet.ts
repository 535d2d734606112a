/**
 * Parquet rows as a ParquetConfig reads them, through hyparquet (the reader the check
 * stage uses for `--full`), with timestamps kept as raw integers: the time column in the
 * declared format, each configured column as its channel's type. Sampled: the first
 * 10,000 rows, three slices inside the file and the last rows; `full`: every row group,
 * one at a time (memory bounded by one group's columns).
 */
import type { ChannelConfig } from '../model/channel.js';
import { pointer } from '../model/issue.js';
import type { ParquetConfig, ParquetTimeColumn } from '../model/parquet.js';
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
} from './rows.js';

/** Raw integers for timestamps (hyparquet's defaults make `Date`s and drop nanoseconds). */
const RAW = {
  timestampFromMilliseconds: (v: bigint) => v,
  timestampFromMicroseconds: (v: bigint) => v,
  timestampFromNanoseconds: (v: bigint) => v,
  dateFromDays: (v: number) => v,
};

interface Plan {
  time: ParquetTimeColumn | undefined;
  paths: string[];
  channels: RowChannel[];
  notes: string[];
}

/** The columns the config reads and the channels they make, for either layout. */
function planOf(config: ParquetConfig, key: string): Plan {
  const plan: Plan = { time: undefined, paths: [], channels: [], notes: [] };
  const add = (path: string | undefined, channel: ChannelConfig | undefined, ptr: string) => {
    if (!path) return;
    plan.paths.push(path);
    plan.channels.push(rowChannel(channel, path, ptr, 0));
  };
  const flat = config.flatDataset;
  const single = config.singleChannelPerRow;
  if (flat) {
    plan.time = flat.timeColumn;
    flat.dataColumns?.forEach((c, i) => {
      add(c.path, c.channelConfig, pointer(key, 'flatDataset', 'dataColumns', i));
    });
  } else if (single) {
    plan.time = single.timeColumn;
    single.columns?.forEach((c, i) => {
      add(c.path, c.columnConfig, pointer(key, 'singleChannelPerRow', 'columns', i));
    });
    if (single.singleChannel) {
      const s = single.singleChannel;
      add(s.dataPath, s.channel, pointer(key, 'singleChannelPerRow', 'singleChannel'));
    }
    if (single.multiChannel) {
      plan.notes.push(
        'multiChannel: the channel names come from the data (namePath); their values are not plotted yet',
      );
    }
  }
  return plan;
}

export async function parquetRows(
  raw: Record<string, unknown>,
  key: string,
  dataPath: string,
  options: RowReadOptions,
): Promise<ConfigRows> {
  const config = raw as ParquetConfig;
  const plan = planOf(config, key);
  return {
    kind: 'parquet',
    channels: plan.channels,
    timeFormat: plan.time?.format,
    relativeStartTime: plan.time?.relativeStartTime,
    read: (onBatch) => readParquet(dataPath, plan, onBatch, options),
  };
}

/** A value at a dotted path of a row object (`a.b` inside a struct column `a`). */
function at(row: Record<string, unknown>, path: string): unknown {
  if (path in row) return row[path];
  let v: unknown = row;
  for (const part of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

function text(v: unknown): string | null {
  if (v === null || v === undefined || v === '') return null;
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  if (typeof v === 'object')
    return JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? String(x) : x));
  return String(v);
}

async function readParquet(
  dataPath: string,
  plan: Plan,
  onBatch: (b: RowBatch) => void,
  options: RowReadOptions,
): Promise<RowsRead> {
  const { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } = await import(
    'hyparquet'
  );
  const file = await asyncBufferFromFile(dataPath);
  const metadata = await parquetMetadataAsync(file);
  const total = Number(metadata.num_rows);
  const topNames = new Set(metadata.schema.slice(1).map((e) => e.name));
  const wanted = [plan.time?.path, ...plan.paths].filter((p): p is string => !!p);
  const columns = [
    ...new Set(wanted.map((p) => (topNames.has(p) ? p : (p.split('.')[0] ?? p)))),
  ].filter((c) => topNames.has(c));
  const out = new BatchBuilder(
    0,
    plan.channels.map((_, i) => i),
    plan.channels.map((c) => c.values),
    onBatch,
  );
  const time = numericTime(plan.time?.format, plan.time?.relativeStartTime);
  const timePath = plan.time?.path;
  const take = (rows: Array<Record<string, unknown>>) => {
    for (const row of rows) {
      const i = out.next();
      const t = timePath ? at(row, timePath) : undefined;
      out.batch.times[i] = timeOf(t, time);
      plan.paths.forEach((p, c) => {
        const col = out.batch.columns[c] as Float64Array | Array<string | null>;
        const v = at(row, p);
        if (Array.isArray(col)) col.push(text(v));
        else col[i] = numberOfValue(v, plan.channels[c] as RowChannel);
      });
    }
  };
  const ranges = options.full ? groupRanges(metadata.row_groups) : sampleRanges(total);
  let prevEnd = 0;
  let rows = 0;
  for (const [start, end] of ranges) {
    if (start > prevEnd) out.gap();
    const got = await parquetReadObjects({
      file,
      metadata,
      columns,
      rowStart: start,
      rowEnd: end,
      parsers: RAW as never,
    });
    take(got as Array<Record<string, unknown>>);
    rows += got.length;
    prevEnd = end;
    options.onProgress?.(end, total);
  }
  out.flush();
  return { rows, complete: rows >= total, notes: plan.notes };
}

/** A time value (number, bigint, RFC 3339 text) → ms since 1970 under the config's format. */
function timeOf(v: unknown, numeric: ((v: number) => number) | undefined): number {
  if (typeof v === 'bigint' || typeof v === 'number') {
    return numeric ? numeric(Number(v)) : Number.NaN;
  }
  if (typeof v === 'string') {
    if (numeric) return numeric(Number(v));
    const ms = Date.parse(v);
    return Number.isNaN(ms) ? Number.NaN : ms;
  }
  if (v instanceof Date) return v.getTime();
  return Number.NaN;
}

function groupRanges(groups: ReadonlyArray<{ num_rows: bigint }>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let start = 0;
  for (const g of groups) {
    const n = Number(g.num_rows);
    if (n > 0) out.push([start, start + n]);
    start += n;
  }
  return out;
}
