/**
 * A format's entry in the format table: everything importkit knows about one file format,
 * in one place. Each format's `index.ts` exports one; `formats/index.ts` lists them. The
 * facts are plain values; each stage's function is loaded only when it is called, so that
 * reading the table loads no format's reader (and no wasm) until a file of that format is
 * met.
 *
 * The shape follows GDAL's driver and Arrow's dataset `FileFormat`: an id, how a file is
 * recognised (extensions, magic), and one function per thing a caller may ask of a file,
 * any of which a format may lack (a CH10 file has no rows to show, only a timeline).
 */
import type { CheckOptions, FormatCheck, RowReader, TimelineReader } from '../check/shared.js';
import type { Draft, InferOptions } from '../infer/shared.js';
import type { BaseProfile, ByteSource, FileFormat } from '../inspect/shared.js';
import type { ConfigKind, DataTypeKey } from '../model/index.js';
import type { Issue } from '../model/plain.js';
import type { NormalizeOptions, NormalizeReport } from './csv/normalize.js';

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

/** The options of one format or another; every format reads `assetName`, `runName` and `full`. */
export type FormatOption =
  | 'timeColumn'
  | 'timeFormat'
  | 'relativeStartTime'
  | 'delimiter'
  | 'headerRow'
  | 'layout'
  | 'complexTypes'
  | 'timeDataset';

/** A column a config names in its file (the emulator says which are missing). */
export interface NamedColumn {
  /** 1-based column number (CSV). */
  column?: number;
  /** A column path (Parquet) or dataset path (HDF5). */
  name?: string;
  /** Where in the config, in words. */
  where: string;
}

/** What a config of this format says about its file, read without reading the file. */
export interface ConfigFacts {
  /** The columns or datasets the config names (none for a format that names none). */
  columnsNamed?(config: Record<string, unknown>): NamedColumn[];
  /** The first and last time of the data, from the file's profile, as the config reads it. */
  timeRange?(
    config: Record<string, unknown>,
    profile: BaseProfile,
  ): { start?: string; stop?: string };
}

/** How a normalizer is called (CSV): the data file, where to write, and its options. */
export type Normalizer = (
  input: string,
  output: string,
  options?: NormalizeOptions,
) => Promise<NormalizeReport>;

export interface FormatEntry {
  /** The format's id, which detection returns and every stage dispatches on. */
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

  /**
   * The config that reads it: its key in a document, its name in messages, and its kind
   * (a built-in one, whose zod schema is in `model/`). A format added at run time brings
   * its own config instead: no kind, and `validate`, its check of the config's value.
   */
  config: {
    key: string;
    title: string;
    kind?: ConfigKind;
    validate?(config: unknown, path: string): Issue[];
  };
  /** Its config's page under docs/ and what it imports, in words (the docs index lists them). */
  docs?: { page: string; imports: string };
  /**
   * How a batch lists a file of this format: with a config under the config's key
   * (`config`, the default), by its DataTypeKey only (`type-only`: CH10, whose batch entry
   * holds no config), or not at all (`none`).
   */
  batch?: 'config' | 'type-only' | 'none';
  /** The DataTypeKey a file of this format is listed with in a batch (Parquet's says its layout). */
  dataTypeKey?(config?: Record<string, unknown>): DataTypeKey;

  /** Inspects a file of this format. */
  inspect(path: string, options: InspectOptions): Promise<BaseProfile>;
  /**
   * The profile `importkit inspect` shows, when it reads more than `inspect` needs to
   * (Parquet: sample values from the pages, which the footer does not hold).
   */
  inspectWithSamples?(path: string): Promise<BaseProfile>;

  /** The draft for the file at `path` (before the shared validation of `finishDraft`). */
  infer(path: string, options: InferOptions): Promise<Draft>;
  /**
   * The draft of a batch member read through its ByteSource (a folder's file or a member
   * of an archive, read in place). Without it a folder's file is inferred by path, and an
   * archive's member is listed by its type only.
   */
  inferSource?(source: ByteSource, options: InferOptions): Promise<Draft>;
  /**
   * The options of one format or another that this format's inferer reads (none when
   * absent): the command line refuses a flag for one it does not read instead of
   * ignoring it.
   */
  inferOptions?: readonly FormatOption[];

  /** Its check against a config; undefined when importkit cannot check this format yet. */
  check?: FormatCheck;
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
  /** The reader of its rows as the config reads them; undefined when none exists yet. */
  rows?: () => Promise<RowReader>;
  /** Why the rows cannot be shown, when there is no reader and a reason says more. */
  noRowsNote?: string;
  /** Where each channel has data, for a format whose rows cannot be shown (the preview draws it). */
  timeline?: () => Promise<TimelineReader>;

  /** What a config of this format says about its file (the emulator's import answer). */
  facts?: () => Promise<ConfigFacts>;
  /** Rewrites a file of this format into one the platform reads (CSV). */
  normalize?: () => Promise<Normalizer>;
}

export type { CheckOptions, Issue };
