/**
 * Checks a CsvConfig against a CSV file: the columns it names exist (and carry the names
 * the channels have), `firstDataRow` is the first row of values, the time column parses
 * in the declared format, goes forward and lands in a plausible date range, and every
 * value fits its channel's type. Samples the head and the tail of the file by default;
 * `full` streams every row with bounded memory.
 */

import { type ByteSource, wholeFileOf } from '../../inspect/shared.js';
import type { CsvConfig } from '../../model/index.js';
import { type Issue, pointer, pushAll } from '../../model/plain.js';
import {
  type At,
  columnPlaceIssues,
  fileWidth,
  resolveColumns,
  tallySpecOf,
  timeColumnPlaceIssues,
  unconfiguredColumnIssues,
} from './check-columns.js';
import { nextLineStart } from './check-head.js';
import { earlyWorkers, type ScanWorker, scanFull } from './check-parallel.js';
import {
  firstDataRowIssues,
  locateRows,
  numRowsIssues,
  repeatedHeaderIssue,
} from './check-rows.js';
import {
  type ColumnTally,
  mergeTally,
  type Tally,
  type TallySpec,
  tallyRecords,
} from './check-tally.js';
import { timeIssues } from './check-time.js';
import { valueIssues } from './check-values.js';
import { inspectCsvSource } from './inspect.js';
import { scanCsvFile } from './scan.js';

export interface CsvCheckOptions {
  /** Stream every row instead of sampling the head and the tail. */
  full?: boolean;
  /** Bytes done of total (full scans). */
  onProgress?: (done: number, total: number) => void;
  /**
   * Threads of a full scan: this one and `jobs - 1` workers. Default: the cores; 1 reads in
   * this thread alone.
   */
  jobs?: number;
  /**
   * The largest range of a full scan on several threads, in bytes (default 64 MiB); ranges
   * shrink to 4 MiB towards the end.
   */
  rangeBytes?: number;
  /** Rows read from the head when sampling. Default 10,000. */
  sampleRows?: number;
  /** Bytes read from the head (and the tail) when sampling. Default 4 MiB (tail 1 MiB). */
  sampleBytes?: number;
  /** The config's key in the document (for pointers). Default `csvConfig`. */
  key?: string;
  /** The delimiter (`,` `;` `\t` `|`), instead of detecting it (as `infer --delimiter`). */
  delimiter?: string;
  /** The 1-based header row (0: none), instead of detecting it (as `infer --header-row`). */
  headerRow?: number;
}

/** What the file's structure says, from the same inspection `infer` makes (both modes). */
const STRUCTURE_CODES = new Set(['csv_no_data_rows', 'csv_last_row_incomplete']);

const HEAD_RECORDS = 64;

/** Checks a CsvConfig against the CSV read through `source` (issues name `source.name`). */
export async function checkCsv(
  config: CsvConfig,
  source: ByteSource,
  options: CsvCheckOptions = {},
): Promise<Issue[]> {
  const key = options.key ?? 'csvConfig';
  const at: At = (...tokens) => pointer(key, ...tokens);
  const dataPath = source.name;
  const read = await readThrough(source, config, options);
  const { profile, structureIssues, columns, timeCol, timeSpec, useEmbedded } = read;
  const { rows, tally, totalRows } = read;
  const width = fileWidth(tally.fieldCounts, rows.header, profile.sampling.lastRowFields);
  const names = rows.header.map((h) => h.trim());

  const issues: Issue[] = [...structureIssues];
  const noDataRows = structureIssues.some((i) => i.code === 'csv_no_data_rows');
  pushAll(
    issues,
    firstDataRowIssues(config.firstDataRow, totalRows, noDataRows, rows, at, dataPath),
  );
  if (tally.again.count > 0) issues.push(repeatedHeaderIssue(tally.again, dataPath));
  pushAll(issues, timeColumnPlaceIssues(timeCol, width, names, profile.fields, at, dataPath));
  pushAll(issues, columnPlaceIssues(columns, width, names, dataPath));
  if (timeSpec && tally.time && timeSpec.column <= width)
    pushAll(
      issues,
      timeIssues({ ...tally.time, ...timeSpec }, at, dataPath, options.full === true),
    );
  columns.forEach((col, c) => {
    if (col.column <= width)
      pushAll(issues, valueIssues({ ...col, ...(tally.columns[c] as ColumnTally) }, dataPath));
  });
  if (!useEmbedded)
    pushAll(issues, unconfiguredColumnIssues(width, timeCol, columns, names, at, dataPath));
  if (options.full) pushAll(issues, numRowsIssues(config.numRows, tally.dataRows, at, dataPath));
  return issues;
}

/**
 * Every read of the file, through one open byte source: the inspector's profile, then the
 * tally of the values (sampled, or every row: in worker threads, which open the file
 * themselves, when the source is a file on disk; else in this thread through the source).
 * The workers of a full read start first, and load while the profile is read.
 */
async function readThrough(source: ByteSource, config: CsvConfig, options: CsvCheckOptions) {
  const workers = options.full ? workersAhead(source, options) : [];
  try {
    return await readAll(source, config, options, workers);
  } finally {
    await Promise.all(workers.map((w) => w.worker.terminate()));
  }
}

/** The workers of a full read of a file on disk, but a gzip one (read in this thread). */
function workersAhead(source: ByteSource, options: CsvCheckOptions): ScanWorker[] {
  // By its name: its first bytes are read with the head. A gzip file named otherwise starts
  // workers that are given nothing to scan, and stop.
  if (wholeFileOf(source) === undefined || /\.gz$/i.test(source.name)) return [];
  return earlyWorkers(source.size, options);
}

async function readAll(
  source: ByteSource,
  config: CsvConfig,
  options: CsvCheckOptions,
  workers: ScanWorker[],
) {
  const at: At = (...tokens) => pointer(options.key ?? 'csvConfig', ...tokens);
  const { profile, structureIssues } = await readStructure(source, options);
  const { delimiter, gzip: gz } = profile.dialect;
  const size = profile.file.size;
  const { columns, timeCol, timeSpec, useEmbedded } = resolveColumns(config, at);
  const rows = locateRows(config.firstDataRow, profile);
  const spec = tallySpecOf(columns, timeSpec, rows.header);
  const full = { delimiter, checkFrom: rows.checkFrom, gzip: gz, workers };
  const { tally, totalRows } = options.full
    ? await fullTally(wholeFileOf(source) ?? source, size, spec, full, options)
    : await sampledTally(source, size, spec, delimiter, rows.checkFrom, gz, options);
  return {
    profile,
    structureIssues,
    columns,
    timeCol,
    timeSpec,
    useEmbedded,
    rows,
    tally,
    totalRows,
  };
}

/**
 * The inspector's profile, the one reading of the file's head that the check builds on:
 * encoding (UTF-16 and binary refused there), gzip, delimiter, header, units and first
 * data row, the first rows with their kinds, and the structure verdicts (line ends, width,
 * data rows, a cut last row) that `inspect` and `infer` give, whatever the mode, so sampled
 * and full checks agree with them.
 */
async function readStructure(source: ByteSource, options: CsvCheckOptions) {
  const profile = await inspectCsvSource(source, {
    headRecords: HEAD_RECORDS,
    ...(options.delimiter !== undefined ? { delimiter: options.delimiter } : {}),
    ...(options.headerRow !== undefined ? { headerRow: options.headerRow } : {}),
  });
  const structureIssues = profile.issues.filter((i) => STRUCTURE_CODES.has(i.code));
  return { profile, structureIssues };
}

/**
 * Every row of the file: a file on disk (its path) in worker threads unless one job is asked
 * for, any other source (an archive's member) in this thread.
 */
async function fullTally(
  data: string | ByteSource,
  size: number,
  spec: TallySpec,
  read: { delimiter: string; checkFrom: number; gzip: boolean; workers: ScanWorker[] },
  options: CsvCheckOptions,
): Promise<{ tally: Tally; totalRows: number }> {
  const scan = await scanFull(data, size, {
    spec,
    ...read,
    ...(options.jobs !== undefined ? { jobs: options.jobs } : {}),
    ...(options.rangeBytes !== undefined ? { rangeBytes: options.rangeBytes } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  return { tally: scan.tally, totalRows: scan.rows };
}

/**
 * The read size of a sampled check. The scanner holds three times its read size (a buffer
 * of two reads and one read ahead): 256 KiB reads hold 0.75 MiB a scan instead of 3 MiB
 * for the default 1 MiB, and a sample is a few MiB, so the extra reads cost nothing seen.
 */
const SAMPLE_CHUNK = 256 * 1024;

/** The head of the file and a slice from its end (whose rows' numbers are not known). */
async function sampledTally(
  source: ByteSource,
  size: number,
  spec: TallySpec,
  delimiter: string,
  checkFrom: number,
  gz: boolean,
  options: CsvCheckOptions,
): Promise<{ tally: Tally; totalRows: number | undefined }> {
  const sampleBytes = options.sampleBytes ?? 4 * 1024 * 1024;
  const head = tallyRecords(spec, { skipBefore: checkFrom });
  const headScan = await scanCsvFile(source, head.onRecord, {
    delimiter,
    end: sampleBytes,
    maxRows: options.sampleRows ?? 10_000,
    chunkSize: SAMPLE_CHUNK,
  });
  if (headScan.atEnd) return { tally: head.tally, totalRows: headScan.rows };
  if (gz) return { tally: head.tally, totalRows: undefined };
  const tailBytes = Math.min(1024 * 1024, Math.floor(sampleBytes / 4));
  const from = Math.max(headScan.endOffset, size - tailBytes);
  if (from < size) {
    // The head stops where a record ends: a tail from there starts with the next record.
    const lineStart = from === headScan.endOffset ? from : await nextLineStart(source, from, size);
    if (lineStart < size) {
      const tail = tallyRecords(spec, { rowsKnown: false });
      await scanCsvFile(source, tail.onRecord, {
        delimiter,
        start: lineStart,
        chunkSize: SAMPLE_CHUNK,
      });
      mergeTally(head.tally, tail.tally, 0, 0);
    }
  }
  return { tally: head.tally, totalRows: undefined };
}
