/**
 * Module hooks that let a worker thread started by code under test load the TypeScript
 * sources directly: a `.js` import with no file beside it resolves to the `.ts` file, and
 * `.ts` files are transpiled (types dropped) by the oxc transform that Vite ships (its
 * `rolldown`), or by the TypeScript compiler when that is not installed. Vitest runs the
 * tests themselves through its own transform; a `new Worker(url)` is plain Node, which
 * only reads the compiled files in dist/. Registered for every test process by
 * `ts-register.mjs` (vitest.config.ts, `execArgv`), and inherited by worker threads.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

let transpile;

async function transpiler() {
  try {
    const { transformSync } = await import('rolldown/utils');
    return (file, text) => transformSync(file, text, { lang: 'ts', sourcemap: false }).code;
  } catch {
    const ts = (await import('typescript')).default;
    return (file, text) =>
      ts.transpileModule(text, {
        fileName: file,
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      }).outputText;
  }
}

export async function resolve(specifier, context, next) {
  if (specifier.endsWith('.js') && /^(\.|\/|file:)/.test(specifier)) {
    const url = new URL(specifier, context.parentURL);
    if (url.protocol === 'file:' && !existsSync(fileURLToPath(url))) {
      const tsUrl = url.href.replace(/\.js$/, '.ts');
      if (existsSync(fileURLToPath(tsUrl)))
        return { url: tsUrl, format: 'module', shortCircuit: true };
    }
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, context);
  transpile ??= await transpiler();
  const file = fileURLToPath(url);
  const source = transpile(file, await readFile(file, 'utf8'));
  return { format: 'module', source, shortCircuit: true };
}
