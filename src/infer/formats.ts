/**
 * The format table, infer's part: per format id (the ids of `inspect`'s part, which
 * detection returns), how a file of that format becomes a draft. `inferConfig` and the
 * batch walk dispatch through it; see `inspect/formats.ts` for why each stage keeps its
 * own part under the same ids (a test checks they agree).
 */
import type { ByteSource, FileFormat } from '../inspect/index.js';
import type { Draft, InferOptions } from './types.js';

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

/** One format: its draft from a file, and from a batch member's bytes when it can. */
export interface InferFormat {
  id: FileFormat;
  /** The draft for the file at `path` (before the shared validation of `finishDraft`). */
  infer(path: string, options: InferOptions): Promise<Draft>;
  /**
   * The draft of a batch member read through its ByteSource (a folder's file or a member
   * of an archive, read in place). A format without it is inferred by path for a folder's
   * files, and listed by its type only for an archive's members.
   */
  inferSource?(source: ByteSource, options: InferOptions): Promise<Draft>;
  /**
   * The options of one format or another that this format's inferer reads (none when
   * absent): the command line refuses a flag for one it does not read instead of
   * ignoring it.
   */
  options?: readonly FormatOption[];
  /**
   * A batch lists a file of this format by its type only, never reading it for a config:
   * a BatchConfig has no place for one (CH10: a file entry holds no `ch10Config` and there
   * is no `defaultCh10Config`; the platform reads such a file with its defaults).
   */
  typeOnlyInBatch?: boolean;
}

const BUILT_IN: readonly InferFormat[] = [
  {
    id: 'csv',
    options: ['timeColumn', 'timeFormat', 'relativeStartTime', 'delimiter', 'headerRow'],
    infer: async (path, options) =>
      (await import('../formats/csv/infer.js')).inferCsv(path, options),
    inferSource: async (source, options) =>
      (await import('../formats/csv/infer.js')).inferCsvSource(source, options),
  },
  {
    id: 'parquet',
    options: ['timeColumn', 'timeFormat', 'relativeStartTime', 'layout', 'complexTypes'],
    infer: async (path, options) =>
      (await import('../formats/parquet/infer.js')).inferParquet(path, options),
    inferSource: async (source, options) =>
      (await import('../formats/parquet/infer.js')).inferParquetSource(source, options),
  },
  {
    id: 'hdf5',
    options: ['timeFormat', 'relativeStartTime', 'timeDataset'],
    infer: async (path, options) =>
      (await import('../formats/hdf5/infer.js')).inferHdf5(path, options),
    inferSource: async (source, options) =>
      (await import('../formats/hdf5/infer.js')).inferHdf5(source, options),
  },
  {
    id: 'tdms',
    options: ['timeFormat', 'relativeStartTime'],
    infer: async (path, options) =>
      (await import('../formats/tdms/infer.js')).inferTdms(path, options),
    inferSource: async (source, options) =>
      (await import('../formats/tdms/infer.js')).inferTdmsSource(source, options),
  },
  {
    id: 'ch10',
    options: [],
    typeOnlyInBatch: true,
    infer: async (path, options) =>
      (await import('../formats/ch10/infer.js')).inferCh10(path, options),
  },
  {
    id: 'ulog',
    options: ['relativeStartTime'],
    infer: async (path, options) =>
      (await import('../formats/ulog/infer.js')).inferUlog(path, options),
    inferSource: async (source, options) => {
      const { inspectUlogSource } = await import('../inspect/index.js');
      const { draftFromUlogProfile } = await import('../formats/ulog/infer.js');
      return draftFromUlogProfile(await inspectUlogSource(source), options);
    },
  },
];

const TABLE = new Map<FileFormat, InferFormat>(BUILT_IN.map((f) => [f.id, f]));

/** Every format infer knows, built-in ones first. */
export function inferFormats(): InferFormat[] {
  return [...TABLE.values()];
}

/** The entry of a format id, or undefined when infer has none. */
export function inferFormat(id: FileFormat): InferFormat | undefined {
  return TABLE.get(id);
}

/** The options in `options` that the format's inferer does not read (see `InferFormat.options`). */
export function optionsNotRead(id: FileFormat, options: InferOptions): FormatOption[] {
  const read = new Set(inferFormat(id)?.options ?? []);
  const given = Object.keys(options).filter((k) => options[k as keyof InferOptions] !== undefined);
  return ALL_FORMAT_OPTIONS.filter((o) => given.includes(o) && !read.has(o));
}

/** Every format option, and the formats that read it (for a message). */
const ALL_FORMAT_OPTIONS: readonly FormatOption[] = [
  'timeColumn',
  'timeFormat',
  'relativeStartTime',
  'delimiter',
  'headerRow',
  'layout',
  'complexTypes',
  'timeDataset',
];

/** The formats whose inferer reads `option`. */
export function formatsReading(option: FormatOption): FileFormat[] {
  return inferFormats()
    .filter((f) => f.options?.includes(option))
    .map((f) => f.id);
}

/** Adds a format to infer's part of the table; returns the function that removes it. */
export function registerInferFormat(entry: InferFormat): () => void {
  if (TABLE.has(entry.id)) throw new Error(`format '${entry.id}' is already in the table`);
  TABLE.set(entry.id, entry);
  return () => {
    if (TABLE.get(entry.id) === entry) TABLE.delete(entry.id);
  };
}
