/**
 * A worker thread of a parallel ULog `check --full` (check-jobs.ts): it gets the file and
 * what its parts are read for once, then reads each range of messages it is sent and posts
 * the result back, reading the file with blocking reads. A read's ranges are of one kind:
 * the inspection walk's (scan-jobs.ts: counts and kept messages), the GPS search's after it
 * (the first time), or the values' (tallies).
 */
import { blockingFileSource, serveParts } from '../../values/index.js';
import type { UlogPartInput, UlogRange } from './check-jobs.js';
import { readUlogPart } from './check-values.js';
import type { GpsStretch } from './scan-gps.js';
import {
  scanUlogRangeOf,
  searchGpsOf,
  type UlogGpsInput,
  type UlogScanInput,
  type UlogScanRange,
} from './scan-jobs.js';

/** The two read buffers, kept from one part to the next. */
const turns: Uint8Array[] = [];
type Input = UlogPartInput | UlogScanInput | UlogGpsInput;
serveParts(async (range: UlogRange | UlogScanRange | GpsStretch, input: Input) => {
  // The walk holds one window at a time: two read buffers can take turns. Its reads are
  // done in the call: nothing is gained reading ahead.
  const source = blockingFileSource(input.path, turns);
  try {
    if ('scan' in input) return await scanUlogRangeOf(source, range as UlogScanRange);
    if ('gps' in input) return await searchGpsOf(source, input, range as GpsStretch);
    return await readUlogPart(source, input, range as UlogRange, false);
  } finally {
    await source.close();
  }
});
