/** Infer: a file → a draft config with the evidence for each choice. The public entry of this stage. */
import { detectFileFormat, formatById, unknownFormatError } from '../inspect/index.js';
import { finishDraft } from './finish.js';
import type { Draft, InferOptions } from './types.js';

export type { BatchDraft, BatchOptions } from './batch.js';
export { inferBatch } from './batch.js';
export { finishDraft } from './finish.js';
export { formatsReading, optionsNotRead } from './options.js';
export { RESTATED_BY } from './restated.js';
export type { PlausibleRange, TimeGuess } from './time.js';
export {
  fitsUnixFormat,
  isRfc3339,
  isUnixFormat,
  parseTimeFormatName,
  TIME_FORMAT_SHORT_NAMES,
  unixUnitFromMagnitude,
  unixUnitThatFits,
} from './time.js';
export type { Confidence, Draft, Evidence, InferOptions, Layout, TdmsNames } from './types.js';

/**
 * Inspects a local file and infers a draft config for it. The draft is validated by the
 * same validator `importkit lint` uses; its issues are part of the result.
 * Throws InspectError when the file cannot be read or is not a format importkit inspects.
 */
export async function inferConfig(path: string, options: InferOptions = {}): Promise<Draft> {
  const format = formatById(await detectFileFormat(path));
  if (!format) throw unknownFormatError(path);
  return finishDraft(await format.infer(path, options));
}
