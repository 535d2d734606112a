/**
 * CSV rows as a CsvConfig reads them, through the check stage's record scanner: from
 * `firstDataRow` on, the time column in the declared format, each data column as its
 * channel's type. Sampled: the head (10,000 rows at most), three slices inside the file
 * and its tail (bounded by bytes); `full`: every row, streamed.
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
} from '../../check/shared.js';
import type { CsvConfig, TimeFormat } from '../../model/index.js';
import { pointer } from '../../model/plain.js';
import { zonedMillis } from '../../values/index.js';
import { isBool, numberOf } from './check-cells.js';
import { nextLineStart, readCsvHead } from './check-head.js';
import { type CsvRecord, fieldText, scanCsvFile } from './scan.js';

const HEAD_ROWS = 10_000;
const HEAD_BYTES = 4 * 1024 * 1024;
const SLICE_BYTES = 256 * 1024;
const SLICES = 3;

export async function csvRows(
  raw: Record<string, unknown>,
  key: string,
  dataPath: string,
  options: RowReadOptions,
): Promise<ConfigRows> {
  const config = raw as CsvConfig;
  const columns: number[] = [];
  const channels: RowChannel[] = [];
  for (const [k, channel] of Object.entries(config.dataColumns ?? {})) {
    const n = Number(k);
    if (!Number.isInteger(n) || n < 1) continue;
    columns.push(n);
    channels.push(rowChannel(channel, `column ${n}`, pointer(key, 'dataColumns', k), 0));
  }
  const timeFormat = config.timeColumn?.format;
  const relativeStartTime = config.timeColumn?.relativeStartTime;
  const reader = recordReader(config, columns, channels);
  return {
    kind: 'csv',
    channels,
    timeFormat,
    relativeStartTime,
    read: (onBatch) => readCsv(dataPath, reader, channels, onBatch, options),
  };
}

/** `rowsKnown` is false in a slice, whose row numbers are not known. */
type RecordReader = (rec: CsvRecord, out: BatchBuilder, rowsKnown: boolean) => void;

/** The per-record step: skips rows before firstDataRow and blank lines, reads time and values. */
function recordReader(config: CsvConfig, columns: number[], channels: RowChannel[]): RecordReader {
  const from = config.firstDataRow ?? 1;
  const timeCol = (config.timeColumn?.columnNumber ?? 0) - 1;
  const time = timeOf(config.timeColumn?.format, config.timeColumn?.relativeStartTime);
  return (rec, out, rowsKnown) => {
    if (rowsKnown && rec.row < from) return;
    if (rec.count === 1 && rec.ends[0] === rec.starts[0]) return;
    const i = out.next();
    const b = out.batch;
    b.times[i] = timeCol >= 0 && timeCol < rec.count ? cellTime(rec, timeCol, time) : Number.NaN;
    for (let c = 0; c < columns.length; c++) {
      const col = b.columns[c] as Float64Array | Array<string | null>;
      const f = (columns[c] as number) - 1;
      if (Array.isArray(col)) {
        col.push(f < rec.count ? fieldText(rec, f) || null : null);
      } else {
        col[i] = f < rec.count ? cellNumber(rec, f, channels[c] as RowChannel) : Number.NaN;
      }
    }
  };
}

/** How a time cell is read: a number in a unit, or text with a zone (RFC 3339) or without. */
type TimeOf = { numeric?: (v: number) => number; zone?: boolean };

function timeOf(format: TimeFormat | undefined, start: string | undefined): TimeOf {
  const numeric = numericTime(format, start);
  if (numeric) return { numeric };
  if (format === 'TIME_FORMAT_ABSOLUTE_RFC3339') return { zone: true };
  return format === 'TIME_FORMAT_ABSOLUTE_DATETIME' ? { zone: false } : {};
}

function trimmed(rec: CsvRecord, f: number): [number, number] {
  const b = rec.bytes;
  let s = rec.starts[f] as number;
  let e = rec.ends[f] as number;
  while (s < e && (b[s] as number) <= 32) s += 1;
  while (e > s && (b[e - 1] as number) <= 32) e -= 1;
  return [s, e];
}

function cellTime(rec: CsvRecord, f: number, time: TimeOf): number {
  const [s, e] = trimmed(rec, f);
  if (s >= e) return Number.NaN;
  if (time.numeric) return time.numeric(numberOf(rec.bytes, s, e));
  return time.zone !== undefined ? zonedMillis(rec.bytes, s, e, time.zone) : Number.NaN;
}

function cellNumber(rec: CsvRecord, f: number, channel: RowChannel): number {
  const [s, e] = trimmed(rec, f);
  if (s >= e) return Number.NaN;
  const b = rec.bytes;
  if (channel.dataType === 'CHANNEL_DATA_TYPE_BOOL' && isBool(b, s, e)) {
    const c = (b[s] as number) | 32;
    return c === 49 || c === 116 ? 1 : 0;
  }
  const n = numberOf(b, s, e);
  if (!Number.isNaN(n) || channel.dataType !== 'CHANNEL_DATA_TYPE_ENUM') return n;
  return numberOfValue(fieldText(rec, f), channel);
}

/** Reads every row (`full`) or the head, three inner slices and the tail. */
async function readCsv(
  dataPath: string,
  onRecord: RecordReader,
  channels: RowChannel[],
  onBatch: (b: RowBatch) => void,
  options: RowReadOptions,
): Promise<RowsRead> {
  const { delimiter, gz, size } = await readCsvHead(dataPath);
  const out = new BatchBuilder(
    0,
    channels.map((_, i) => i),
    channels.map((c) => c.values),
    onBatch,
  );
  let rows = 0;
  let rowsKnown = true;
  const count = (rec: CsvRecord) => {
    const before = out.batch.length;
    onRecord(rec, out, rowsKnown);
    if (out.batch.length !== before) rows += 1;
    return undefined;
  };
  if (options.full) {
    const progress = options.onProgress;
    await scanCsvFile(dataPath, count, {
      delimiter,
      ...(progress ? { onProgress: (done: number) => progress(done, size) } : {}),
    });
    out.flush();
    return { rows, complete: true, notes: [] };
  }
  const head = await scanCsvFile(dataPath, count, {
    delimiter,
    end: HEAD_BYTES,
    maxRows: HEAD_ROWS,
  });
  let rest = false;
  if (!head.atEnd && !gz) {
    rowsKnown = false;
    for (const [at, end] of slices(head.endOffset, size)) {
      // The head stops where a record ends: a slice from there goes on with the next record
      // (a line start searched for from there would pass over it).
      const next = at === head.endOffset;
      const start = next ? at : await nextLineStart(dataPath, at, size);
      if (start >= size) continue;
      if (!next) out.gap();
      const read = await scanCsvFile(dataPath, count, { delimiter, start, end });
      // The rest of the file after the head, read whole: every row is read.
      rest ||= next && read.atEnd;
    }
  }
  out.flush();
  return { rows, complete: head.atEnd || rest, notes: [] };
}

/**
 * The slices [start, end) after the head: three spread through the rest, and the tail, in
 * file order and apart (the last inner slice ends where the tail starts, so no row is read
 * twice or out of order).
 */
function slices(headEnd: number, size: number): Array<[number, number]> {
  const rest = size - headEnd;
  if (rest <= 0) return [];
  if (rest <= (SLICES + 1) * SLICE_BYTES) return [[headEnd, size]];
  const tail = size - Math.floor(SLICE_BYTES / 2);
  const out: Array<[number, number]> = [];
  for (let i = 1; i <= SLICES; i++) {
    const at = headEnd + Math.floor((rest * i) / (SLICES + 1));
    out.push([at, Math.min(at + SLICE_BYTES, tail)]);
  }
  out.push([tail, size]);
  return out;
}
