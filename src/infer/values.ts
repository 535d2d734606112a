/**
 * How much of the values a draft imports infer reads, so that its draft gets no value
 * finding from `check` or `check --full` it did not report itself. A file up to
 * READ_WHOLE_BYTES is read whole: a few MB of values take milliseconds, and a finding in
 * the middle of a small dataset (one NaN time) is then infer's too, not only `--full`'s.
 * A larger file is read as check's sampled mode reads it (the first and last SAMPLE_ROWS
 * of each dataset or channel), unless the `full` option asks for every value.
 */
import type { InferOptions } from './types.js';

const READ_WHOLE_BYTES = 4 * 1024 * 1024;

/** Rows read from each end of each dataset of a file infer does not read whole. */
export const SAMPLE_ROWS = 10_000;

/** Whether infer reads every value of a file of `size` bytes. */
export function readsWhole(size: number, options: InferOptions): boolean {
  return options.full === true || size <= READ_WHOLE_BYTES;
}
