/** Inspect: a file → a neutral profile. The public entry of this stage. */
export type { ByteSource } from './byte-source.js';
export { countingSource, memorySource, openFileSource } from './byte-source.js';
export type { Detection, FileFormat } from './detect.js';
export { detectFormat } from './detect.js';
export type { InspectOptions } from './inspect-file.js';
export { inspectFile, openForInspection } from './inspect-file.js';
export type { BaseProfile, FieldProfile } from './profile.js';
export { InspectError } from './profile.js';
