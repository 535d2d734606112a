/**
 * Cold start: what `importkit lint` loads before it reads a file. The static import graph of
 * the CLI entry and the lint command (dynamic `import()` is left out: it runs only when
 * called) holds no heavy package; a valid plain config never loads the YAML reader either.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { importGraph } from '../helpers/imports.js';

const src = join(import.meta.dirname, '..', '..', 'src');

describe('importkit lint loads only what it uses', () => {
  const { files, packages } = importGraph([
    join(src, 'cli', 'index.ts'),
    join(src, 'cli', 'commands', 'lint.ts'),
  ]);

  test('no package but Node built-ins (no zod, ajv, yaml, wasm or parsers)', () => {
    expect([...packages].filter((p) => !p.startsWith('node:')).sort()).toEqual([]);
  });

  test('no HTTP, and no stage but validate, the model and the files leaf', () => {
    expect([...packages].filter((p) => /^node:(https?|net|worker_threads)$/.test(p))).toEqual([]);
    const stages = new Set([...files].map((f) => f.slice(src.length + 1).split('/')[0]));
    // Not the format table either: it names a data file given as the config by its format's
    // extensions, and a config's name (.yaml, .json) needs no look there.
    expect([...stages].sort()).toEqual(['cli', 'files', 'model', 'validate']);
  });

  test('the compiled validator is loaded, the zod model is not', () => {
    const rel = [...files].map((f) => f.slice(src.length + 1));
    expect(rel).toContain('validate/generated/document-validator.ts');
    expect(rel.filter((f) => /^model\/(document|enums|scalars|channel|csv)\.ts$/.test(f))).toEqual(
      [],
    );
  });
});
