/**
 * A worker thread of a parallel TDMS `check --full` (jobs.ts): it gets the file and
 * the read's plan once, then reads each range of segments it is sent into tallies of their
 * own and posts them back, reading the file with blocking reads.
 */
import { blockingFileSource, serveParts } from '../../values/index.js';
import type { SegmentRange, TdmsPartInput } from './jobs.js';
import { readTdmsPart } from './values.js';

/** The two read buffers, kept from one part to the next. */
const turns: Uint8Array[] = [];
serveParts(async (range: SegmentRange, input: TdmsPartInput) => {
  // Two read buffers take turns: a block's bytes are decoded and tallied before the read
  // after next (the metadata parsed before its raw data is read; strings copied out of their
  // bytes; a tally keeps numbers, never a view), which spares a new 1 MiB buffer a block.
  const source = blockingFileSource(input.path, turns);
  try {
    return await readTdmsPart(source, input, range);
  } finally {
    await source.close();
  }
});
