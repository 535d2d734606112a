/**
 * What every format's check shares, below the formats: the options a check is given, how a
 * declared type fits a stored one, and the shapes of rows and timelines as a config reads
 * them (the preview draws those). Formats import this entry, never `index.ts` (the
 * dispatch above them).
 */
export * from './options.js';
export * from './rows.js';
export * from './timeline.js';
export * from './types.js';
