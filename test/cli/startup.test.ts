/**
 * Cold start: what `importkit lint` loads before it reads a file. The static import graph of
 * the CLI entry and the lint command (dynamic `import()` is left out: it runs only when
 * called) holds no heavy package; a valid plain config never loads the YAML reader either.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const src = join(import.meta.dirname, '..', '..', 'src');

/** Specifiers a module loads when it is loaded: value imports and re-exports, not types. */
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  const re = /^(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?'([^']+)'/gm;
  for (const m of text.matchAll(re)) out.push(m[1] as string);
  return out;
}

/** Every module and package reached from the entry files by static imports. */
function graph(entries: string[]): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const todo = [...entries];
  for (let file = todo.pop(); file !== undefined; file = todo.pop()) {
    if (files.has(file)) continue;
    files.add(file);
    for (const spec of staticImports(file)) {
      if (spec.startsWith('.')) {
        if (spec.endsWith('.json')) continue;
        todo.push(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
      } else
        packages.add(
          spec
            .split('/')
            .slice(0, spec.startsWith('@') ? 2 : 1)
            .join('/'),
        );
    }
  }
  return { files, packages };
}

describe('importkit lint loads only what it uses', () => {
  const { files, packages } = graph([
    join(src, 'cli', 'index.ts'),
    join(src, 'cli', 'commands', 'lint.ts'),
  ]);

  test('no package but Node built-ins (no zod, ajv, yaml, wasm or parsers)', () => {
    expect([...packages].filter((p) => !p.startsWith('node:')).sort()).toEqual([]);
  });

  test('no HTTP, and no stage but validate, the model and the files leaf', () => {
    expect([...packages].filter((p) => /^node:(https?|net|worker_threads)$/.test(p))).toEqual([]);
    const stages = new Set([...files].map((f) => f.slice(src.length + 1).split('/')[0]));
    expect([...stages].sort()).toEqual(['cli', 'files', 'model', 'validate']);
  });

  test('the compiled validator is loaded, the zod model is not', () => {
    const rel = [...files].map((f) => f.slice(src.length + 1));
    expect(rel).toContain('validate/_document-validator.ts');
    expect(rel.filter((f) => /^model\/(document|enums|scalars|channel|csv)\.ts$/.test(f))).toEqual(
      [],
    );
  });
});
