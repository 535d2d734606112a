/**
 * Module hooks that load modules the way a bundler does for a browser: packages resolve
 * through their `browser`/`import`/`default` exports (never `node`), and any Node built-in
 * (`node:fs`, `fs`, `node:module`...) is refused with an error naming it and its importer.
 * `test/package/browser-safe.test.ts` loads the main entry under them (`--import` of a
 * `register()` call, after `ts-register.mjs` when the sources are TypeScript).
 */
import { builtinModules } from 'node:module';

const BUILTINS = new Set(builtinModules);
const CONDITIONS = ['browser', 'import', 'module', 'default'];

export async function resolve(specifier, context, next) {
  if (specifier.startsWith('node:') || BUILTINS.has(specifier)) {
    throw new Error(`Node built-in "${specifier}" imported by ${context.parentURL ?? 'the entry'}`);
  }
  return next(specifier, { ...context, conditions: CONDITIONS });
}
