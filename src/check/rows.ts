/**
 * Rows as a config reads them: the channels a config makes and, for each row read, the
 * time as the config's time format turns it into a date and each channel's value as its
 * declared type reads it. The check stage's own readers do the reading (the CSV record
 * scanner, hyparquet row groups, the guarded HDF5 worker); whoever shows data (the
 * preview) gets it from here and never parses a file itself.
 *
 * The format table (`formats/index.ts`) holds a reader per format: adding one is adding an entry
 * that turns its config into channels and streams its rows in batches.
 */
import type {
  ChannelConfig,
  ChannelDataType,
  ConfigKind,
  EnumType,
  TimeFormat,
} from '../model/index.js';
import { MS_PER_UNIT } from '../model/plain.js';
import { startMillis } from '../values/index.js';

/** One channel the config makes. */
export interface RowChannel {
  name: string;
  units?: string;
  dataType: ChannelDataType;
  enumTypes?: EnumType[];
  /** JSON pointer of the channel's config in the document. */
  path: string;
  /** `number` (numbers, BOOL as 0/1, ENUM keys) or `text` (STRING, BYTES, undeclared). */
  values: 'number' | 'text';
  /** The time axis it is read on (channels of one axis come in the same batches). */
  axis: number;
}

/** A run of consecutive rows of one time axis. */
export interface RowBatch {
  axis: number;
  /** The channels (indexes into `channels`) of the columns, in order. */
  channels: readonly number[];
  /** Rows in the batch. */
  length: number;
  /** Each row's time in ms since 1970 as the config reads it; NaN when it does not parse. */
  times: Float64Array;
  /** One column per channel: numbers (NaN when empty or unreadable) or text (null when empty). */
  columns: ReadonlyArray<Float64Array | Array<string | null>>;
  /** True when rows before this batch were skipped (a new slice of a sampled file). */
  gap: boolean;
}

export interface RowsRead {
  /** Rows read (of every axis). */
  rows: number;
  /** True when every row was read, false for head and slices. */
  complete: boolean;
  /** What could not be read, in words (a layout the reader cannot show yet). */
  notes: string[];
}

export interface RowReadOptions {
  /** Read every row (streamed, memory bounded) instead of the head and a few slices. */
  full?: boolean;
  /** Progress of full reads: done of total (bytes for CSV, rows for the others). */
  onProgress?: (done: number, total: number) => void;
  /** HDF5: time limit of each read of the HDF5 library, in ms. */
  timeoutMs?: number;
}

/** The channels of a config and a way to stream its rows. */
export interface ConfigRows {
  kind: ConfigKind;
  channels: RowChannel[];
  /** The time format and start the config declares (undefined when it declares none). */
  timeFormat: TimeFormat | undefined;
  relativeStartTime: string | undefined;
  /** Streams the rows to `onBatch` (a batch's arrays are reused after the call returns). */
  read(onBatch: (batch: RowBatch) => void): Promise<RowsRead>;
}

/** A format's entry: its config (the value under the document key) → its rows. */
export type RowReader = (
  config: Record<string, unknown>,
  key: string,
  dataPath: string,
  options: RowReadOptions,
) => Promise<ConfigRows>;

// ---------------------------------------------------------------------------------------
// Shared by the readers

/**
 * How a number in the time column becomes ms since 1970 under `format`: unix units scaled,
 * relative units added to `relativeStartTime` (to 1970 when it is missing, as a config
 * without a start would read them). Undefined for text formats (RFC 3339, DATETIME) and
 * an unspecified format.
 */
export function numericTime(
  format: TimeFormat | undefined,
  relativeStartTime: string | undefined,
): ((v: number) => number) | undefined {
  const per = format ? MS_PER_UNIT[format] : undefined;
  if (per === undefined || !format) return undefined;
  if (format.startsWith('TIME_FORMAT_ABSOLUTE_')) return (v) => v * per;
  const parsed = relativeStartTime ? startMillis(relativeStartTime) : 0;
  const start = Number.isNaN(parsed) ? 0 : parsed;
  return (v) => start + v * per;
}

/** A config's channel → the channel as rows carry it. */
export function rowChannel(
  channel: ChannelConfig | undefined,
  fallbackName: string,
  path: string,
  axis: number,
): RowChannel {
  const dataType = channel?.dataType ?? 'CHANNEL_DATA_TYPE_UNSPECIFIED';
  const out: RowChannel = {
    name: channel?.name || fallbackName,
    dataType,
    path,
    values: valuesOf(dataType),
    axis,
  };
  if (channel?.units) out.units = channel.units;
  if (channel?.enumTypes) out.enumTypes = channel.enumTypes;
  return out;
}

function valuesOf(t: ChannelDataType): 'number' | 'text' {
  return t === 'CHANNEL_DATA_TYPE_STRING' ||
    t === 'CHANNEL_DATA_TYPE_BYTES' ||
    t === 'CHANNEL_DATA_TYPE_UNSPECIFIED'
    ? 'text'
    : 'number';
}

/**
 * A value a reader got as a JS value (number, bigint, boolean, string) → the number the
 * channel plots: BOOL as 0/1 (also `true`/`false` text), ENUM names as their keys.
 */
export function numberOfValue(v: unknown, channel: RowChannel): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v !== 'string') return Number.NaN;
  const t = v.trim();
  if (t === '') return Number.NaN;
  if (channel.dataType === 'CHANNEL_DATA_TYPE_BOOL') {
    const l = t.toLowerCase();
    if (l === 'true') return 1;
    if (l === 'false') return 0;
  }
  const n = Number(t);
  if (!Number.isNaN(n)) return n;
  if (channel.dataType === 'CHANNEL_DATA_TYPE_ENUM') {
    const e = channel.enumTypes?.find((x) => x.name === t);
    if (e) return e.key;
  }
  return Number.NaN;
}

/** Rows gathered into batches of one axis, flushed to `onBatch` when full. */
export class BatchBuilder {
  readonly batch: RowBatch;
  private readonly capacity: number;
  constructor(
    axis: number,
    channels: readonly number[],
    kinds: ReadonlyArray<'number' | 'text'>,
    private readonly onBatch: (b: RowBatch) => void,
    capacity = 8192,
  ) {
    this.capacity = capacity;
    this.batch = {
      axis,
      channels,
      length: 0,
      times: new Float64Array(capacity),
      columns: kinds.map((k) => (k === 'number' ? new Float64Array(capacity) : [])),
      gap: false,
    };
  }
  /** The index to write the next row at (flushing first when full). */
  next(): number {
    if (this.batch.length === this.capacity) this.flush();
    const i = this.batch.length;
    this.batch.length += 1;
    return i;
  }
  /** Marks a skip: the rows after it do not follow the rows before it. */
  gap(): void {
    this.flush();
    this.batch.gap = true;
  }
  flush(): void {
    if (this.batch.length === 0) return;
    this.onBatch(this.batch);
    this.batch.length = 0;
    this.batch.gap = false;
    for (const c of this.batch.columns) if (Array.isArray(c)) c.length = 0;
  }
}

/**
 * The rows a sampled read takes, as [start, end) ranges: the first `head` rows, `slices`
 * slices of `sliceRows` spread through the rest, and the last `sliceRows` rows (the rest
 * whole when it is short).
 */
export function sampleRanges(
  total: number,
  { head = 10_000, sliceRows = 2_000, slices = 3 } = {},
): Array<[number, number]> {
  const headEnd = Math.min(total, head);
  const out: Array<[number, number]> = headEnd > 0 ? [[0, headEnd]] : [];
  const rest = total - headEnd;
  if (rest <= 0) return out;
  if (rest <= (slices + 1) * sliceRows) return [...out, [headEnd, total]];
  for (let i = 1; i <= slices; i++) {
    const s = headEnd + Math.floor((rest * i) / (slices + 1));
    out.push([s, s + sliceRows]);
  }
  // The tail may reach back into the last slice when the rest is just over the threshold.
  const last = out[out.length - 1] as [number, number];
  if (last[1] > total - sliceRows) last[1] = total;
  else out.push([total - sliceRows, total]);
  return out;
}
