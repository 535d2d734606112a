import type { Issue } from '../../model/plain.js';
/**
 * Semantic rules: checks of a config that the JSON Schema cannot say (one file per concern).
 * Each rule is a document → issues; `RULES` runs them in order.
 */
import { type Rule, withConfigsListed } from './_walk.js';
import { batchRule } from './batch.js';
import { batchChannelRule } from './batch-channels.js';
import { channelNameRule } from './channel-names.js';
import { channelTypeRule } from './channels.js';
import { csvRule } from './csv.js';
import { documentRule } from './document.js';
import { enumDefaultRule } from './enum-defaults.js';
import { hdf5Rule } from './hdf5.js';
import { metadataRule } from './metadata.js';
import { parquetRule } from './parquet.js';
import { runRule } from './run.js';
import { timeRule } from './time.js';

export type { Rule } from './_walk.js';

/** Every semantic rule, in the order their issues are listed. One file per concern. */
export const RULES: ReadonlyArray<{ name: string; rule: Rule }> = [
  { name: 'document', rule: documentRule },
  { name: 'run', rule: runRule },
  { name: 'time', rule: timeRule },
  { name: 'channel-types', rule: channelTypeRule },
  { name: 'channel-names', rule: channelNameRule },
  { name: 'metadata', rule: metadataRule },
  { name: 'csv', rule: csvRule },
  { name: 'parquet', rule: parquetRule },
  { name: 'hdf5', rule: hdf5Rule },
  { name: 'batch', rule: batchRule },
  { name: 'batch-channels', rule: batchChannelRule },
  { name: 'enum-defaults', rule: enumDefaultRule },
];

/** Runs every rule on a normalised document. */
export function runRules(document: Record<string, unknown>): Issue[] {
  return withConfigsListed(document, () => RULES.flatMap((r) => r.rule(document)));
}
