import type { Ch10Config } from '../model/index.js';
import { finish, knownKeys, put } from './_common.js';

export interface Ch10ConfigInput {
  asset?: string;
  run?: string;
  /** Apply the file's scaling to the values. */
  scaleValues?: boolean;
}

export type Ch10Document = { ch10Config: Ch10Config };

/** A CH10 (IRIG 106 Chapter 10) import config: `ch10Config({ asset: 'jet', run: 'sortie-4' })`. */
export function ch10Config(input: Ch10ConfigInput): Ch10Document {
  knownKeys('ch10Config()', input, ['asset', 'run', 'scaleValues']);
  const out: Ch10Config = {};
  put(out, 'assetName', input.asset);
  put(out, 'runName', input.run);
  put(out, 'scaleValues', input.scaleValues);
  return finish('ch10', { ch10Config: out });
}
