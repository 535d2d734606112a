/**
 * `importkit/node`: the whole API for Node. Everything the main entry (`importkit`) exports,
 * and what needs Node: inspecting, inferring, checking and previewing files, the CLI's `run`,
 * the client (also `importkit/client`) and the emulator (also `importkit/emulator`).
 * Left out on purpose: the format inspectors' internals (reach them through `inspectCsv`/
 * `inspectParquet`/`inspectHdf5`/`inspectTdms`/`inspectCh10`/`inspectUlog`).
 */

// Check: a config × its data file → issues.
export type {
  CheckOptions,
  ConfigRows,
  RowBatch,
  RowChannel,
  RowReadOptions,
  RowsRead,
} from './check/index.js';
export { checkBatch, checkConfig, readConfigRows } from './check/index.js';
// CLI: run(argv, io) → exit code.
export type { Command, Io, Output } from './cli/index.js';
export {
  EXIT_INVALID,
  EXIT_OK,
  EXIT_USAGE,
  processIo,
  run,
  UsageError,
  VERSION,
} from './cli/index.js';
export * from './client.js';
export * from './emulator.js';
export * from './formats/public.js';
export * from './index.js';
// Infer: a file → a draft config with the evidence for each choice.
export type {
  BatchDraft,
  BatchOptions,
  Confidence,
  Draft,
  Evidence,
  InferOptions,
  Layout,
  TdmsNames,
} from './infer/index.js';
export { inferBatch, inferConfig } from './infer/index.js';
// Inspect: a file → a neutral profile.
export type * from './inspect/index.js';
export {
  countingSource,
  detectFormat,
  InspectError,
  inspectFile,
  memorySource,
  openFileSource,
} from './inspect/index.js';
// Preview: a config × its data file → one self-contained HTML page of the data as read.
export type { Preview, PreviewInput } from './preview/index.js';
export { buildPreview } from './preview/index.js';
