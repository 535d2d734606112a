import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

let lib: typeof Yaml | undefined;

/**
 * The yaml package, loaded on first use. A valid plain config never needs it (the fast
 * path reads it without positions), and loading its ~60 modules is the largest part of a
 * cold `importkit lint`: only a config with an issue, anchors or several documents pays it.
 */
export function yaml(): typeof Yaml {
  lib ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return lib;
}
