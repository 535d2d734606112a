/**
 * TDMS raw data: the values of chosen channels, for the row reader of the preview and the
 * value findings of the check. One walk over the segments (the same walk inspection does);
 * in each segment, the layout of its raw data (chunks holding each object's values one
 * after another, or interleaved rows) says where each wanted value lies. Small chunks (and
 * interleaved rows) are read a block of about 1 MiB at a time, each block once for every
 * channel wanted in it, and only blocks holding wanted values are read; in larger chunks
 * only the wanted values are read, at most 1 MiB (and 65,536 values) a read. Memory holds
 * one block and the values decoded from it. Values come in file order, per channel, with the
 * segment they are in and their index among the channel's values.
 *
 * A string chunk's end offsets are checked against the chunk before any text is decoded:
 * offsets that go backwards or past the chunk make it invalid (reported, its values left
 * out), never a read of the rest of the file. DAQmx raw data, `extended` floats and
 * fixed-point values are not decoded (the platform's own reader skips DAQmx channels): such
 * a channel gets no values and is reported once.
 */
import { type ByteSource, readAheadSource } from '../../inspect/shared.js';
import { type ObjectState, valueSize } from './active.js';
import { decodable, Scratch } from './decode.js';
import type { RawIndex } from './metadata.js';
import {
  type Job,
  type Place,
  type ReadState,
  readSegment,
  type TdmsUnread,
  type TdmsValueRequest,
  type TdmsValuesHandler,
  unreadOnce,
} from './raw-segment.js';
import { type RawSegment, walkSegments } from './segments.js';
import type { WalkStart } from './walk-starts.js';

export type { TdmsTypedValues, TdmsValues } from './decode.js';
export type {
  TdmsUnread,
  TdmsValueRequest,
  TdmsValuesAt,
  TdmsValuesHandler,
} from './raw-segment.js';

export interface TdmsValueOptions {
  /** Progress in bytes of the file. */
  onProgress?: ((done: number, total: number) => void) | undefined;
  /**
   * Only the raw data of segments [from, to) (numbered from 1), as if the values of the
   * others were not wanted: a part of a read split over threads. The values keep their
   * index among all of the channel's values.
   */
  segments?: readonly [number, number] | undefined;
  /**
   * Where the walk begins (at segment `from` of `segments`, or before it): the segments
   * before it are not walked again, the values they hold counted from the start.
   */
  start?: WalkStart | undefined;
  /**
   * Every value of the file is read (a full check): small reads are served from windows
   * read ahead (readAheadSource), a segment's lead-in, metadata and raw data one read when
   * segments are small.
   */
  readAhead?: boolean | undefined;
  /**
   * The walk stops once every range of every request is read (a piece of a sampled read,
   * read-pieces.ts).
   */
  stopWhenRead?: boolean | undefined;
  /**
   * Bytes read at once (default 1 MiB): tests read in small blocks, so that a source whose
   * buffers are reused is overwritten many times a segment.
   */
  blockBytes?: number | undefined;
}

/** Thrown past the last segment wanted: the walk stops there. */
const PAST = Symbol('past the segments wanted');

/** Bytes read at once: a block of small chunks, or a part of a large one. */
const BLOCK_BYTES = 1024 * 1024;

/** Reads the wanted values of each request; returns what could not be read. */
export async function readTdmsSourceValues(
  source: ByteSource,
  requests: readonly TdmsValueRequest[],
  onValues: TdmsValuesHandler,
  options: TdmsValueOptions = {},
): Promise<TdmsUnread[]> {
  const data = options.readAhead ? readAheadSource(source) : source;
  const byPath = new Map<string, number[]>();
  requests.forEach((r, i) => {
    byPath.set(r.path, [...(byPath.get(r.path) ?? []), i]);
  });
  const read: ReadState = {
    data,
    requests,
    onValues,
    cursor: requests.map(() => 0),
    unread: new Map(),
    progress: options.onProgress,
    block: Math.max(1, Math.floor(options.blockBytes ?? BLOCK_BYTES)),
    scratch: new Scratch(),
  };
  const plans: Plans = { byPath };
  const [from, to] = options.segments ?? [1, Number.POSITIVE_INFINITY];
  try {
    await walkSegments(data, {
      start: options.start,
      onProgress: options.onProgress,
      onRawData: async (segment) => {
        if (segment.segment >= to) throw PAST;
        // The walk counts the values of the segments before `from` (ObjectState.seen).
        if (segment.segment < from) return;
        const jobs = jobsOf(read, segment, plans);
        if (jobs.length > 0) await readSegment(read, segment, jobs);
        if (options.stopWhenRead && allRead(read)) throw PAST;
      },
    });
  } catch (err) {
    if (err !== PAST) throw err;
  }
  return [...read.unread.values()];
}

/** Whether every request's ranges are behind the read (its cursor past the last). */
function allRead(read: ReadState): boolean {
  return read.requests.every((r, i) => (read.cursor[i] ?? 0) >= r.ranges.length);
}

/** The jobs of a segment, in the order of their places; notes what cannot be read. */
function jobsOf(read: ReadState, segment: RawSegment, plans: Plans): Job[] {
  const jobs: Job[] = [];
  for (const o of planOf(segment, plans)) {
    if (!o.wanted) continue;
    // The walk has counted this segment's values already.
    const base = o.state.seen - o.count;
    if (o.why !== undefined || !o.place) {
      unreadOnce(read, o.path, 'undecoded', o.why ?? 'its raw data cannot be laid out', segment);
      continue;
    }
    for (let k = 0; k < o.wanted.length; k++) {
      const r = o.wanted[k] as number;
      const ranges = rangesIn(read, r, base, base + o.count, o.whole);
      if (ranges.length === 0) continue;
      // Every value: the plan's job, its base moved on (a segment's jobs are done with
      // before the next segment's are made).
      const job = ranges === o.whole ? o.wholeJobs[k] : undefined;
      if (job) job.base = base;
      jobs.push(job ?? { place: o.place, r, base, ranges });
    }
  }
  return jobs;
}

/** The requests of each object by path, and the plan of the last segment's objects. */
interface Plans {
  byPath: Map<string, number[]>;
  last?: { objects: RawSegment['objects']; interleaved: boolean; plan: ObjectPlan[] };
}

/** What `jobsOf` needs of one object of a segment: its values, its place, who wants them. */
interface ObjectPlan {
  path: string;
  count: number;
  /** The object's state in the walk: its values so far (`seen`). */
  state: ObjectState;
  wanted: number[] | undefined;
  place: Place | undefined;
  why: string | undefined;
  /** Every value of the object here, [0, count): the ranges of a request that wants them all. */
  whole: ReadonlyArray<readonly [number, number]>;
  /** For each request in `wanted`, the job of every value here (its base set each segment). */
  wholeJobs: Job[];
}

/**
 * The plan of a segment's objects: that of the segment before when the walk hands over the
 * same objects (it does while the object list and the raw data stay as they are), else made
 * anew. A logger that repeats a list of 5,000 objects in every segment had each object's
 * place and requests looked up by path again in every segment.
 */
function planOf(segment: RawSegment, plans: Plans): ObjectPlan[] {
  const { byPath, last } = plans;
  if (last?.objects === segment.objects && last.interleaved === segment.interleaved) {
    return last.plan;
  }
  const { places, unreadable } = layoutOf(segment);
  const plan = segment.objects.map((o): ObjectPlan => {
    const wanted = byPath.get(o.path);
    const place = places.get(o.path);
    const whole: ObjectPlan['whole'] = [[0, o.count ?? 0]];
    return {
      path: o.path,
      count: o.count ?? 0,
      state: o.state,
      wanted,
      place,
      why: wanted && (unreadable ?? (place ? undefined : whyNot(o.index))),
      whole,
      wholeJobs: place ? (wanted ?? []).map((r) => ({ place, r, base: 0, ranges: whole })) : [],
    };
  });
  plans.last = { objects: segment.objects, interleaved: segment.interleaved, plan };
  return plan;
}

function whyNot(index: RawIndex): string {
  if (index.kind === 'daqmx') return 'DAQmx raw data is not decoded by importkit';
  const code = index.kind === 'plain' ? index.typeCode : 0;
  if (code === 0x0b || code === 0x1b) return 'extended (80-bit) floats are not decoded';
  if (code === 0x4f) return 'fixed-point values are not decoded';
  return `type 0x${code.toString(16)} is not decoded`;
}

/**
 * The parts of a request's ranges inside [from, to), from `from`, advancing its cursor:
 * `whole` (the same array each time) when one range holds them all.
 */
function rangesIn(
  read: ReadState,
  r: number,
  from: number,
  to: number,
  whole: ReadonlyArray<readonly [number, number]>,
): ReadonlyArray<readonly [number, number]> {
  const out: Array<[number, number]> = [];
  const ranges = (read.requests[r] as TdmsValueRequest).ranges;
  let i = read.cursor[r] ?? 0;
  while (i < ranges.length) {
    const [s, e] = ranges[i] as readonly [number, number];
    if (e <= from) {
      i += 1;
      continue;
    }
    if (s >= to) break;
    if (out.length === 0 && s <= from && e >= to) {
      read.cursor[r] = e > to ? i : i + 1;
      return whole;
    }
    out.push([Math.max(s, from) - from, Math.min(e, to) - from]);
    if (e > to) break;
    i += 1;
  }
  read.cursor[r] = i;
  return out;
}

/**
 * The places of a segment's objects with values; `unreadable` when the segment's layout
 * cannot be known (DAQmx data beside plain data, interleaved strings, unknown sizes).
 */
function layoutOf(segment: RawSegment): { places: Map<string, Place>; unreadable?: string } {
  const places = new Map<string, Place>();
  let at = 0;
  for (const o of segment.objects) {
    const index = o.index;
    if (index.kind === 'daqmx') {
      return { places, unreadable: 'DAQmx raw data is not decoded by importkit' };
    }
    if (index.kind !== 'plain') continue;
    const isString = index.typeCode === 0x20;
    const size = valueSize(index);
    if (segment.interleaved && isString) {
      return { places, unreadable: 'interleaved strings cannot be laid out' };
    }
    if (!isString && size === undefined) {
      return { places, unreadable: `type 0x${index.typeCode.toString(16)} has no known size` };
    }
    const bytes = isString ? (index.byteCount ?? 0) : (size ?? 0) * index.valueCount;
    const perUnit = segment.interleaved ? 1 : index.valueCount;
    const place: Place = {
      path: o.path,
      index,
      count: o.count ?? 0,
      offset: at,
      perUnit,
      interleaved: segment.interleaved,
      size: size ?? 0,
      bytes,
    };
    if (isString || decodable(index.typeCode)) places.set(o.path, place);
    at += segment.interleaved ? (size ?? 0) : bytes;
  }
  return { places };
}
