/**
 * The inspection walk of a ULog data part shared by threads, for `check --full` on several
 * cores (check.ts): the part is cut into byte ranges near message boundaries, this thread
 * and the workers (check-worker.ts) walk the ranges (scan-range.ts), and the walk takes the
 * ranges in file order (`UlogWalker.takeRange`) into what one walk over the part finds.
 *
 * The subscriptions are what the walk is for, so a cut cannot check data messages against
 * them: it looks for 16 messages in a row of known types that fit in the part. The join
 * checks each cut: a range must start exactly where the walk of the range before stopped,
 * and one that does not is walked again in this thread from there. What only one walk
 * decides (`UlogWalker.inexact`: a format in the data section, which the format does not
 * allow) sends the inspection back to one walk (inspect.ts); a part too small to share is
 * walked in this thread. The first GPS time is looked for once the ranges are joined
 * (scan-gps.ts says why): in the range of the first subscription to a GPS message here,
 * then, when it has none, in the ranges after it by the threads, each from the GPS
 * subscriptions at its start. A 1 GB log whose GPS never has a fix: the search in one thread
 * made the two-job walk 0.50-0.54 s, about one walk's time; shared, 0.38-0.40 s.
 * Memory: a range's result is its counts by msg_id and the few messages it keeps.
 *
 * bench/ulog's 1 GB (21 M messages), the inspection alone, in one process after a first run
 * of each: one walk 0.52-0.56 s, two jobs 0.27-0.29 s. `check --full` at two jobs went from
 * 1.22x one job's speed to 1.38-1.74x (six alternated pairs, median 1.62x).
 */
import { readThroughTurns, runOrdered, type WorkerPool } from '../../values/index.js';
import { boundary } from './data.js';
import { ChunkReader } from './reader.js';
import type { UlogWalker } from './scan.js';
import { type GpsStretch, type GpsTimeFields, gpsTimeFields, searchGps } from './scan-gps.js';
import type { UlogGpsFix, UlogScan } from './scan-model.js';
import { scanUlogRange, type UlogRangeScan } from './scan-range.js';

/** Ranges a thread, and the least bytes a range (as check-jobs.ts cuts the values' ranges). */
const RANGES_A_JOB = 8;
const LEAST = 4 << 20;

/** The threads of a walk: the workers, the file they read, how many jobs and ranges. */
export interface SharedWalk {
  pool: WorkerPool;
  path: string;
  jobs: number;
  /** The least bytes a range (tests cut small files into many). */
  least?: number | undefined;
}

/** A range of a part, as the workers get it. */
export interface UlogScanRange {
  start: number;
  end: number;
  partEnd: number;
}

/** What every worker gets before its ranges: the file (`scan` tells it from the values' input). */
export interface UlogScanInput {
  path: string;
  scan: true;
}

/** What every worker gets before the stretches of a GPS search: the file, the GPS messages. */
export interface UlogGpsInput {
  path: string;
  gps: GpsTimeFields;
}

/**
 * Walks the data parts (each [start, end), in file order) in ranges shared by the threads,
 * takes them into `walker`, then looks for the first GPS time (scan-gps.ts). Returns where
 * each part's walk stopped, or undefined when only one walk decides (`walker.inexact`).
 */
export async function walkPartsInRanges(
  walker: UlogWalker,
  reader: ChunkReader,
  parts: ReadonlyArray<readonly [number, number]>,
  shared: SharedWalk,
  onProgress: ((done: number, total: number) => void) | undefined,
): Promise<number[] | undefined> {
  const stops: number[] = [];
  // Each range (or part walked here) with the GPS subscriptions at its start, in file order.
  const stretches: GpsStretch[] = [];
  let ranged = false;
  for (const [s, e] of parts) {
    const cuts = await cutsOf(reader, s, e, shared);
    const progress = (at: number) => onProgress?.(at, reader.size);
    let stop: number;
    if (cuts.length > 1) stop = await walkRanges(walker, cuts, shared, stretches, progress);
    else {
      // A part too small to share is walked here, as one walk does.
      const probes = walker.gpsProbes();
      stop = await walker.walk(s, e);
      stretches.push({ start: s, until: stop, partEnd: e, probes });
    }
    if (walker.inexact) return undefined;
    ranged ||= cuts.length > 1;
    stops.push(stop);
  }
  if (!ranged) return stops;
  const scan = walker.scan;
  orderByOffset(scan);
  // Looked for from the first GPS subscription on, whatever a part walked here found.
  const from = walker.gpsFrom;
  if (from !== undefined) {
    const wanted = stretches.filter((x) => x.until > from);
    const gps = await firstGpsTime(reader, wanted, gpsTimeFields(scan.formats), shared);
    if (gps) scan.gps = gps;
    else delete scan.gps;
  }
  return stops;
}

/**
 * The first GPS time of `stretches` (in file order): the first is searched here (the time
 * is most often in the first GPS messages), the others by the threads when it has none.
 */
async function firstGpsTime(
  reader: ChunkReader,
  stretches: GpsStretch[],
  fields: GpsTimeFields,
  shared: SharedWalk,
): Promise<UlogGpsFix | undefined> {
  const [first, ...rest] = stretches;
  const here = first && (await searchGps(reader, first, fields));
  if (here || rest.length === 0) return here;
  const input: UlogGpsInput = { path: shared.path, gps: fields };
  let found: UlogGpsFix | undefined;
  await runOrdered<GpsStretch, UlogGpsFix | undefined>({
    pool: shared.pool,
    input,
    parts: rest,
    here: (stretch) =>
      readThroughTurns(shared.path, (source) =>
        searchGps(new ChunkReader(source, { readAhead: false }), stretch, fields),
      ),
    close: false,
    onResult(result) {
      found ??= result ?? undefined;
    },
  });
  return found;
}

/** The ranges of one part walked by the threads and taken in; where the walk stopped. */
async function walkRanges(
  walker: UlogWalker,
  cuts: UlogScanRange[],
  shared: SharedWalk,
  stretches: GpsStretch[],
  onProgress: (at: number) => void,
): Promise<number> {
  const input: UlogScanInput = { path: shared.path, scan: true };
  const here = (range: UlogScanRange) => scanHere(input, range);
  // Where the walk of the ranges joined so far stopped; past a stop, the part is done.
  let at = (cuts[0] as UlogScanRange).start;
  let stopped = false;
  await runOrdered<UlogScanRange, UlogRangeScan>({
    pool: shared.pool,
    input,
    parts: cuts,
    here,
    close: false,
    async onResult(result, range) {
      onProgress(range.end);
      if (stopped || at >= range.end) return;
      const r = result.start === at ? result : await here({ ...range, start: at });
      const probes = walker.gpsProbes();
      stretches.push({ start: r.start, until: r.reached, partEnd: range.partEnd, probes });
      walker.takeRange(r);
      if (r.reached < range.end) stopped = true;
      at = r.reached;
    },
  });
  return at;
}

/** The ranges of [s, e): cut near even shares of it, at what looks like message boundaries. */
async function cutsOf(
  reader: ChunkReader,
  s: number,
  e: number,
  shared: SharedWalk,
): Promise<UlogScanRange[]> {
  const least = Math.max(1, shared.least ?? LEAST);
  const n = Math.max(1, Math.min(shared.jobs * RANGES_A_JOB, Math.floor((e - s) / least)));
  const out: UlogScanRange[] = [];
  let start = s;
  for (let k = 1; k < n; k++) {
    const cut = await boundary(reader, s + Math.floor((k * (e - s)) / n), e, undefined);
    if (cut <= start || cut >= e) continue;
    out.push({ start, end: cut, partEnd: e });
    start = cut;
  }
  out.push({ start, end: e, partEnd: e });
  return out;
}

/** A range walked in this thread, from a file of its own (the walk's reader keeps its window). */
function scanHere(input: UlogScanInput, range: UlogScanRange): Promise<UlogRangeScan> {
  return readThroughTurns(input.path, (source) =>
    scanUlogRange(new ChunkReader(source, { readAhead: false }), range),
  );
}

/** A range walked in a worker, from `source` (its blocking reads). */
export function scanUlogRangeOf(
  source: ConstructorParameters<typeof ChunkReader>[0],
  range: UlogScanRange,
): Promise<UlogRangeScan> {
  return scanUlogRange(new ChunkReader(source, { readAhead: false }), range);
}

/**
 * Puts the msg_ids without a subscription and those of sizes their format does not allow in
 * the order of their first messages, the order one walk finds them in.
 */
function orderByOffset(scan: UlogScan): void {
  const byOffset = <V extends { offset: number }>(m: Map<number, V>) =>
    new Map([...m].sort((a, b) => a[1].offset - b[1].offset));
  scan.unknownMsgIds = byOffset(scan.unknownMsgIds);
  scan.badSizes = byOffset(scan.badSizes);
}

/** A stretch of a GPS search in a worker, from `source` (its blocking reads). */
export function searchGpsOf(
  source: ConstructorParameters<typeof ChunkReader>[0],
  input: UlogGpsInput,
  stretch: GpsStretch,
): Promise<UlogGpsFix | undefined> {
  return searchGps(new ChunkReader(source, { readAhead: false }), stretch, input.gps);
}
