/**
 * `check --full` of a TDMS file on several cores: the file's segments are cut into ranges
 * (a few a thread, of as many segments each), worker threads read the values of each range
 * (worker.ts: the same walk of the metadata, the raw data of its segments only) into
 * tallies of their own, and this thread joins the tallies range after range in file order
 * (tally-merge.ts) into those of one read: the same counts, the same first rows, the same
 * chunks not read, in the same order. Memory: a worker reads one block (1 MiB) at a time
 * and sends back tallies; a range's result is a few numbers a channel.
 */

import type { TdmsConfig } from '../../model/index.js';
import type { ChannelTally, TimeState } from '../../values/index.js';
import {
  joinChannelPart,
  joinTimePart,
  runOrdered,
  shareOf,
  startWorkers,
  type TimePart,
  type WorkerPool,
} from '../../values/index.js';
import type { TdmsProfile, TdmsUnread } from './inspect.js';
import { keepFirstUnread } from './raw-segment.js';
import type { WalkStart } from './walk-starts.js';

/** What every worker gets: the file and what the read is planned from. */
export interface TdmsPartInput {
  path: string;
  config: TdmsConfig;
  key: string;
  profile: TdmsProfile;
  /** Where a part may begin its walk (walk-starts.ts WalkStart); without, a part walks from the first segment. */
  starts?: WalkStart[] | undefined;
  /** Bytes read at once (raw.ts; default 1 MiB): small in tests, to overwrite reused buffers often. */
  blockBytes?: number;
}

/** A range of segments, [from, to), numbered from 1. */
export type SegmentRange = [number, number];

/** One channel's values read in a range: its tallies' parts, and the segment of each first row. */
export interface ReadPart {
  /** The index of the first value read, and of the value after the last (none read: no first). */
  first?: number;
  next: number;
  tallies: Array<{ time: TimePart } | { channel: ChannelTally }>;
  segments: Array<[number, number]>;
}

/** A range's result: the parts of each read (as planned, in order) and what was not read. */
export interface TdmsPart {
  reads: ReadPart[];
  unread: TdmsUnread[];
  /** Bytes of the file walked, for the progress. */
  end: number;
}

/** A read of this thread that the parts are joined into (formats/tdms/values.ts `Read`). */
interface JoinedRead {
  next: number;
  segments: Map<number, number>;
  tallies: Array<{ time?: TimeState; result: object }>;
}

/**
 * The `jobs - 1` workers of a read (this thread is the other job), started before the file
 * is inspected: they load while its metadata is walked (bench/check-tdms's 1 GB: about
 * 50 ms of a 0.4 s check at 2 jobs, of a worker's 100 to 200 ms load).
 */
export function startTdmsWorkers(jobs: number): WorkerPool {
  return startWorkers(new URL('./worker.js', import.meta.url), jobs - 1);
}

/**
 * Reads the values of `reads` in `jobs` worker threads (`pool`, started early, or new ones)
 * and joins their tallies into them; returns what was not read. `here` reads a range in
 * this thread (a worker failed). The pool is closed when the read ends.
 */
export async function readTdmsParts(
  input: TdmsPartInput & { jobs: number },
  reads: readonly JoinedRead[],
  here: (range: SegmentRange) => Promise<TdmsPart>,
  onProgress: ((done: number, total: number) => void) | undefined,
  pool?: WorkerPool,
): Promise<TdmsUnread[]> {
  const { jobs, ...partInput } = input;
  const unread = new Map<string, TdmsUnread>();
  const size = input.profile.file.size;
  await runOrdered<SegmentRange, TdmsPart>({
    pool: pool ?? startTdmsWorkers(jobs),
    input: partInput,
    parts: segmentRanges(input.profile.segments, jobs, input.starts),
    here,
    onResult(part) {
      for (const [i, p] of part.reads.entries()) joinRead(reads[i] as JoinedRead, p);
      // As one read notes them: the first of each channel and kind, in the order met.
      for (const u of part.unread) keepFirstUnread(unread, u);
      onProgress?.(Math.min(size, part.end), size);
    },
  });
  return [...unread.values()];
}

/**
 * Ranges covering segments 1 to `segments` for `jobs` threads, each beginning where a walk
 * may begin (`starts`; any segment without them). Each takes a share of the segments left:
 * half of them split evenly between the threads, down to a sixteenth of a thread's even
 * share. The ranges shrink towards the end of the file, so the threads finish close
 * together (as the CSV ranges and the Parquet runs do). Without starts, each range walks
 * every segment before it, and four even ranges a thread keep those walks few.
 */
export function segmentRanges(
  segments: number,
  jobs: number,
  starts?: readonly WalkStart[],
): SegmentRange[] {
  if (!starts) return evenRanges(segments, 4 * jobs);
  const cuts = starts.map((s) => s.segment).filter((s) => s > 1 && s <= segments);
  const least = Math.max(1, Math.floor(segments / (16 * jobs)));
  const ranges: SegmentRange[] = [];
  let from = 1;
  let c = 0;
  while (from <= segments) {
    const left = segments - from + 1;
    const want = from + shareOf(left, jobs, least);
    while (c < cuts.length && (cuts[c] as number) < want) c += 1;
    const to = cuts[c] ?? segments + 1;
    ranges.push([from, to]);
    from = to;
  }
  return lastToTheEnd(ranges);
}

/** `count` ranges of about as many segments each, covering segments 1 to `segments`. */
function evenRanges(segments: number, count: number): SegmentRange[] {
  const n = Math.max(1, Math.min(segments, count));
  const at = (k: number) => 1 + Math.floor((k * segments) / n);
  return lastToTheEnd(Array.from({ length: n }, (_, k): SegmentRange => [at(k), at(k + 1)]));
}

/** The last range runs past the last segment: an unfinished segment's data to the end. */
function lastToTheEnd(ranges: SegmentRange[]): SegmentRange[] {
  const last = ranges.at(-1);
  if (last) last[1] = Number.MAX_SAFE_INTEGER;
  return ranges;
}

/** A range's part of one channel's read, joined to the parts before it. */
function joinRead(read: JoinedRead, part: ReadPart): void {
  if (part.first === undefined) return;
  // Values left unread between the parts: one read compares nothing across them either.
  const joined = part.first === read.next;
  part.tallies.forEach((p, i) => {
    const t = read.tallies[i];
    if (!t) return;
    if ('time' in p && t.time) joinTimePart(t.time, p.time, joined, 0);
    else if ('channel' in p) joinChannelPart(t.result as ChannelTally, p.channel, 0);
  });
  for (const [row, segment] of part.segments) {
    if (!read.segments.has(row)) read.segments.set(row, segment);
  }
  read.next = part.next;
}
