/**
 * `check --full` for Parquet reads the values of the columns the config names: one row group
 * at a time, in batches (parquet-wasm's reader: the faster of the two decoders measured,
 * see bench/check-parquet.bench.ts), so memory is bounded by one row group. It counts, per
 * column: time going backwards, repeated and null times; NaN and ±inf; integers (or
 * fractions) outside the declared integer type; ENUM values not among the enumTypes (the
 * tallies and their issues: values/tally-time.ts, values/tally.ts).
 */
import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import type { AsyncBuffer } from 'hyparquet';
import type { ParquetFile, RecordBatch } from 'parquet-wasm/esm';
import { type ByteSource, wholeFileOf } from '../../inspect/shared.js';
import type { ChannelDataType, EnumType, TimeFormat } from '../../model/index.js';
import {
  arrayChunk,
  type ChannelTally,
  type Chunk,
  channelJudge,
  headOf,
  newTimeState,
  type TimePart,
  type TimeTally,
  tallyTime,
  type ValuePlace,
} from '../../values/index.js';
import { batchColumns } from './arrow.js';
import { openFileBlob, sourceBlob } from './file-blob.js';
import { parquetWasm } from './wasm.js';

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

/** How a read goes: its progress, its decoder, and the time column's format. */
export interface ScanOptions {
  onProgress?: ((done: number, total: number) => void) | undefined;
  /** Tests compare the two decoders' tallies; the check uses the faster one. */
  decoder?: 'parquet-wasm' | 'hyparquet';
  /** The time column's format: text times are read in it (values/text-times.ts). */
  timeFormat?: TimeFormat | undefined;
}

/**
 * Reads the named columns row group by row group and tallies what the checks report, from a
 * file (its path) or any source (an archive's member, read in place).
 */
export async function scanParquetValues(
  path: string | ByteSource,
  time: string | undefined,
  channels: readonly ValueChannel[],
  o: ScanOptions = {},
): Promise<ValueTallies> {
  const { onProgress, decoder = 'parquet-wasm', timeFormat } = o;
  const columns = columnsOf(time, channels);
  let t = valueTallier(time, channels, timeFormat);
  let rows: number;
  try {
    rows =
      decoder === 'hyparquet'
        ? await readWithHyparquet(path, columns, t.feed, onProgress)
        : await decodeParquet(path, columns, t.feed, onProgress);
  } catch (err) {
    // parquet-wasm refuses some footers other writers produce (hyparquet reads them):
    // read those with hyparquet, which is slower but accepts them.
    if (decoder === 'hyparquet' || !/Parquet error/i.test(String(err))) throw err;
    t = valueTallier(time, channels, timeFormat);
    rows = await readWithHyparquet(path, columns, t.feed, onProgress);
  }
  return t.done(rows);
}

/** The columns a read decodes: the time column, then each channel's, once each. */
export function columnsOf(time: string | undefined, channels: readonly ValueChannel[]): string[] {
  return [...new Set([...(time === undefined ? [] : [time]), ...channels.map((c) => c.column)])];
}

/**
 * The tallies of one read: `feed` takes each decoded piece of a column, `done` gives the
 * tallies; `timeState` holds the last time value read (where the next rows go on from),
 * `head()` the first time the read compared (a run's, which the join compares, jobs.ts).
 * Text times are read in `timeFormat` first.
 */
export function valueTallier(
  time: string | undefined,
  channels: readonly ValueChannel[],
  timeFormat?: TimeFormat,
) {
  const timeState = time === undefined ? undefined : newTimeState(timeFormat);
  const judges = channels.map((c) => ({ c, j: channelJudge(c) }));
  let head: TimePart['head'];
  /** One decoded piece of a column, its first row at `base` (0-based). */
  const feed = (column: string, chunk: Chunk, base: number) => {
    if (column === time && timeState) {
      const times = tallyTime(timeState, chunk, base);
      head ??= headOf(times, base);
    }
    for (const x of judges) if (x.c.column === column) x.j.tally(chunk, base);
  };
  const done = (rows: number): ValueTallies => {
    const out: ValueTallies = { rows, channels: new Map() };
    if (timeState) out.time = timeState.tally;
    for (const { c, j } of judges) out.channels.set(c.column, j.result);
    return out;
  };
  return { feed, done, timeState, head: () => head };
}

export type Feed = (column: string, chunk: Chunk, base: number) => void;

/**
 * Decodes the named columns with parquet-wasm, a batch at a time (at most BATCH_ROWS rows
 * of one row group), each column a Chunk fed with its first row (0-based); returns the
 * rows read. The Chunks are views valid only while `feed` runs.
 */
export async function decodeParquet(
  path: string | ByteSource,
  columns: string[],
  feed: Feed,
  onProgress?: (done: number, total: number) => void,
): Promise<number> {
  const size = typeof path === 'string' ? (await stat(path)).size : path.size;
  return withCompilers(size, 1, () => readWithParquetWasm(path, columns, feed, onProgress));
}

/** Files from this size may be decoded with parquet-wasm's optimized code only (withCompilers). */
const OPTIMIZED_ONLY_BYTES = 4 * 1024 * 1024;

/**
 * Runs `read`, a read of `size` bytes by `threads` threads, under the wasm compilers that
 * suit it. V8 compiles each of parquet-wasm's functions at its first call: by default with
 * its baseline compiler (Liftoff), then again with its optimizing one (TurboFan) on
 * background threads once the function is hot; with `--no-liftoff`, with TurboFan alone,
 * at the first call, on the calling thread: about 0.6 s of CPU for the functions a read
 * calls, before its first rows.
 * - A small file (under OPTIMIZED_ONLY_BYTES), or fewer threads than cores: both compilers.
 *   The optimizing compiles run on a spare core while the read goes on in baseline code.
 *   Measured on the 20 M-row bench file, one thread on an idle 2-core machine, runs
 *   alternated: 1.36 to 1.49 s and 134 to 137 MiB peak RSS with both, against 1.79 to
 *   1.90 s and 106 to 110 MiB with TurboFan alone (DuckDB 1.32 to 1.35 s). On a file of a
 *   few rows TurboFan alone costs its 0.6 s for nothing.
 * - A large file read by a thread a core (scanParquetJobs): TurboFan alone. With no core to
 *   spare, the background compiles would take turns with the reads; the code is compiled
 *   once, by the first thread to call each function, and shared by the other threads
 *   (parquet-wasm's module is), which wait for it (jobs.ts).
 * V8 reads the flag when a function is first compiled, so it is set for the read and set
 * back after it, unless the process was started with it. The flag is the process's: wasm
 * first compiled by another thread during the read (an HDF5 worker starting beside it in a
 * batch) is compiled by the optimizing compiler too, which is slower to start but reads
 * the same values.
 */
export async function withCompilers<T>(
  size: number,
  threads: number,
  read: () => Promise<T>,
): Promise<T> {
  if (size < OPTIMIZED_ONLY_BYTES || threads < availableParallelism()) return read();
  setFlagsFromString('--no-liftoff');
  try {
    return await read();
  } finally {
    if (!process.execArgv.includes('--no-liftoff')) setFlagsFromString('--liftoff');
  }
}

/**
 * The Blob parquet-wasm reads: a file on disk through positioned reads (openFileBlob), any
 * other source through its reads.
 */
async function blobOf(data: string | ByteSource) {
  const file = typeof data === 'string' ? data : wholeFileOf(data);
  if (file !== undefined) return openFileBlob(file);
  return { blob: sourceBlob(data as ByteSource), close: async () => {} };
}

/**
 * A file opened with parquet-wasm, its footer read once, for any number of reads of its row
 * groups (a thread reading runs of them, jobs.ts): its rows, and `close` to free it.
 */
export interface OpenedParquet {
  file: ParquetFile;
  rows: number;
  close(): Promise<void>;
}

export async function openWithParquetWasm(path: string | ByteSource): Promise<OpenedParquet> {
  const { pw } = await parquetWasm();
  const source = await blobOf(path);
  try {
    const file = await pw.ParquetFile.fromFile(source.blob as unknown as Blob);
    const rows = file.metadata().fileMetadata().numRows();
    const close = async () => {
      file.free();
      await source.close();
    };
    return { file, rows, close };
  } catch (err) {
    await source.close();
    throw err;
  }
}

/**
 * Decodes the named columns of every row group with parquet-wasm (see decodeParquet), the
 * file opened for this read alone. Returns the rows read.
 */
export async function readWithParquetWasm(
  path: string | ByteSource,
  columns: string[],
  feed: Feed,
  onProgress: ((done: number, total: number) => void) | undefined,
): Promise<number> {
  const opened = await openWithParquetWasm(path);
  try {
    return await readGroups(opened, columns, feed, onProgress);
  } finally {
    await opened.close();
  }
}

/**
 * Decodes the named columns of an opened file: every row group, or only `groups` (in order)
 * whose first row is `base`. Returns the rows read.
 */
export async function readGroups(
  opened: OpenedParquet,
  columns: string[],
  feed: Feed,
  onProgress: ((done: number, total: number) => void) | undefined,
  groups?: { rowGroups: number[]; base: number },
): Promise<number> {
  const { pw } = await parquetWasm();
  const base = groups?.base ?? 0;
  let rows = base;
  // One stream over every row group: the reader still decodes one group at a time, and a
  // stream per group costs twice the time in setting up.
  const stream = await opened.file.stream({
    batchSize: BATCH_ROWS,
    columns,
    ...(groups ? { rowGroups: groups.rowGroups } : {}),
  });
  for await (const batch of stream as unknown as AsyncIterable<RecordBatch>) {
    const ffi = batch.intoFFI();
    try {
      const got = batchColumns(pw.wasmMemory().buffer, ffi.arrayAddr(), ffi.schemaAddr());
      for (const column of columns) {
        const chunk = got.columns.get(column);
        if (chunk) feed(column, chunk, rows);
      }
      rows += got.rows;
    } finally {
      ffi.free();
    }
    onProgress?.(rows, opened.rows);
  }
  return rows - base;
}

/** Raw integers for times and dates (hyparquet's defaults make `Date`s and drop nanoseconds). */
const RAW = {
  timestampFromMilliseconds: (v: bigint) => v,
  timestampFromMicroseconds: (v: bigint) => v,
  timestampFromNanoseconds: (v: bigint) => v,
  dateFromDays: (v: number) => v,
};

/**
 * A source as hyparquet's AsyncBuffer: each slice read through the source, copied (the bytes
 * may be a view into a larger buffer).
 */
function sourceBuffer(source: ByteSource): AsyncBuffer {
  return {
    byteLength: source.size,
    slice: async (start, end) =>
      new Uint8Array(await source.read(start, (end ?? source.size) - start)).buffer,
  };
}

async function readWithHyparquet(
  path: string | ByteSource,
  columns: string[],
  feed: Feed,
  onProgress: ((done: number, total: number) => void) | undefined,
): Promise<number> {
  const { asyncBufferFromFile, parquetMetadataAsync, parquetRead } = await import('hyparquet');
  const file = typeof path === 'string' ? await asyncBufferFromFile(path) : sourceBuffer(path);
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

/** A Parquet column as the value findings name it: rows count from 1. */
export function columnPlace(file: string, column: string): ValuePlace {
  return {
    label: `column '${column}'`,
    time: 'time',
    at: (row) => ({ text: `row ${row}`, source: { file, column, row } }),
  };
}
