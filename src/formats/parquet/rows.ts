/**
 * Parquet rows as a ParquetConfig reads them, through hyparquet (the reader the check
 * stage uses for `--full`), with timestamps kept as raw integers: the time column in the
 * declared format, each configured column as its channel's type. A multiChannel layout
 * (long form: one column names the channel, another holds its value) is read twice: once
 * for the names in the rows read (the first 100 become channels, each on its own time
 * axis), then for the values. Sampled: the first 10,000 rows, three slices inside the file
 * and the last rows; `full`: every row group, one at a time (memory bounded by one group's
 * columns).
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
import type {
  ChannelConfig,
  ParquetConfig,
  ParquetTimeColumn,
  TimeFormat,
} from '../../model/index.js';
import { pointer } from '../../model/plain.js';
import { textTimeMs } from '../../values/index.js';

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
  /** multiChannel: the name and value columns; its channels are the names found in the rows. */
  multi?: { namePath: string; dataPath: string; ptr: string; names: Map<string, number> };
}

/** multiChannel: the most channel names plotted (the rest are noted). */
const MAX_NAMES = 100;

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
    const m = single.multiChannel;
    if (m?.namePath && m.dataPath) {
      const ptr = pointer(key, 'singleChannelPerRow', 'multiChannel');
      plan.multi = { namePath: m.namePath, dataPath: m.dataPath, ptr, names: new Map() };
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
  if (plan.multi) await findNames(dataPath, plan, options);
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

/** Reads the rows of `ranges` (sampled, or every row group) of the wanted columns. */
async function scanParquet(
  dataPath: string,
  wanted: string[],
  options: RowReadOptions,
  onRows: (rows: Array<Record<string, unknown>>, gap: boolean, end: number, total: number) => void,
): Promise<{ rows: number; total: number }> {
  const { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } = await import(
    'hyparquet'
  );
  const file = await asyncBufferFromFile(dataPath);
  const metadata = await parquetMetadataAsync(file);
  const total = Number(metadata.num_rows);
  const topNames = new Set(metadata.schema.slice(1).map((e) => e.name));
  const columns = [
    ...new Set(wanted.map((p) => (topNames.has(p) ? p : (p.split('.')[0] ?? p)))),
  ].filter((c) => topNames.has(c));
  const ranges = options.full ? groupRanges(metadata.row_groups) : sampleRanges(total);
  let prevEnd = 0;
  let rows = 0;
  for (const [start, end] of ranges) {
    const got = await parquetReadObjects({
      file,
      metadata,
      columns,
      rowStart: start,
      rowEnd: end,
      parsers: RAW as never,
    });
    onRows(got as Array<Record<string, unknown>>, start > prevEnd, end, total);
    rows += got.length;
    prevEnd = end;
  }
  return { rows, total };
}

/**
 * multiChannel: the channel names in the rows that will be read (the first MAX_NAMES, in
 * the order they first appear), each a channel on its own time axis, plotted when its
 * first value is a number.
 */
async function findNames(dataPath: string, plan: Plan, options: RowReadOptions): Promise<void> {
  const multi = plan.multi;
  if (!multi) return;
  const axis0 = plan.paths.length > 0 ? 1 : 0;
  let more = 0;
  await scanParquet(dataPath, [multi.namePath, multi.dataPath], options, (rows) => {
    for (const row of rows) {
      const name = text(at(row, multi.namePath));
      if (name === null || multi.names.has(name)) continue;
      if (multi.names.size >= MAX_NAMES) {
        more += 1;
        multi.names.set(name, -1);
        continue;
      }
      const v = at(row, multi.dataPath);
      const numeric = typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean';
      const channel = rowChannel(undefined, name, multi.ptr, axis0 + multi.names.size);
      if (numeric) channel.values = 'number';
      multi.names.set(name, plan.channels.length);
      plan.channels.push(channel);
    }
  });
  if (more > 0) {
    plan.notes.push(
      `multiChannel: ${more} more channel names after the first ${MAX_NAMES} are not plotted`,
    );
  }
}

async function readParquet(
  dataPath: string,
  plan: Plan,
  onBatch: (b: RowBatch) => void,
  options: RowReadOptions,
): Promise<RowsRead> {
  const flatCount = plan.paths.length;
  const out = new BatchBuilder(
    0,
    plan.paths.map((_, i) => i),
    plan.channels.slice(0, flatCount).map((c) => c.values),
    onBatch,
  );
  const perName = plan.channels
    .slice(flatCount)
    .map((c, k) => new BatchBuilder(c.axis, [flatCount + k], [c.values], onBatch));
  const time = numericTime(plan.time?.format, plan.time?.relativeStartTime);
  const timePath = plan.time?.path;
  const put = (b: BatchBuilder, i: number, c: number, v: unknown) => {
    const col = b.batch.columns[c] as Float64Array | Array<string | null>;
    if (Array.isArray(col)) col.push(text(v));
    else col[i] = numberOfValue(v, plan.channels[b.batch.channels[c] ?? 0] as RowChannel);
  };
  const multi = plan.multi;
  const wanted = [timePath, ...plan.paths, multi?.namePath, multi?.dataPath];
  const read = await scanParquet(
    dataPath,
    wanted.filter((p): p is string => !!p),
    options,
    (rows, gap, end, total) => {
      if (gap) for (const b of [out, ...perName]) b.gap();
      for (const row of rows) {
        const t = timeOf(timePath ? at(row, timePath) : undefined, time, plan.time?.format);
        if (flatCount > 0) {
          const i = out.next();
          out.batch.times[i] = t;
          plan.paths.forEach((p, c) => {
            put(out, i, c, at(row, p));
          });
        }
        const name = multi ? text(at(row, multi.namePath)) : null;
        const b =
          multi && name !== null ? perName[(multi.names.get(name) ?? -1) - flatCount] : undefined;
        if (!b || !multi) continue;
        const i = b.next();
        b.batch.times[i] = t;
        put(b, i, 0, at(row, multi.dataPath));
      }
      options.onProgress?.(end, total);
    },
  );
  for (const b of [out, ...perName]) b.flush();
  return { rows: read.rows, complete: read.rows >= read.total, notes: plan.notes };
}

/** A time value (number, bigint, text) → ms since 1970 under the config's format. */
function timeOf(
  v: unknown,
  numeric: ((v: number) => number) | undefined,
  format: TimeFormat | undefined,
): number {
  if (typeof v === 'bigint' || typeof v === 'number') {
    return numeric ? numeric(Number(v)) : Number.NaN;
  }
  if (typeof v === 'string') return numeric ? numeric(Number(v)) : textTimeMs(v, format);
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
