/** The command line: `run(argv, io)` returns an exit code; bin/ only calls it. */

export { VERSION } from './args.js';
export { EXIT_INVALID, EXIT_OK, EXIT_USAGE, UsageError } from './errors.js';
export type { Io, Output } from './io.js';
export { processIo } from './io.js';
export type { Command } from './run.js';
export { run } from './run.js';
