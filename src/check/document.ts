/**
 * Which format a config document reads, from the format table: the first key of the
 * document that holds a format's config (or `batchConfig`), and what that format's check
 * reads of the file, as the verdict says it.
 */
import { type FormatEntry, formatOfConfigKey } from '../formats/index.js';
import { CONFIG_KIND_KEYS, type Issue } from '../model/plain.js';

/**
 * The first key of a document that holds an import config (a format's, or `batchConfig`),
 * with the format's entry (undefined for a batch).
 */
export function configOfDocument(
  document: object,
): { key: string; format: FormatEntry | undefined } | undefined {
  for (const key of Object.keys(document)) {
    if (key === CONFIG_KIND_KEYS.batch) return { key, format: undefined };
    const format = formatOfConfigKey(key);
    if (format) return { key, format };
  }
  return undefined;
}

/**
 * What a check of `document` reads of its data file, as the verdict says it: its format's
 * `reads` (less what its `issues` say was not read), or for a batch what each member's
 * check reads.
 */
export function checkReads(
  document: object,
  full: boolean,
  issues: readonly Pick<Issue, 'code'>[] = [],
): string {
  const found = configOfDocument(document);
  if (found?.format) {
    const reads = found.format.reads[full ? 'full' : 'sampled'];
    const less = (found.format.readsLess ?? []).filter((c) => issues.some((i) => i.code === c));
    return less.length === 0 ? reads : `${reads}; not the values ${less.join(' and ')} names`;
  }
  return full
    ? 'each member read as its format reads it with `full`'
    : 'each member sampled as its format is; `full` reads more';
}
