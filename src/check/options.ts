/** What every format's check is given: its options, and the shape of a format's check. */

import type { ByteSource } from '../inspect/shared.js';
import type { Issue } from '../model/plain.js';

export interface CheckOptions {
  /** Read every row (CSV), row group (Parquet), element (HDF5) or value (TDMS) instead of samples. */
  full?: boolean;
  /**
   * Progress of long reads: done of total (bytes for CSV and TDMS, members for a batch, rows
   * for the others).
   */
  onProgress?: (done: number, total: number) => void;
  /** HDF5: time limit of each read of the HDF5 library, in ms (default 60 000). */
  timeoutMs?: number;
  /** CSV: the delimiter (`,` `;` `\t` `|`) instead of detecting it. */
  delimiter?: string;
  /** CSV: the 1-based header row (0: none) instead of detecting it. */
  headerRow?: number;
  /**
   * `full` of a CSV, Parquet, TDMS or ULog file: threads, this one and workers (default: the
   * cores for CSV, 1 for the others; 1 reads in this thread; a Parquet read under 384 MiB
   * stays in this thread); of an HDF5 file, HDF5 threads
   * (default 1). A batch: members checked at once (default 2), sharing the jobs; a folder
   * of many members (256 or more) is shared by as many threads.
   */
  jobs?: number;
  /**
   * A folder of many members checked by several threads (`jobs`): start the workers only
   * once they pay for their start, this thread checking members alone until then (it
   * measures how fast it goes: a worker's start costs as much as hundreds of small members).
   * The CLI's default without `--jobs`; default false: they start at once.
   */
  threadsAsTheyPay?: boolean;
  /**
   * CSV and Parquet `full`: the largest range (Parquet: run of row groups) a thread reads, in
   * bytes (default 64 MiB, then shrinking); ULog `full`: the least (default 4 MiB); HDF5
   * `full` with several jobs: the largest range of rows of a dataset (default 16 MiB).
   */
  rangeBytes?: number;
}

/**
 * A format's check: its config (the value under `key` in the document) against the data,
 * read through `source` (a file, or a member of a folder or an archive read in place; issues
 * name `source.name`). The caller opens and closes the source.
 */
export type FormatCheck = (
  config: Record<string, unknown>,
  source: ByteSource,
  options: CheckOptions & { key: string },
) => Promise<Issue[]>;
