/**
 * A range of rows of one part (a time dataset, or a channel's values) read and tallied in
 * an HDF5 thread, for `check --full` with several jobs (jobs.ts): the thread reads the range
 * a slice at a time, feeds each slice to a tally of the range's own, and answers only the
 * tally, a few numbers, never the values. The tally counts rows as one read of the whole
 * part does (rows from the range's first, 1-based, as values.ts feeds them), and a time
 * tally says which value of the range no value before it was compared with (its head), so
 * that the ranges join, in order, into the tally of one read (values/tally-merge.ts).
 */

import type { TimeFormat } from '../../model/index.js';
import {
  arrayChunk,
  type ChannelTally,
  type Chunk,
  channelJudge,
  HeadWatch,
  type JudgedChannel,
  newTimeState,
  type TimePart,
  tallyTime,
} from '../../values/index.js';
import {
  asJobResult,
  type H5Module,
  type Hdf5Target,
  type JobResult,
  readSliceRange,
  type SliceRequest,
  type SliceValues,
} from './reader.js';

/** Rows [slice.start, slice.end) of one part, read `step` rows at a time, tallied as `judge` says. */
export interface TallyRequest {
  slice: SliceRequest;
  step: number;
  /** A time dataset (with its format: text times are read in it), or a channel's values. */
  judge: { time: true; format?: TimeFormat | undefined } | { channel: JudgedChannel };
}

/** A range's tally, and where the library failed on it, if it did (rows from there unread). */
export interface RangeTally {
  time?: TimePart;
  channel?: ChannelTally;
  unread?: { from: number; error: string };
}

export type TallyJob = Hdf5Target & { kind: 'tally'; request: TallyRequest };

/** A slice's values as a piece the tallies take. */
export function chunkOf(values: SliceValues['values']): Chunk {
  if (Array.isArray(values)) return arrayChunk(values);
  return { length: values.length, numbers: values };
}

/** Runs a tally job on the file at `path` in the thread (never throws, as `runHdf5Job`). */
export function runTallyJob(
  h5: H5Module,
  path: string,
  job: TallyJob,
  progress: (done: number) => void,
): JobResult<RangeTally> {
  const r = job.request;
  return asJobResult((): RangeTally => {
    if ('time' in r.judge) {
      const state = newTimeState(r.judge.format);
      const watch = new HeadWatch();
      const unread = readSliceRange(
        h5,
        path,
        r.slice,
        r.step,
        (values, start) => {
          watch.after(state, tallyTime(state, chunkOf(values), start), start);
        },
        progress,
      );
      return { time: watch.part(state), ...(unread ? { unread } : {}) };
    }
    const judge = channelJudge(r.judge.channel);
    const unread = readSliceRange(
      h5,
      path,
      r.slice,
      r.step,
      (values, start) => judge.tally(chunkOf(values), start),
      progress,
    );
    return { channel: judge.result, ...(unread ? { unread } : {}) };
  });
}
