/**
 * The zod-free part of the model: the Issue shape, the code registry, the enum values, the
 * numeric bounds, the config kinds and the schema file names, as plain values. A second entry of this leaf beside
 * `index.ts` (which re-exports all of it): the validator and the `lint` path import from
 * here so that they never build the zod schemas (about 200 ms at start-up).
 */
export * from './bounds.js';
export * from './codes/index.js';
export * from './config-bytes.js';
export * from './enum-values.js';
export * from './issue.js';
export * from './json-read.js';
export * from './kinds.js';
export * from './lists.js';
export * from './make-issue.js';
export * from './own.js';
export * from './schema-files.js';
export * from './vocabulary.js';
