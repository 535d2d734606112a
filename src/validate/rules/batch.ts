import {
  BATCH_FILE_KINDS,
  CONFIG_KIND_KEYS,
  DATA_TYPE_KEY_KIND,
  type Issue,
  issue,
} from '../../model/plain.js';
import { BATCH_DEFAULT_KEYS, configsOf, join, obj, type Rule } from './_walk.js';

const RUN_FIELDS = ['runName', 'runId', 'assetName'] as const;

/**
 * Batch: it lists at least one file (an empty batch would import nothing, yet succeed), each
 * file entry has a real type, at most one config and of that type (or a default for it),
 * and run/asset fields are set once for the batch, not per file.
 */
export const batchRule: Rule = (doc) => {
  const out: Issue[] = [];
  const batch = obj(doc.batchConfig);
  if (batch) {
    const files = batch.fileConfigs === undefined ? {} : obj(batch.fileConfigs);
    if (files && Object.keys(files).length === 0) out.push(emptyIssue());
    for (const [name, e] of Object.entries(obj(batch.fileConfigs) ?? {})) {
      const entry = obj(e);
      if (entry) checkEntry(batch, name, entry, out);
    }
  }
  for (const c of configsOf(doc)) {
    if (!c.inBatch) continue;
    for (const f of RUN_FIELDS) {
      if (c.config[f] === undefined) continue;
      out.push(
        issue(
          'run_field_in_file_config',
          join(c.path, f),
          `${f} inside a batch’s ${c.inBatch === 'default' ? 'default' : 'per-file'} config; a batch sets it once for all files.`,
          `Move ${f} to the top of batchConfig.`,
        ),
      );
    }
  }
  return out;
};

function emptyIssue(): Issue {
  return issue(
    'batch_empty',
    '/batchConfig/fileConfigs',
    'The batch lists no file in fileConfigs: it would import nothing.',
    'List the data files of the archive in fileConfigs (importkit infer <folder or archive> writes them).',
  );
}

function checkEntry(
  batch: Record<string, unknown>,
  name: string,
  entry: Record<string, unknown>,
  out: Issue[],
): void {
  const at = join('/batchConfig/fileConfigs', name);
  const type = entry.type;
  if (type === 'DATA_TYPE_KEY_UNSPECIFIED') {
    out.push(
      issue(
        'unspecified_value',
        join(at, 'type'),
        `The file entry ${JSON.stringify(name)} has type DATA_TYPE_KEY_UNSPECIFIED.`,
        'Give the file’s type, for example DATA_TYPE_KEY_CSV.',
      ),
    );
    return;
  }
  if (typeof type !== 'string' || !Object.hasOwn(DATA_TYPE_KEY_KIND, type)) return;
  const kind = DATA_TYPE_KEY_KIND[type as keyof typeof DATA_TYPE_KEY_KIND];
  const present = BATCH_FILE_KINDS.filter((k) => entry[CONFIG_KIND_KEYS[k]] !== undefined);
  for (const extra of present.slice(1)) {
    out.push(
      issue(
        'batch_config_multiple',
        join(at, CONFIG_KIND_KEYS[extra]),
        `The file entry ${JSON.stringify(name)} has ${present.map((k) => CONFIG_KIND_KEYS[k]).join(' and ')}; it takes at most one.`,
        `Keep the config that matches its type (${type}).`,
      ),
    );
  }
  const own = present[0];
  if (own !== undefined && own !== kind) {
    const expected = (CONFIG_KIND_KEYS as Record<string, string>)[kind] ?? kind;
    out.push(
      issue(
        'batch_config_type_mismatch',
        join(at, CONFIG_KIND_KEYS[own]),
        `The file entry ${JSON.stringify(name)} is of type ${type} but carries ${CONFIG_KIND_KEYS[own]}.`,
        `Use ${expected} for this type, or fix type.`,
      ),
    );
  }
  const defaultKey = BATCH_DEFAULT_KEYS[kind];
  if (own === undefined && defaultKey !== undefined && batch[defaultKey] === undefined) {
    out.push(
      issue(
        'batch_config_missing',
        at,
        `The file entry ${JSON.stringify(name)} (${type}) has no config and there is no ${defaultKey}.`,
        `Give the entry a ${CONFIG_KIND_KEYS[kind]}, or add ${defaultKey} to the batch.`,
      ),
    );
  }
}
