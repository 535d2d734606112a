/**
 * How people name the files of each format importkit reads: its title in messages and its
 * file name extensions (lower case, with the dot). Plain facts below every stage: inspect
 * recognises files by them (`inspect/formats.ts` adds magic bytes and readers), a batch takes
 * a text member as data by its batch extensions, and the CLI says which format a misplaced
 * argument is. Registered formats (`registerInspectFormat`) bring their own.
 */
export interface FileNaming {
  title: string;
  extensions: readonly string[];
  /** The extensions that make a text member of a batch a data file (default: all). */
  batchExtensions?: readonly string[];
}

export const FILE_NAMING = {
  // `.txt` is read as CSV when named on its own, but a batch leaves a .txt member out: an
  // archive's notes and READMEs are text too.
  csv: { title: 'CSV', extensions: ['.csv', '.tsv', '.txt'], batchExtensions: ['.csv', '.tsv'] },
  parquet: { title: 'Parquet', extensions: ['.parquet', '.pqt'] },
  hdf5: { title: 'HDF5', extensions: ['.h5', '.hdf5', '.he5', '.nc'] },
  tdms: { title: 'TDMS', extensions: ['.tdms'] },
  ch10: { title: 'CH10', extensions: ['.ch10', '.c10'] },
  ulog: { title: 'ULog', extensions: ['.ulg'] },
} as const satisfies Record<string, FileNaming>;

/** The built-in format a file name's extension names (`.gz` looked through), by its title. */
export function formatTitleOfName(path: string): string | undefined {
  const base = path.toLowerCase().replace(/\.gz$/, '');
  const dot = base.lastIndexOf('.');
  if (dot <= base.lastIndexOf('/')) return undefined;
  const ext = base.slice(dot);
  const naming: readonly FileNaming[] = Object.values(FILE_NAMING);
  return naming.find((n) => n.extensions.includes(ext))?.title;
}
