/**
 * `check --full` for Parquet reads the values of the columns the config names: one row group
 * at a time, in batches (parquet-wasm's reader: the faster of the two decoders measured,
 * see bench/check-parquet.bench.ts), so memory is bounded by one row group. It counts, per
 * column: time going backwards, repeated and null times; NaN and ±inf; integers (or
 * fractions) outside the declared integer type; ENUM values not among the enumTypes (the
 * tallies and their issues: value-tally.ts).
 */
import { openAsBlob } from 'node:fs';
import type { Data } from 'apache-arrow';
import type { ChannelDataType, EnumType } from '../model/index.js';
import {
  arrayChunk,
  type ChannelTally,
  type Chunk,
  channelJudge,
  newTimeState,
  type TimeTally,
  tallyTime,
  type ValuePlace,
} from './value-tally.js';

/** A channel whose values are judged, with the pointer of its channel config. */
export interface ValueChannel {
  column: string;
  ptr: string;
  dataType: ChannelDataType;
  enumTypes?: readonly EnumType[] | undefined;
}

export interface ValueTallies {
  rows: number;
  time?: TimeTally;
  channels: Map<string, ChannelTally>;
}

/** Rows decoded per batch: small enough that a batch is a few MB whatever the width. */
const BATCH_ROWS = 65_536;

/** Reads the named columns row group by row group and tallies what the checks report. */
export async function scanParquetValues(
  path: string,
  time: string | undefined,
  channels: readonly ValueChannel[],
  onProgress?: (done: number, total: number) => void,
): Promise<ValueTallies> {
  const columns = [
    ...new Set([...(time === undefined ? [] : [time]), ...channels.map((c) => c.column)]),
  ];
  const timeState = time === undefined ? undefined : newTimeState();
  const judges = channels.map((c) => ({ c, j: channelJudge(c) }));
  /** One decoded piece of a column, its first row at `base` (0-based). */
  const feed = (column: string, chunk: Chunk, base: number) => {
    if (column === time && timeState) tallyTime(timeState, chunk, base);
    for (const x of judges) if (x.c.column === column) x.j.tally(chunk, base);
  };
  let rows: number;
  try {
    rows = await readWithParquetWasm(path, columns, feed, onProgress);
  } catch (err) {
    // parquet-wasm refuses some footers other writers produce (hyparquet reads them):
    // read those with hyparquet, which is slower but accepts them.
    if (!/Parquet error/i.test(String(err))) throw err;
    judges.forEach((x) => {
      x.j = channelJudge(x.c);
    });
    if (timeState) Object.assign(timeState, newTimeState());
    rows = await readWithHyparquet(path, columns, feed, onProgress);
  }
  const out: ValueTallies = { rows, channels: new Map() };
  if (timeState) out.time = timeState.tally;
  for (const { c, j } of judges) out.channels.set(c.column, j.result);
  return out;
}

type Feed = (column: string, chunk: Chunk, base: number) => void;

async function readWithParquetWasm(
  path: string,
  columns: string[],
  feed: Feed,
  onProgress: ((done: number, total: number) => void) | undefined,
): Promise<number> {
  const pw = await import('parquet-wasm');
  const { tableFromIPC } = await import('apache-arrow');
  const file = await pw.ParquetFile.fromFile(await openAsBlob(path));
  let rows = 0;
  try {
    const total = file.metadata().fileMetadata().numRows();
    // One stream over every row group: the reader still decodes one group at a time, and a
    // stream per group costs twice the time in setting up.
    const stream = await file.stream({ batchSize: BATCH_ROWS, columns });
    for await (const batch of stream as unknown as AsyncIterable<{ intoIPCStream(): Uint8Array }>) {
      const table = tableFromIPC(batch.intoIPCStream());
      for (const column of columns) {
        let row = rows;
        for (const d of table.getChild(column)?.data ?? []) {
          feed(column, arrowChunk(d), row);
          row += d.length;
        }
      }
      rows += table.numRows;
      onProgress?.(rows, total);
    }
  } finally {
    file.free();
  }
  return rows;
}

/** Raw integers for times and dates (hyparquet's defaults make `Date`s and drop nanoseconds). */
const RAW = {
  timestampFromMilliseconds: (v: bigint) => v,
  timestampFromMicroseconds: (v: bigint) => v,
  timestampFromNanoseconds: (v: bigint) => v,
  dateFromDays: (v: number) => v,
};

async function readWithHyparquet(
  path: string,
  columns: string[],
  feed: Feed,
  onProgress: ((done: number, total: number) => void) | undefined,
): Promise<number> {
  const { asyncBufferFromFile, parquetMetadataAsync, parquetRead } = await import('hyparquet');
  const file = await asyncBufferFromFile(path);
  const metadata = await parquetMetadataAsync(file);
  const total = Number(metadata.num_rows);
  let start = 0;
  for (const group of metadata.row_groups) {
    const end = start + Number(group.num_rows);
    await parquetRead({
      file,
      metadata,
      columns,
      rowStart: start,
      rowEnd: end,
      parsers: RAW as never,
      onChunk: (c) => {
        // A chunk may hold rows outside the group asked for: keep only the group's.
        const from = Math.max(start, c.rowStart);
        const to = Math.min(end, c.rowEnd);
        if (to > from) {
          const view = c.columnData.slice(from - c.rowStart, to - c.rowStart);
          feed(c.columnName, arrayChunk(view as ArrayLike<unknown>), from);
        }
      },
    });
    start = end;
    onProgress?.(start, total);
  }
  return start;
}

/** Arrow type ids whose values are one number a row: Int, Float, Date, Time, Timestamp, Duration. */
const NUMERIC_TYPE_IDS: ReadonlySet<number> = new Set([2, 3, 8, 9, 10, 18]);

function arrowChunk(d: Data): Chunk {
  const bitmap = d.nullBitmap;
  const off = d.offset;
  const has =
    !bitmap || bitmap.length === 0 || d.nullCount === 0
      ? () => true
      : (i: number) => ((bitmap[(off + i) >> 3] as number) & (1 << ((off + i) & 7))) !== 0;
  const chunk: Chunk = { length: d.length, has };
  const v = d.values as unknown;
  if (NUMERIC_TYPE_IDS.has(d.typeId) && d.dictionary === undefined && ArrayBuffer.isView(v)) {
    chunk.numbers = v as unknown as ArrayLike<number> | ArrayLike<bigint>;
  } else if (d.dictionary !== undefined) {
    const dict = d.dictionary;
    const indices = v as ArrayLike<number>;
    chunk.text = (i) => String(dict.get(Number(indices[i])));
  } else if (d.valueOffsets !== undefined && v instanceof Uint8Array) {
    const offsets = d.valueOffsets as ArrayLike<number>;
    const bytes = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
    chunk.text = (i) => bytes.toString('utf8', Number(offsets[i]), Number(offsets[i + 1]));
    chunk.utf8 = { bytes: v, offsets };
  }
  return chunk;
}

/** A Parquet column as the value findings name it: rows count from 1. */
export function columnPlace(file: string, column: string): ValuePlace {
  return {
    label: `column '${column}'`,
    time: 'time',
    at: (row) => ({ text: `row ${row}`, source: { file, column, row } }),
  };
}
