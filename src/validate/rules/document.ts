import { CONFIG_KEYS, configKeysOf, type Issue, issue } from '../../model/plain.js';
import { join, type Rule } from './_walk.js';

/** Exactly one config key per document; `url`, when given, is an address the platform can fetch. */
export const documentRule: Rule = (doc) => {
  const out: Issue[] = [];
  const keys = configKeysOf(doc);
  if (keys.length === 0) {
    out.push(
      issue(
        'config_kind_missing',
        '',
        `The document has no config: none of ${CONFIG_KEYS.join(', ')}.`,
        'Put the config under the key of the file’s format, for example `csvConfig:`.',
      ),
    );
  }
  for (const extra of keys.slice(1)) {
    out.push(
      issue(
        'config_kind_multiple',
        join('', extra),
        `${extra} beside ${keys[0]}: an import takes exactly one config.`,
        'Keep one; put the other in its own document (separate documents with `---`).',
      ),
    );
  }
  const url = doc.url;
  if (typeof url === 'string' && !/^(https?|s3):\/\/[^\s/]+/i.test(url)) {
    out.push(
      issue(
        'invalid_url',
        '/url',
        `${JSON.stringify(url)} is not an http, https or s3 address.`,
        'Write it like https://example.com/data.csv or s3://bucket/data.csv.',
      ),
    );
  }
  return out;
};
