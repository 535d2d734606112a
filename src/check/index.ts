/**
 * Check: a config × its data file → issues. Does the file fit the config, before anything
 * is uploaded? The public entry of this stage.
 */

import type { ImportDocument } from '../model/index.js';
import type { Issue } from '../model/plain.js';
import { checkBatch } from './batch.js';
import { checkFile } from './dispatch.js';
import { type CheckOptions, configOfDocument } from './formats.js';

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
export { checkTdms } from './tdms.js';

export type { UlogCheckOptions } from './ulog.js';
export { checkUlog } from './ulog.js';

/**
 * Checks a config document (canonical: camelCase, full enum names) against the data file
 * it will import: a batch member by member, one file through the format table. Issues
 * about the data carry `source: { file, row, line, column, dataset }` and a `path` into
 * the document. Throws InspectError when the file cannot be read.
 */
export async function checkConfig(
  document: ImportDocument,
  dataPath: string,
  options: CheckOptions = {},
): Promise<Issue[]> {
  if (configOfDocument(document)?.key === 'batchConfig') {
    return checkBatch(document.batchConfig ?? {}, dataPath, options);
  }
  return checkFile(document, dataPath, options);
}

export type {
  ConfigRows,
  RowBatch,
  RowChannel,
  RowReadOptions,
  RowsRead,
} from './rows.js';
export { numericTime } from './rows.js';
export type { Timeline, TimelineChannel } from './timeline.js';
