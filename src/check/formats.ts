/**
 * The format table, check's part: per format id (the ids of `inspect`'s part, which
 * detection returns), the config that reads it (its document key and name), how a file of
 * that format is checked against its config, and how its rows are read as the config reads
 * them (the preview shows those). `checkConfig`, the batch check and `readConfigRows`
 * dispatch through it; see `inspect/formats.ts` for why each stage keeps its own part
 * under the same ids (a test checks they agree).
 */
import type { ByteSource, FileFormat } from '../inspect/index.js';
import {
  type Ch10Config,
  CONFIG_KINDS,
  type CsvConfig,
  type Hdf5Config,
  type ParquetConfig,
  type TdmsConfig,
  type UlogConfig,
} from '../model/index.js';
import type { Issue } from '../model/plain.js';
import type { RowReader } from './rows.js';
import type { TimelineReader } from './timeline.js';

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
   * CSV, TDMS and ULog `full`: threads (default: the cores; 1 reads in this thread).
   * A batch: members checked at once (default 2), sharing the jobs.
   */
  jobs?: number;
  /**
   * CSV `full`: the largest range a thread scans, in bytes (default 64 MiB, then
   * shrinking); ULog `full`: the least (default 4 MiB).
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

/** One format: the config that reads it, its check and its rows. */
export interface CheckFormat {
  id: FileFormat;
  /** The config's key in a document (`csvConfig`). */
  configKey: string;
  /** The config's name in messages (`CsvConfig`). */
  title: string;
  /** Undefined when importkit cannot check this format against its file yet. */
  check?: FormatCheck;
  /** The reader of its rows as the config reads them; undefined when none exists yet. */
  rows?: () => Promise<RowReader>;
  /** Why the rows cannot be shown, when there is no reader and a reason says more. */
  noRowsNote?: string;
  /** Where each channel has data, for a format whose rows cannot be shown (the preview draws it). */
  timeline?: () => Promise<TimelineReader>;
  /**
   * What its check reads of the file, sampled and with `full`, as the verdict says it
   * ("its head and tail sampled"): the verdict says only what was read.
   */
  reads: { sampled: string; full: string };
  /**
   * Codes of warnings that say part of what `reads` names was not read after all (values
   * a format cannot decode, a damaged part): a verdict beside one of them says so.
   */
  readsLess?: readonly string[];
}

function builtIn(kind: 'csv' | 'parquet' | 'hdf5' | 'tdms' | 'ulog' | 'ch10') {
  return { id: kind, configKey: CONFIG_KINDS[kind].key, title: CONFIG_KINDS[kind].title };
}

const BUILT_IN: readonly CheckFormat[] = [
  {
    ...builtIn('csv'),
    reads: { sampled: 'its head and tail sampled; `full` reads every row', full: 'every row read' },
    check: async (config, source, options) =>
      (await import('./csv.js')).checkCsv(config as CsvConfig, source, options),
    rows: async () => (await import('./rows-csv.js')).csvRows,
  },
  {
    ...builtIn('parquet'),
    reads: {
      sampled: 'its footer read (schema and column statistics), no values; `full` reads values',
      full: 'its footer and every value of its time column and typed channel columns read',
    },
    check: async (config, source, options) =>
      (await import('./parquet.js')).checkParquet(config as ParquetConfig, source, options),
    rows: async () => (await import('./rows-parquet.js')).parquetRows,
  },
  {
    ...builtIn('hdf5'),
    reads: {
      sampled:
        'its structure and attributes and the first and last 3 rows of its time datasets read; `full` reads every value',
      full: 'its structure and every value of its time and value datasets read',
    },
    check: async (config, source, options) =>
      (await import('./hdf5.js')).checkHdf5(config as Hdf5Config, source, options),
    rows: async () => (await import('./rows-hdf5.js')).hdf5Rows,
  },
  {
    ...builtIn('tdms'),
    reads: {
      sampled:
        'its metadata and the first and last 10,000 values of each channel it imports read; `full` reads every value',
      full: 'its metadata and every value of the channels it imports read',
    },
    readsLess: ['tdms_values_not_read', 'tdms_segments_unread'],
    check: async (config, source, { key, full, onProgress, jobs }) =>
      (await import('./tdms.js')).checkTdms(config as TdmsConfig, source, {
        key,
        full: full === true,
        onProgress,
        jobs,
      }),
    rows: async () => (await import('./rows-tdms.js')).tdmsRows,
  },
  {
    ...builtIn('ch10'),
    reads: {
      sampled:
        "its TMATS record, the headers of the packets in its first and last MiB and the first time packet's time read, no other packet data; `full` reads every packet header",
      full: "its TMATS record, every packet header and the first time packet's time read, no other packet data",
    },
    check: async (config, source, options) =>
      (await import('./ch10.js')).checkCh10(config as Ch10Config, source, options),
    noRowsNote:
      'CH10 values are not plotted: importkit reads the TMATS setup and the packet headers of a CH10 file, not the data in its packets, so this page shows where each channel has packets instead of plots (the check verdict and the config stand)',
    timeline: async () => (await import('./ch10.js')).ch10Timeline,
  },
  {
    ...builtIn('ulog'),
    reads: {
      sampled:
        'its definitions and message headers read; the messages the config names decoded from the head, three slices and the tail of the data section (all of it under 4 MiB) and the head of each appended part; `full` decodes every one',
      full: 'its definitions and message headers read; every message the config names decoded',
    },
    check: async (config, source, options) =>
      (await import('./ulog.js')).checkUlog(config as UlogConfig, source, options),
    rows: async () => (await import('./rows-ulog.js')).ulogRows,
  },
];

const TABLE = new Map<FileFormat, CheckFormat>(BUILT_IN.map((f) => [f.id, f]));

/** Every format check knows, built-in ones first. */
export function checkFormats(): CheckFormat[] {
  return [...TABLE.values()];
}

/** The entry whose config is under `key` in a document (`csvConfig` → CSV), or undefined. */
export function checkFormatOfKey(key: string): CheckFormat | undefined {
  return checkFormats().find((f) => f.configKey === key);
}

/**
 * The first key of a document that holds an import config (a format's, or `batchConfig`),
 * with the format's entry (undefined for a batch).
 */
export function configOfDocument(
  document: object,
): { key: string; format: CheckFormat | undefined } | undefined {
  for (const key of Object.keys(document)) {
    if (key === CONFIG_KINDS.batch.key) return { key, format: undefined };
    const format = checkFormatOfKey(key);
    if (format) return { key, format };
  }
  return undefined;
}

/**
 * What a check of `document` reads of its data file, as the verdict says it: its format's
 * `reads` (less what its `issues` say was not read), or for a batch what each member's
 * check reads.
 */
export function checkReads(
  document: object,
  full: boolean,
  issues: readonly Pick<Issue, 'code'>[] = [],
): string {
  const found = configOfDocument(document);
  if (found?.format) {
    const reads = found.format.reads[full ? 'full' : 'sampled'];
    const less = (found.format.readsLess ?? []).filter((c) => issues.some((i) => i.code === c));
    return less.length === 0 ? reads : `${reads}; not the values ${less.join(' and ')} names`;
  }
  return full
    ? 'each member read as its format reads it with `full`'
    : 'each member sampled as its format is; `full` reads more';
}

/** Adds a format to check's part of the table; returns the function that removes it. */
export function registerCheckFormat(entry: CheckFormat): () => void {
  if (TABLE.has(entry.id) || checkFormatOfKey(entry.configKey))
    throw new Error(`format '${entry.id}' (${entry.configKey}) is already in the table`);
  TABLE.set(entry.id, entry);
  return () => {
    if (TABLE.get(entry.id) === entry) TABLE.delete(entry.id);
  };
}
