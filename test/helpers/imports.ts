/**
 * The import graph of the TypeScript sources, read from their text: what a module loads.
 * Type-only imports load nothing and are left out; JSON modules are leaves.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export interface GraphOptions {
  /** Follow `import('...')` with a literal specifier too (as a bundler does). */
  dynamic?: boolean;
}

/** Specifiers a module loads: value imports and re-exports, and with `dynamic` its `import()`s. */
export function importsOf(file: string, options: GraphOptions = {}): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  const re = /^(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?'([^']+)'/gm;
  for (const m of text.matchAll(re)) out.push(m[1] as string);
  if (options.dynamic) {
    for (const m of text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)) out.push(m[1] as string);
  }
  return out;
}

/** A package's name from a specifier: `@scope/name` or `name` (a Node built-in keeps `node:`). */
export function packageOf(spec: string): string {
  return spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');
}

/** Every module and package reached from the entry files. */
export function importGraph(
  entries: string[],
  options: GraphOptions = {},
): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const todo = [...entries];
  for (let file = todo.pop(); file !== undefined; file = todo.pop()) {
    if (files.has(file)) continue;
    files.add(file);
    for (const spec of importsOf(file, options)) {
      if (spec.startsWith('.')) {
        if (spec.endsWith('.json')) continue;
        todo.push(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
      } else packages.add(packageOf(spec));
    }
  }
  return { files, packages };
}
