/**
 * What every format's reader shares, below the formats (`src/formats/<id>/`): byte sources
 * (positioned reads of a file, a gzip stream or an archive member), the synchronous reader
 * of a source's place that a worker thread uses, and the profile shapes. Formats import
 * this entry, never `index.ts`: that one is the dispatch above the formats.
 */
export * from './byte-source.js';
export * from './gzip-source.js';
export * from './place-reader.js';
export * from './profile.js';
export * from './young-generation.js';
