import { fileErrorIssue, fileProblem } from '../files/index.js';
import type { ByteSource } from './byte-source.js';
import { openFileSource } from './byte-source.js';
import { detectFormat } from './detect.js';
import { type BaseProfile, InspectError } from './profile.js';

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

/** Opens a file, turning the OS's errors into an InspectError with a clear one-line message. */
export async function openForInspection(path: string): Promise<ByteSource> {
  const problem = await fileProblem(path);
  if (problem) throw new InspectError({ ...problem, source: { file: path } });
  try {
    return await openFileSource(path);
  } catch (err) {
    throw new InspectError(
      { ...fileErrorIssue(err, path), source: { file: path } },
      { cause: err },
    );
  }
}

/**
 * Inspects any file importkit knows: detects the format by content first, then loads only
 * the inspector it needs (wasm modules load only for their own formats).
 */
export async function inspectFile(
  path: string,
  options: InspectOptions = {},
): Promise<BaseProfile> {
  const source = await openForInspection(path);
  let format: string;
  try {
    format = (await detectFormat(source)).format;
  } finally {
    await source.close();
  }
  switch (format) {
    case 'csv':
      return (await import('./csv.js')).inspectCsv(path, options);
    case 'parquet':
      return (await import('./parquet.js')).inspectParquet(path);
    case 'hdf5':
      return (await import('./hdf5.js')).inspectHdf5(path);
    case 'tdms':
      return (await import('./tdms.js')).inspectTdms(path, { onProgress: options.onProgress });
    case 'ulog':
      return (await import('./ulog.js')).inspectUlog(path, options);
    case 'ch10':
      return (await import('./ch10.js')).inspectCh10(path);
    default:
      throw new InspectError({
        code: 'unknown_format',
        severity: 'error',
        path: '',
        message: `${path}: not a CSV, Parquet, HDF5, TDMS, CH10 or ULog file`,
        hint: 'Check that this is the data file you meant.',
        source: { file: path },
      });
  }
}
