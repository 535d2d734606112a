/**
 * Module hooks that let a worker thread started by code under test load the TypeScript
 * sources directly: a `.js` import with no file beside it resolves to the `.ts` file, and
 * `.ts` files are transpiled (types dropped) by rolldown's oxc transform (a dev dependency,
 * which also bundles the command line), or by the TypeScript compiler when that is not
 * installed. Vitest runs the tests themselves through its own transform; a `new
 * Worker(url)` is plain Node, which only reads the compiled files in dist/. Registered for
 * every test process by `ts-register.mjs` (vitest.config.ts, `execArgv`), and inherited by
 * worker threads.
 *
 * On Node 20 every worker thread gets hooks of its own, so a cache in memory here is never
 * hit: the suite's worker threads transpiled the same modules about 55 times each (5,300
 * transpiles, 47 s summed). The transpiled code is kept on disk instead, under
 * node_modules/.cache: a folder per source file (a hash of its path), an entry per text (a
 * hash of it), so an edited file is transpiled again and a hit needs neither the transform
 * nor its native module loaded. A new entry replaces the file's others: the cache holds
 * about one entry per source file, however often the files are edited.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
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
  const { dir, entry } = cacheEntry(file, text);
  const hit = await readFile(`${dir}${entry}`, 'utf8').catch(() => undefined);
  if (hit !== undefined) return { format: 'module', source: hit, shortCircuit: true };
  transpile ??= await transpiler();
  const source = transpile(file, text);
  await keep(dir, entry, source);
  return { format: 'module', source, shortCircuit: true };
}

/** Where the transpiled text of `file` as `text` is kept: the file's folder, the text's entry. */
export function cacheEntry(file, text) {
  const hash = (...parts) => {
    const h = createHash('sha256');
    for (const p of parts) h.update(p).update('\0');
    return h.digest('hex').slice(0, 40);
  };
  return { dir: `${cacheDir}${hash(file)}/`, entry: `${hash(text)}.js` };
}

/**
 * Writes an entry and removes the file's older ones. Written aside and renamed, so that a
 * thread reading it at the same time reads all or none; another thread's entry being
 * written aside (its name goes on past `.js`) is left alone.
 */
async function keep(dir, entry, source) {
  const aside = `${dir}${entry}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  await mkdir(dir, { recursive: true });
  await writeFile(aside, source);
  await rename(aside, `${dir}${entry}`);
  for (const name of await readdir(dir).catch(() => [])) {
    if (name !== entry && name.endsWith('.js')) await rm(`${dir}${name}`, { force: true });
  }
}
