/**
 * The format table: one entry per file format importkit reads, each from its own folder
 * (`formats/<id>/index.ts`: how its files are named and recognised, the config that reads
 * them, how a batch lists them, and its inspect, infer, check, rows and timeline). The
 * dispatch above the formats (`inspectFile`, `inferConfig`, `checkConfig`, batches,
 * preview, the emulator's imports) asks this table and nothing else switches on a format.
 *
 * Adding a format is a folder and one line in BUILT_IN (or `registerFormat` at run time).
 * Reading the table loads no format's reader: each entry loads its stage's code when it is
 * called (`test/architecture/lazy-formats.test.ts` holds this).
 */
import type { FileFormat } from '../inspect/shared.js';
import { registerConfigKind } from '../model/plain.js';
import { ch10 } from './ch10/index.js';
import { csv } from './csv/index.js';
import { hdf5 } from './hdf5/index.js';
import { parquet } from './parquet/index.js';
import { tdms } from './tdms/index.js';
import type { FormatEntry } from './types.js';
import { ulog } from './ulog/index.js';

/** The built-in formats, in the order detection tries their magic bytes. */
const BUILT_IN: readonly FormatEntry[] = [csv, parquet, hdf5, tdms, ch10, ulog];

const TABLE = new Map<FileFormat, FormatEntry>(BUILT_IN.map((f) => [f.id, f]));

/** Every format, built-in ones first, in the order detection tries their magic bytes. */
export function formats(): FormatEntry[] {
  return [...TABLE.values()];
}

/** The entry of a format id, or undefined (`unknown`, or an id nobody registered). */
export function formatById(id: FileFormat): FormatEntry | undefined {
  return TABLE.get(id);
}

/** The entry whose config is under `key` in a document (`csvConfig` → CSV), or undefined. */
export function formatOfConfigKey(key: string): FormatEntry | undefined {
  return formats().find((f) => f.config.key === key);
}

/** A file of format `id`, in words: "a Parquet file", or "not a format importkit knows". */
export function aFileOf(id: FileFormat): string {
  const entry = TABLE.get(id);
  return entry ? `a ${entry.title} file` : 'not a format importkit knows';
}

/** The format a file name's extension names (`.gz` looked through), or undefined. */
export function formatOfName(path: string): FormatEntry | undefined {
  const base = path.toLowerCase().replace(/\.gz$/, '');
  const dot = base.lastIndexOf('.');
  if (dot <= base.lastIndexOf('/')) return undefined;
  const ext = base.slice(dot);
  return formats().find((f) => f.extensions.includes(ext));
}

/**
 * Adds a format to the table (a plug-in format, or a test's); every stage, the command
 * line, batches and the emulator then reach it, and the validator accepts its config (a
 * config of no built-in kind is registered with the model). Returns the function that
 * removes both. Refuses an id or a config key that is taken.
 */
export function registerFormat(entry: FormatEntry): () => void {
  if (TABLE.has(entry.id) || entry.id === 'unknown' || formatOfConfigKey(entry.config.key))
    throw new Error(`format '${entry.id}' (${entry.config.key}) is already in the table`);
  const { key, title, kind, validate } = entry.config;
  const removeKind =
    kind === undefined
      ? registerConfigKind({ key, title, ...(validate ? { validate } : {}) })
      : undefined;
  TABLE.set(entry.id, entry);
  return () => {
    if (TABLE.get(entry.id) !== entry) return;
    TABLE.delete(entry.id);
    removeKind?.();
  };
}

export type { NormalizeCounts, NormalizeOptions, NormalizeReport } from './csv/normalize.js';
export type {
  ConfigFacts,
  FormatEntry,
  FormatOption,
  InspectOptions,
  Magic,
  NamedColumn,
} from './types.js';
