/**
 * Module hooks that let a worker thread started by code under test load the TypeScript
 * sources directly: a `.js` import with no file beside it resolves to the `.ts` file, and
 * `.ts` files are transpiled (types dropped) by the oxc transform that Vite ships (its
 * `rolldown`), or by the TypeScript compiler when that is not installed. Vitest runs the
 * tests themselves through its own transform; a `new Worker(url)` is plain Node, which
 * only reads the compiled files in dist/. Registered for every test process by
 * `ts-register.mjs` (vitest.config.ts, `execArgv`), and inherited by worker threads.
 *
 * On Node 20 every worker thread gets hooks of its own, so a cache in memory here is never
 * hit: the suite's worker threads transpiled the same modules about 55 times each (5,300
 * transpiles, 47 s summed). The transpiled code is kept on disk instead, under
 * node_modules/.cache, named by a hash of the file's path and text, so an edited file is
 * transpiled again and a hit needs neither the transform nor its native module loaded.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const cacheDir = fileURLToPath(
  new URL('../../node_modules/.cache/importkit-test-ts/', import.meta.url),
);

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
  const file = fileURLToPath(url);
  const text = await readFile(file, 'utf8');
  const cached = `${cacheDir}${createHash('sha256').update(file).update('\0').update(text).digest('hex').slice(0, 40)}.js`;
  const hit = await readFile(cached, 'utf8').catch(() => undefined);
  if (hit !== undefined) return { format: 'module', source: hit, shortCircuit: true };
  transpile ??= await transpiler();
  const source = transpile(file, text);
  // Written aside and renamed, so that a thread reading it at the same time reads all or none.
  const aside = `${cached}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  await mkdir(cacheDir, { recursive: true });
  await writeFile(aside, source);
  await rename(aside, cached);
  return { format: 'module', source, shortCircuit: true };
}
