import { CONFIG_KEYS, type Issue, issue } from '../../model/plain.js';
import { join, type Rule } from './_walk.js';

/** Exactly one config key per document; `url`, when given, is an address the platform can fetch. */
export const documentRule: Rule = (doc) => {
  const out: Issue[] = [];
  const keys = CONFIG_KEYS.filter((k) => Object.hasOwn(doc, k));
  if (keys.length === 0) {
    out.push(
      issue(
        'config_kind_missing',
        '',
        'The document has no config: none of csvConfig, ch10Config, tdmsConfig, parquetConfig, hdf5Config, ulogConfig, batchConfig.',
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
