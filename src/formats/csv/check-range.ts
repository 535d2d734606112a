/**
 * One range of a CSV file scanned and tallied: the unit of work of a parallel `--full`
 * check, run in a worker thread (check-worker.ts) or in the calling thread.
 *
 * A range is given as a byte span. The first range starts at a known record start; the
 * others start at a split point that is resolved to a record start by a guess
 * (record-start.ts: the first line start after it from which records read cleanly). The guess
 * is checked when the ranges are joined (the range before must end exactly there) and a
 * range that guessed wrong is scanned again from where the range before really ended
 * (check-parallel.ts): the findings are those of one pass, whatever the file holds.
 *
 * The threads of a scan share its ranges through `Lanes` (shared memory): each claims the
 * next range not yet taken (`runLane`), so none waits to be handed work.
 */
import { nextLineStart } from './check-head.js';
import { type RecordTally, type Tally, type TallySpec, tallyRecords } from './check-tally.js';
import { guessRecordStart } from './record-start.js';
import { type ScanBuffers, type ScanOptions, type ScanResult, scanCsvFile } from './scan.js';

/** How far past its span a guessed range reads to finish its last record before giving up. */
export const OVERRUN_BYTES = 8 * 1024 * 1024;

/** A byte span of a CSV file scanned apart (a range of a parallel check or normalize). */
export interface ScanSpan {
  path: string;
  delimiter: string;
  /** A record start (`exact`), or a split point to resolve to the next line start. */
  start: number;
  exact: boolean;
  /** Records that start at or after this offset belong to the next range. */
  stopAt: number;
  /** Read size (default 1 MiB). */
  chunkSize?: number | undefined;
  /** Blocking reads (in a worker thread). */
  syncReads?: boolean | undefined;
}

export interface RangeJob extends ScanSpan {
  spec: TallySpec;
}

/** Where a span's first record starts: its start when exact, else the guess of one. */
export async function spanStart(span: ScanSpan): Promise<number> {
  if (span.exact) return span.start;
  return (
    (await guessRecordStart(span.path, span.start, span.delimiter)) ??
    // The first line start at or after the split point: after the byte before it.
    (await nextLineStart(span.path, Math.max(0, span.start - 1)))
  );
}

/**
 * Scans a span's records from `start` (spanStart), rows and lines counted from there; a
 * guessed span is read at most OVERRUN_BYTES past its end. `finished`: false when a guessed
 * span could not finish its last record so.
 */
export async function scanSpan(
  span: ScanSpan,
  start: number,
  onRecord: Parameters<typeof scanCsvFile>[1],
  o: Pick<ScanOptions, 'onProgress' | 'buffers'> = {},
): Promise<{ read: ScanResult; finished: boolean }> {
  const read = await scanCsvFile(span.path, onRecord, {
    delimiter: span.delimiter,
    start,
    stopAt: span.stopAt,
    firstRow: 1,
    firstLine: 1,
    ...(span.exact ? {} : { end: span.stopAt + OVERRUN_BYTES }),
    ...(span.chunkSize ? { chunkSize: span.chunkSize } : {}),
    ...(span.syncReads ? { syncReads: true } : {}),
    ...(o.onProgress ? { onProgress: o.onProgress } : {}),
    ...(o.buffers ? { buffers: o.buffers } : {}),
  });
  return { read, finished: span.exact || read.endOffset >= span.stopAt || read.atEnd };
}

export interface RangeResult {
  /** Where the range's first record starts (the resolved start). */
  start: number;
  /** Just past its last record. */
  endOffset: number;
  /** Records read. */
  rows: number;
  /** Physical lines those records take. */
  lines: number;
  /** False when a guessed range could not finish its last record within OVERRUN_BYTES. */
  finished: boolean;
  tally: Tally;
}

/** Scans one range; `onProgress` gets the bytes of the range read so far. */
export async function scanRange(
  job: RangeJob,
  onProgress?: (done: number) => void,
  lent?: Lent,
): Promise<RangeResult> {
  const start = await spanStart(job);
  const { tally, onRecord } = tallierOf(job.spec, lent);
  const buffers = lent?.buffers;
  const { read, finished } = await scanSpan(job, start, onRecord, {
    ...(onProgress ? { onProgress } : {}),
    ...(buffers ? { buffers } : {}),
  });
  return {
    start,
    endOffset: read.endOffset,
    rows: read.rows,
    lines: read.lines - 1,
    finished,
    tally,
  };
}

/**
 * What a thread lends each range it scans to the next: the read buffers, and the record
 * callback with a fresh tally (RecordTally.restart), for ranges of one scan (one spec).
 */
export interface Lent {
  buffers: ScanBuffers;
  tallier?: { spec: TallySpec; used: RecordTally } | undefined;
}

/** A record callback with a fresh tally: the lent one restarted when it counts for `spec`. */
function tallierOf(
  spec: TallySpec,
  lent: Lent | undefined,
): { tally: Tally; onRecord: RecordTally['onRecord'] } {
  if (!lent) return tallyRecords(spec);
  if (lent.tallier?.spec !== spec) {
    lent.tallier = { spec, used: tallyRecords(spec) };
    return lent.tallier.used;
  }
  const { used } = lent.tallier;
  return { tally: used.restart(), onRecord: used.onRecord };
}

/**
 * What the threads of one scan share, over shared memory: the next range to claim and the
 * bytes read of each range (the progress bar sums them). No thread waits on another to be
 * handed its next range, and progress costs no message.
 */
export interface Lanes {
  /** `[0]`: the index of the next range not yet claimed. */
  next: Int32Array;
  /** Bytes read of each range so far. */
  done: Float64Array;
}

/** The shared state of a scan of `ranges` ranges (its buffers cross to worker threads as is). */
export function lanesOf(ranges: number): Lanes {
  return {
    next: new Int32Array(new SharedArrayBuffer(4)),
    done: new Float64Array(new SharedArrayBuffer(8 * Math.max(1, ranges))),
  };
}

/**
 * One thread's share of a scan: claims the next range not yet taken, scans it and hands
 * its result to `onResult`, until no range is left. `onRead` is called after each read.
 */
export async function runLane(
  ranges: RangeJob[],
  lanes: Lanes,
  onResult: (k: number, result: RangeResult) => void,
  onRead?: () => void,
): Promise<void> {
  // One window for the thread's ranges, one after another: a new one a range cost each
  // range 3 MiB of fresh pages (the kernel maps them on first touch). Measured on a 250 MB
  // file in one thread (the ranges of 2 jobs, one after another): the buffer refills took
  // 73 ms of CPU against 20 ms in one range. And one record callback (Lent).
  const lent: Lent = { buffers: {} };
  for (;;) {
    const k = Atomics.add(lanes.next, 0, 1);
    const job = ranges[k];
    if (!job) return;
    const result = await scanRange(
      job,
      (bytes) => {
        lanes.done[k] = bytes;
        onRead?.();
      },
      lent,
    );
    lanes.done[k] = result.endOffset - result.start;
    onResult(k, result);
  }
}
