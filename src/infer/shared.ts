/**
 * What every format's inferer shares, below the formats: the Draft and Evidence shapes and
 * the options, the time-format guesses, and how much of a file's values infer reads.
 * Formats import this entry, never `index.ts` (the dispatch above them).
 */
export * from './time.js';
export * from './types.js';
export * from './values.js';
