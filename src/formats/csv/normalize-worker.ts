/**
 * A worker thread of a parallel `normalize` (normalize-parallel.ts): it gets the file and
 * the plan once, then rewrites each range of data rows it is sent into a buffer of its own
 * and posts the buffer back (moved, not copied), reading the file with blocking reads.
 */
import { serveParts } from '../../values/index.js';
import { type RangeInput, type RowRange, rewriteRange } from './normalize-records.js';
import type { ScanBuffers } from './scan.js';

/** The read window, kept from one range to the next (the output is copied out of it). */
const buffers: ScanBuffers = {};
serveParts(
  (range: RowRange, input: RangeInput) => rewriteRange(range, input, { buffers, syncReads: true }),
  (result) => [result.output.buffer as ArrayBuffer],
);
