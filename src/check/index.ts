export { checkBatch } from './batch.js';
export { checkFile, readConfigRows, readConfigTimeline } from './dispatch.js';
export { checkReads, configOfDocument } from './document.js';
export type { CheckOptions } from './options.js';
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
