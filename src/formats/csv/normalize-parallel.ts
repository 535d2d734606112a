/**
 * `normalize` on several cores: the data rows are cut into byte ranges, threads rewrite
 * each range into a buffer of its own (rewriteRange), and this thread writes the buffers in
 * file order: the same bytes as one pass, and the same counts and rows named.
 *
 * The ranges are shared by this thread and worker threads (normalize-worker.ts) through
 * the ordered pool (values/ordered-pool.ts): each takes the next range when it is free, and
 * at most two results a thread wait to be written, so memory holds a few ranges' output
 * (RANGE_BYTES each, a little more once rewritten), whatever the size of the file.
 *
 * A range after the first starts at a guessed record start (record-start.ts), checked when
 * it is written: the range before must end exactly there. A range that guessed wrong (its
 * start was inside a quoted field with line breaks), that could not finish its last
 * record, or whose worker failed, is rewritten again in this thread from where the range
 * before really ended. So is a range whose first local time in the hour a zone repeats
 * came before any other time of its column (the reading of that hour follows the row
 * order: summer time until the clock goes back, `TimeWriter`), read again knowing the
 * last instant of the rows before it.
 */
import { stat } from 'node:fs/promises';
import { runOrdered, startWorkers } from '../../values/index.js';
import { threadsOf } from './check-parallel.js';
import type { NormalizeCounts, NormalizePlan } from './normalize-plan.js';
import {
  forgetRangeWriter,
  Output,
  type RangeInput,
  type RangeRewritten,
  type Rewriting,
  type RowRange,
  rewriteHead,
  rewriteRange,
  writeAll,
} from './normalize-records.js';
import type { TimeWriter } from './normalize-times.js';
import type { ScanBuffers } from './scan.js';

const MiB = 1024 * 1024;

/**
 * The bytes of a range. Small, so that the output waiting to be written stays small (two
 * results a thread); large beside what a range costs to start (a guess of its first record
 * reads 64 KiB).
 */
const RANGE_BYTES = 2 * MiB;

/**
 * Files from this size are shared by threads (when `jobs` allows). A worker's start (its
 * thread and modules, about 0.3 s on 2 cores) is paid on the other core while this thread
 * rewrites the first ranges, so little is lost below it, but nothing is won either.
 */
const SHARED_FROM_BYTES = 32 * MiB;

/**
 * Threads a normalize of `size` bytes takes: the cores unless `jobs` asks for fewer; one
 * for a small file, unless it is to be `shared` whatever its size (tests).
 */
export function normalizeThreads(size: number, jobs: number | undefined, shared = false): number {
  return size < SHARED_FROM_BYTES && !shared ? 1 : threadsOf(jobs);
}

/** Options of a shared rewrite: the threads, and (tests) the bytes of a range and of a read. */
export interface SharedRewrite extends Rewriting {
  jobs: number;
  rangeBytes?: number;
  chunkSize?: number;
}

/**
 * The record path on `r.jobs` threads: the head in this thread, then the data rows in
 * ranges. Returns the bytes written to `fd`.
 */
export async function rewriteRecordsShared(
  input: string,
  fd: number,
  plan: NormalizePlan,
  r: SharedRewrite,
): Promise<number> {
  const size = (await stat(input)).size;
  const head = new Output(fd, 64 * 1024);
  const read = await rewriteHead(input, head, plan, r);
  head.flush();
  if (read.atEnd) return head.written;
  const rangeInput: RangeInput = {
    path: input,
    plan,
    header: read.header,
    readings: r.times.map((t) => t?.readingOf),
    chunkSize: r.chunkSize,
  };
  const join = new Join(fd, r, read.rows, read.endOffset);
  const buffers: ScanBuffers = {};
  const here = (range: RowRange) => rewriteRange(range, rangeInput, { buffers });
  try {
    await runOrdered<RowRange, RangeRewritten>({
      pool: startWorkers(new URL('./normalize-worker.js', import.meta.url), r.jobs - 1),
      input: rangeInput,
      parts: rangesOf(read.endOffset, size, r.rangeBytes ?? RANGE_BYTES, join.spare),
      transfer: (range) => (range.buffer ? [range.buffer] : []),
      here,
      async onResult(result, range) {
        const sure = await join.checked(result, (lasts) =>
          rewriteRange({ ...range, start: join.expected, exact: true }, rangeInput, {
            lasts,
            buffers,
          }),
        );
        join.write(sure);
        r.onProgress?.(Math.min(size, sure.endOffset), size);
      },
    });
  } finally {
    forgetRangeWriter();
  }
  return head.written + join.written;
}

/**
 * Ranges of `bytes` from `from` to `size`, the first at a known record start; each made
 * when a thread is free for it, with a buffer from `spare` when one is there.
 */
function* rangesOf(
  from: number,
  size: number,
  bytes: number,
  spare: ArrayBuffer[],
): Generator<RowRange> {
  for (let at = from; at < size; at += bytes)
    yield {
      start: at,
      exact: at === from,
      stopAt: Math.min(size, at + bytes),
      buffer: spare.pop(),
    };
}

/** Output buffers kept for the next ranges: about the ranges in flight and waiting. */
const SPARE_BUFFERS = 6;

/** Writes the ranges' output in file order, and adds up what they counted. */
class Join {
  written = 0;
  /** Buffers of output written, for the next ranges (RowRange.buffer). */
  readonly spare: ArrayBuffer[] = [];
  /** Where the next range must start: just past the records written. */
  expected: number;
  /** Records before the next range (its rows are counted from its first). */
  private rows: number;

  constructor(
    private readonly fd: number,
    private readonly r: Rewriting,
    rows: number,
    start: number,
  ) {
    this.rows = rows;
    this.expected = start;
  }

  /**
   * The range's result when it follows the rows written, else the range rewritten again
   * in this thread by `again`, with each time column's last instant.
   */
  async checked(
    result: RangeRewritten,
    again: (lasts: number[]) => Promise<RangeRewritten>,
  ): Promise<RangeRewritten> {
    const lasts = this.r.times.map((t) => t?.last ?? Number.NEGATIVE_INFINITY);
    const unsure = result.times.some((t, i) => t?.unsure && lasts[i] !== Number.NEGATIVE_INFINITY);
    const follows = result.start === this.expected && result.finished;
    if (follows && !unsure) return result;
    return again(lasts);
  }

  /** Writes a range that follows the rows written, and notes what it counted. */
  write(part: RangeRewritten): void {
    const out = part.output;
    this.written += writeAll(this.fd, out, 0, out.byteLength);
    const buffer = out.buffer;
    if (buffer instanceof ArrayBuffer && this.spare.length < SPARE_BUFFERS) this.spare.push(buffer);
    addCounts(this.r.counts, part.counts);
    part.times.forEach((noted, i) => {
      const t = this.r.times[i];
      if (noted && t) addNoted(t, noted, this.rows);
    });
    this.rows += part.rows;
    this.expected = part.endOffset;
  }
}

function addCounts(into: NormalizeCounts, part: NormalizeCounts): void {
  for (const key of Object.keys(into) as Array<keyof NormalizeCounts>) into[key] += part[key];
}

/** A range's notes of a time column added to the column's writer; its rows shifted by `base`. */
function addNoted(t: TimeWriter, noted: RangeRewritten['times'][number] & object, base: number) {
  for (const row of noted.repeated) t.repeated.push(base + row);
  const c = noted.contradicted;
  if (c.first && !t.contradicted.first)
    t.contradicted.first = { row: base + c.first.row, date: c.first.date };
  t.contradicted.count += c.count;
  if (noted.last !== Number.NEGATIVE_INFINITY) t.last = noted.last;
}
