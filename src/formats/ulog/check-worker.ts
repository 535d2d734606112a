/**
 * A worker thread of a parallel ULog `check --full` (check-jobs.ts): it gets the file and
 * what the plan of its values is made of once, then walks each range of messages it is
 * sent into tallies of their own and posts them back, reading the file with blocking reads.
 */
import { blockingFileSource, serveParts } from '../../values/index.js';
import type { UlogPartInput, UlogRange } from './check-jobs.js';
import { readUlogPart } from './check-values.js';

/** The two read buffers, kept from one part to the next. */
const turns: Uint8Array[] = [];
serveParts(async (range: UlogRange, input: UlogPartInput) => {
  // The walk holds one window at a time: two read buffers can take turns. Its reads are
  // done in the call: nothing is gained reading ahead.
  const source = blockingFileSource(input.path, turns);
  try {
    return await readUlogPart(source, input, range, false);
  } finally {
    await source.close();
  }
});
