/** Inspect: a file → a neutral profile. The public entry of this stage. */
import type { CsvInspectOptions, CsvProfile } from './csv.js';
import type { Hdf5InspectOptions, Hdf5Profile } from './hdf5.js';
import type { ParquetProfile } from './parquet.js';

export type { ByteSource } from './byte-source.js';
export { countingSource, memorySource, openFileSource } from './byte-source.js';
export type { CsvDialect, CsvFieldProfile, CsvInspectOptions, CsvProfile } from './csv.js';
export type { Detection, FileFormat } from './detect.js';
export { detectFormat } from './detect.js';
export type { Hdf5InspectOptions, Hdf5Profile } from './hdf5.js';
export type { InspectOptions } from './inspect-file.js';
export { inspectFile, openForInspection } from './inspect-file.js';
export type { ParquetFieldProfile, ParquetProfile } from './parquet.js';
export type { BaseProfile, FieldProfile } from './profile.js';
export { InspectError } from './profile.js';

// The format inspectors load their parsers (papaparse, hyparquet, h5wasm) only when called,
// so importing this entry (as `lint` does) costs nothing for formats it never touches.

/** Inspects a CSV file: dialect, header, units, per-column types, samples and time facts. */
export async function inspectCsv(path: string, options?: CsvInspectOptions): Promise<CsvProfile> {
  return (await import('./csv.js')).inspectCsv(path, options);
}

/** Inspects a Parquet file from its footer alone (footer offset and length included). */
export async function inspectParquet(path: string): Promise<ParquetProfile> {
  return (await import('./parquet.js')).inspectParquet(path);
}

/** Inspects an HDF5 file's tree, types and attributes, touching data only as small slices. */
export async function inspectHdf5(
  path: string,
  options?: Hdf5InspectOptions,
): Promise<Hdf5Profile> {
  return (await import('./hdf5.js')).inspectHdf5(path, options);
}
