/** Infer: a file → a draft config with the evidence for each choice. The public entry of this stage. */
import { detectFormat, InspectError, openForInspection } from '../inspect/index.js';
import { validateConfig } from '../validate/index.js';
import { newFacts } from './restated.js';
import type { Draft, InferOptions } from './types.js';

export type { BatchDraft, BatchOptions } from './batch.js';
export { inferBatch } from './batch.js';
export { inferCh10 } from './ch10.js';
export { channelTypeOf as hdf5ChannelTypeOf } from './hdf5.js';
export { channelTypeOf as parquetChannelTypeOf } from './parquet.js';
export { RESTATED_BY } from './restated.js';
export { channelTypeOf as tdmsChannelTypeOf, inferTdms } from './tdms.js';
export { fitsUnixFormat, isUnixFormat, unixUnitThatFits } from './time.js';
export type { Confidence, Draft, Evidence, InferOptions, Layout } from './types.js';
export { channelTypeOf as ulogChannelTypeOf, inferUlog } from './ulog.js';

/**
 * Inspects a local file and infers a draft config for it. The draft is validated by the
 * same validator `importkit lint` uses; its issues are part of the result.
 * Throws InspectError when the file cannot be read or is not a format importkit inspects.
 */
export async function inferConfig(path: string, options: InferOptions = {}): Promise<Draft> {
  const source = await openForInspection(path);
  let raw: Draft;
  try {
    const detection = await detectFormat(source);
    switch (detection.format) {
      case 'csv': {
        const { inferCsv } = await import('./csv.js');
        raw = await inferCsv(path, options);
        break;
      }
      case 'parquet': {
        const { inferParquet } = await import('./parquet.js');
        raw = await inferParquet(path, options);
        break;
      }
      case 'hdf5': {
        const { inferHdf5 } = await import('./hdf5.js');
        raw = await inferHdf5(path, options);
        break;
      }
      case 'tdms': {
        const { inferTdms } = await import('./tdms.js');
        raw = await inferTdms(path, options);
        break;
      }
      case 'ch10': {
        const { inferCh10 } = await import('./ch10.js');
        raw = await inferCh10(path, options);
        break;
      }
      case 'ulog': {
        const { inferUlog } = await import('./ulog.js');
        raw = await inferUlog(path, options);
        break;
      }
      default:
        throw new InspectError({
          code: 'unknown_format',
          severity: 'error',
          path: '',
          message: `${path}: not a CSV, Parquet, HDF5, TDMS, CH10 or ULog file`,
          hint: 'Check that this is the data file you meant.',
          source: { file: path },
        });
    }
  } finally {
    await source.close();
  }
  return finishDraft(raw);
}

/**
 * Validates a draft's document and appends the validation issues to what inference reported,
 * leaving out those that restate an inference issue (one fact, one message).
 */
export function finishDraft(raw: Draft): Draft {
  const result = validateConfig(raw.document);
  return { ...raw, issues: [...raw.issues, ...newFacts(raw.issues, result.issues)] };
}
