import type * as Yaml from 'yaml';

let lib: typeof Yaml | undefined;
let load: () => typeof Yaml = requireYaml;

/**
 * The yaml package, loaded on first use. A valid plain config never needs it (the fast
 * path reads it without positions), and loading its ~60 modules is the largest part of a
 * cold `importkit lint`: only a config with an issue, anchors or several documents pays it.
 */
export function yaml(): typeof Yaml {
  lib ??= load();
  return lib;
}

/**
 * Tells the validator how to get the yaml package: the main entry hands over the one it has
 * loaded, the CLI a `require` of its own. Without either, Node's `require` is reached through
 * `process.getBuiltinModule`: this module imports no Node built-in, so it loads in a browser.
 */
export function provideYaml(loader: () => typeof Yaml): void {
  load = loader;
}

function requireYaml(): typeof Yaml {
  const nodeModule = globalThis.process?.getBuiltinModule?.('node:module');
  if (!nodeModule) {
    throw new Error(
      "importkit cannot load the yaml package here: import the validator from 'importkit'.",
    );
  }
  return nodeModule.createRequire(import.meta.url)('yaml') as typeof Yaml;
}
