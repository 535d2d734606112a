/**
 * Check: a config × its data file → issues. Does the file fit the config, before anything
 * is uploaded? The public entry of this stage.
 */

export { checkTdms } from '../formats/tdms/check.js';
export type { UlogCheckOptions } from '../formats/ulog/check.js';
export { checkUlog } from '../formats/ulog/check.js';
export { checkBatch } from './batch.js';
export { checkFile, readConfigRows, readConfigTimeline } from './dispatch.js';
export type { CheckFormat, CheckOptions, FormatCheck } from './formats.js';
export {
  checkFormatOfKey,
  checkFormats,
  checkReads,
  configOfDocument,
  registerCheckFormat,
} from './formats.js';
export {
  type CheckedNames,
  checkAsConfigured,
  checkConfig,
  type PlacedCheckOptions,
} from './placed.js';
export type {
  ConfigRows,
  RowBatch,
  RowChannel,
  RowReadOptions,
  RowsRead,
} from './rows.js';
export { numericTime } from './rows.js';
export type { Timeline, TimelineChannel } from './timeline.js';
