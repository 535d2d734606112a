/**
 * Inspect: a file → a neutral profile. The entry of this stage above the formats: the
 * dispatch (`detectFormat`, `inspectFile`), batches (folders and archives), the format
 * table, and the byte sources and profile shapes of `shared.ts` (which the formats import
 * instead of this file). The HDF5 library (wasm) loads only inside the worker that reads an
 * HDF5 file, and each format's reader only when a file of that format is met.
 */

export { dataFileProblem, emptyFileIssue, fileProblem } from '../files/index.js';
export type {
  ConfigFacts,
  FormatEntry,
  FormatOption,
  InspectOptions,
  Magic,
  NamedColumn,
  NormalizeCounts,
  NormalizeOptions,
  NormalizeReport,
} from '../formats/index.js';
export {
  aFileOf,
  formatById,
  formatOfConfigKey,
  formatOfName,
  formats,
  registerFormat,
} from '../formats/index.js';
export type {
  Container,
  ContainerKind,
  ContainerMember,
  MemberVisit,
} from './archive/container.js';
export {
  archiveError,
  containerKind,
  leftOutByContent,
  leftOutByName,
  openContainer,
  openFolderMember,
} from './archive/container.js';
export type { UnpackOptions } from './archive/unpack.js';
export {
  hideRoot,
  hideRootInIssues,
  memberTarget,
  UnpackError,
  unpackMembers,
  withPrivateFolder,
} from './archive/unpack.js';
export type { ByteSource, Place } from './byte-source.js';
export {
  countingSource,
  memorySource,
  openFileSource,
  openForInspection,
  refuseEmptyFile,
  throughSource,
  wholeFileOf,
} from './byte-source.js';
export type { Detection } from './detect.js';
export { detectFormat } from './detect.js';
export { gunzipChunks, gunzipHead, isGzip } from './gzip-source.js';
export {
  detectFileFormat,
  inspectFile,
  unknownFormatError,
} from './inspect-file.js';
export type { BaseProfile, FieldProfile, FileFormat } from './profile.js';
export { InspectError } from './profile.js';
