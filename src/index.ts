/**
 * importkit's public API: named exports only. A test pins this list; anything not
 * exported here is internal.
 */
export * from './build/index.js';
export * from './cli/index.js';
export * from './client/index.js';
export * from './emulator/index.js';
export * from './infer/index.js';
export * from './inspect/index.js';
export * from './model/index.js';
export * from './validate/index.js';
