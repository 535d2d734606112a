/**
 * The format table, inspect's part: one entry per file format importkit reads, with how to
 * recognise it (magic bytes, extensions, text or binary) and how to inspect it. Its ids
 * are the format ids of every stage: `detectFormat` returns them, `inspectFile` dispatches
 * on them here, and infer (`infer/formats.ts`) and check (`check/formats.ts`) keep their
 * own part of the table under the same ids. Adding a format is adding an entry to each
 * part (a test checks that the three parts list the same ids).
 *
 * Why a part per stage rather than one table above the stages: an entry names the code of
 * every stage, so one table would sit above inspect, infer and check; but `inspectFile`,
 * `inferConfig` and `checkConfig` live in those stages and are called from them (a batch
 * checks each member with the single-file check), so they could not dispatch through a
 * table above them without an import climbing back up. Each stage owns the column it runs.
 *
 * Inspectors are loaded when their format is met, so wasm modules load only for their own
 * formats.
 */
import { FILE_NAMING } from '../model/plain.js';
import type { BaseProfile, FileFormat } from './profile.js';

/** Options every inspector understands; each reads the ones it knows. */
export interface InspectOptions {
  /** Scan the whole file instead of the head and slices (CSV). */
  full?: boolean;
  /** CSV: the delimiter. */
  delimiter?: string;
  /** CSV: the 1-based header row (0: no header). */
  headerRow?: number;
  /** Progress for long reads; not called when undefined. */
  onProgress?: (done: number, total: number) => void;
}

/** Bytes a format's files start with (at any one of `at`, default 0). */
export interface Magic {
  bytes: readonly number[];
  at?: readonly number[];
}

/** One format: how to recognise its files and how to inspect one. */
export interface InspectFormat {
  /** The format's id, shared by every stage's part of the format table. */
  id: FileFormat;
  /** Its name in messages ("not a CSV, Parquet ... file"). */
  title: string;
  /** Lower-case file name extensions, with the dot. */
  extensions: readonly string[];
  /** A text format: the extensions that make a batch member data (default: `extensions`). */
  batchExtensions?: readonly string[];
  /** Magic bytes; a file that starts with them is of this format whatever its name. */
  magic?: readonly Magic[];
  /**
   * A text format: its extension counts only when the head looks like text. The first
   * text format (CSV) is also what text of no known extension is read as.
   */
  text?: boolean;
  /** A batch may list files of this format (every built-in one: CH10 by its type only). */
  batch?: boolean;
  /** Inspects a file of this format. */
  inspect(path: string, options: InspectOptions): Promise<BaseProfile>;
  /**
   * The profile `importkit inspect` shows, when it reads more than `inspect` needs to
   * (Parquet: sample values from the pages, which the footer does not hold).
   */
  inspectWithSamples?(path: string): Promise<BaseProfile>;
}

function ascii(s: string): number[] {
  return [...s].map((c) => c.charCodeAt(0));
}

const BUILT_IN: readonly InspectFormat[] = [
  {
    id: 'csv',
    batch: true,
    ...FILE_NAMING.csv,
    text: true,
    inspect: async (path, options) =>
      (await import('../formats/csv/inspect.js')).inspectCsv(path, options),
  },
  {
    id: 'parquet',
    batch: true,
    ...FILE_NAMING.parquet,
    magic: [{ bytes: ascii('PAR1') }],
    inspect: async (path) => (await import('../formats/parquet/inspect.js')).inspectParquet(path),
    inspectWithSamples: async (path) =>
      (await import('../formats/parquet/inspect.js')).inspectParquetWithSamples(path),
  },
  {
    id: 'hdf5',
    batch: true,
    ...FILE_NAMING.hdf5,
    // The superblock may sit at 0, 512, 1024, 2048 ... (a user block precedes it).
    magic: [{ bytes: [0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a], at: [0, 512, 1024, 2048] }],
    inspect: async (path) => (await import('../formats/hdf5/inspect.js')).inspectHdf5(path),
  },
  {
    id: 'tdms',
    batch: true,
    ...FILE_NAMING.tdms,
    magic: [{ bytes: ascii('TDSm') }],
    inspect: async (path, options) =>
      (await import('../formats/tdms/inspect.js')).inspectTdms(path, {
        onProgress: options.onProgress,
      }),
  },
  {
    id: 'ch10',
    batch: true,
    ...FILE_NAMING.ch10,
    magic: [{ bytes: [0x25, 0xeb] }],
    inspect: async (path) => (await import('../formats/ch10/inspect.js')).inspectCh10(path),
  },
  {
    id: 'ulog',
    batch: true,
    ...FILE_NAMING.ulog,
    magic: [{ bytes: ascii('ULog') }],
    inspect: async (path, options) =>
      (await import('../formats/ulog/inspect.js')).inspectUlog(path, options),
  },
];

const TABLE = new Map<FileFormat, InspectFormat>(BUILT_IN.map((f) => [f.id, f]));

/** Every format, built-in ones first, in the order detection tries their magic bytes. */
export function inspectFormats(): InspectFormat[] {
  return [...TABLE.values()];
}

/** The entry of a format id, or undefined (`unknown`, or an id nobody registered). */
export function inspectFormat(id: FileFormat): InspectFormat | undefined {
  return TABLE.get(id);
}

/**
 * Adds a format to inspect's part of the table (a plug-in format, or a test's). Returns
 * the function that removes it again. Refuses an id that is taken.
 */
export function registerInspectFormat(entry: InspectFormat): () => void {
  if (TABLE.has(entry.id) || entry.id === 'unknown')
    throw new Error(`format '${entry.id}' is already in the table`);
  TABLE.set(entry.id, entry);
  return () => {
    if (TABLE.get(entry.id) === entry) TABLE.delete(entry.id);
  };
}
