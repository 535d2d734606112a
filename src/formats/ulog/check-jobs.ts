/**
 * `check --full` of a ULog file on several cores: each data part (the data section, each
 * appended part) is cut into byte ranges at message boundaries, worker threads walk the
 * messages of each range (check-worker.ts) into tallies of their own, and this thread joins
 * the tallies range after range in file order (values/tally-merge.ts) into those of one
 * walk: the same counts, the same first messages, named by the same index and offset.
 *
 * A range starts where the messages of the 16 before it line up (`ulogBoundary`, the walk's
 * own resynchronisation); the join checks it: a range must start exactly where the walk of
 * the range before stopped. One that does not (a message across the cut, damage) is walked
 * again in this thread from where the range before stopped, and a walk that stopped short
 * (damage it could not get past) ends its part there, as one walk does. Memory: a worker
 * holds one 1 MiB window and a piece of a few thousand messages an axis; a range's result is
 * its tallies.
 */
import type { ByteSource } from '../../inspect/shared.js';
import type { UlogConfig } from '../../model/index.js';
import {
  type ChannelTally,
  joinChannelPart,
  joinTimePart,
  runOrdered,
  startWorkers,
  type TimePart,
  type TimeState,
  type WorkerPool,
} from '../../values/index.js';
import { type UlogProfile, type UlogSizes, ulogBoundary } from './inspect.js';

/** What every worker gets: the file and what the plan of the values is made of. */
export interface UlogPartInput {
  path: string;
  config: UlogConfig;
  key: string;
  profile: UlogProfile;
}

/** Messages [start, end) of the data part [partStart, partEnd) (the last one may run past `end`). */
export interface UlogRange {
  partStart: number;
  partEnd: number;
  start: number;
  end: number;
}

/** Where a message a finding names is (check-values.ts `Place`). */
interface MessagePlace {
  index: number;
  offset: number;
  time: string;
}

/** One axis read in a range: its tallies' parts, its messages, the places of its first findings. */
export interface AxisPart {
  time: TimePart;
  channels: ChannelTally[];
  /** Messages tallied, and its index count (NaN after a gap). */
  fed: number;
  index: number;
  places: Array<[number, MessagePlace]>;
}

/** A range's result: where its walk started and stopped, and each planned axis. */
export interface UlogPart {
  start: number;
  reached: number;
  axes: AxisPart[];
}

/** An axis of this thread's plan that the parts are joined into (check-values.ts `Axis`). */
interface JoinedAxis {
  state: TimeState;
  channels: Array<{ judge: { result: ChannelTally } }>;
  fed: number;
  index: number;
  places: Map<number, MessagePlace>;
}

/**
 * Ranges a thread, and the least bytes a range. At the end one thread reads the last range
 * while the others wait: half a range on average, 1/16 of the walk with 8 ranges for two
 * threads, 1/32 with 16. A range costs its start's search (a window read) and the plan made
 * again: milliseconds.
 */
const RANGES_A_JOB = 8;
const LEAST = 4 << 20;

/**
 * The `jobs - 1` workers of a read (this thread is the other job), started before the file
 * is inspected: they load while it is walked (bench/ulog's 1 GB: a worker took 200 ms to
 * load and walked its first range cold, while the inspection took 450 ms).
 */
export function startUlogWorkers(jobs: number): WorkerPool {
  return startWorkers(new URL('./check-worker.js', import.meta.url), jobs - 1);
}

/**
 * Reads every data part in this thread and the `pool`'s workers and joins their tallies
 * into `axes`; `here` walks a range in this thread (a worker failed, or the range's start
 * was wrong).
 */
export async function readUlogParts(
  input: UlogPartInput & { jobs: number; least?: number | undefined; pool: WorkerPool },
  source: ByteSource,
  axes: readonly JoinedAxis[],
  sizes: UlogSizes,
  here: (range: UlogRange) => Promise<UlogPart>,
  onProgress: ((done: number, total: number) => void) | undefined,
): Promise<void> {
  const { jobs, least, pool, ...partInput } = input;
  const parts = [input.profile.sections.data, ...input.profile.sections.appended];
  const total = parts.reduce((n, [s, e]) => n + e - s, 0);
  const ranges: UlogRange[] = [];
  for (const part of parts) {
    for (const range of await rangesOf(source, part, sizes, jobs, least ?? LEAST))
      ranges.push(range);
  }
  // Where the walk of the ranges joined so far stopped; past a stop, the part is done.
  let at = 0;
  let stopped = false;
  let done = 0;
  await runOrdered<UlogRange, UlogPart>({
    pool,
    input: partInput,
    parts: ranges,
    here,
    async onResult(result, range) {
      if (range.start === range.partStart) {
        at = range.start;
        stopped = false;
      }
      done += range.end - range.start;
      onProgress?.(done, total);
      if (stopped || at >= range.end) return;
      const part = result.start === at ? result : await here({ ...range, start: at });
      for (const [i, p] of part.axes.entries()) joinAxis(axes[i] as JoinedAxis, p);
      if (part.reached < range.end) stopped = true;
      at = part.reached;
    },
  });
}

/** A part's ranges, cut at message boundaries near even shares of it. */
async function rangesOf(
  source: ByteSource,
  [s, e]: readonly [number, number],
  sizes: UlogSizes,
  jobs: number,
  least: number,
): Promise<UlogRange[]> {
  const n = Math.max(1, Math.min(jobs * RANGES_A_JOB, Math.floor((e - s) / Math.max(1, least))));
  const out: UlogRange[] = [];
  let start = s;
  for (let k = 1; k < n; k++) {
    const cut = await ulogBoundary(source, s + Math.floor((k * (e - s)) / n), e, sizes);
    if (cut <= start || cut >= e) continue;
    out.push({ partStart: s, partEnd: e, start, end: cut });
    start = cut;
  }
  out.push({ partStart: s, partEnd: e, start, end: e });
  return out;
}

/** A range's part of one axis, joined to the parts before it (its rows and indexes after theirs). */
function joinAxis(axis: JoinedAxis, p: AxisPart): void {
  const shift = axis.fed;
  joinTimePart(axis.state, p.time, true, shift);
  p.channels.forEach((c, j) => {
    const mine = axis.channels[j];
    if (mine) joinChannelPart(mine.judge.result, c, shift);
  });
  for (const [row, place] of p.places) {
    if (!axis.places.has(row + shift)) {
      axis.places.set(row + shift, { ...place, index: axis.index + place.index });
    }
  }
  axis.fed += p.fed;
  axis.index += p.index;
}
