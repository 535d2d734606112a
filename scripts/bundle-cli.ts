/**
 * Bundles the command line (dist/src/cli/index.js and the modules of ours it imports, the
 * packages left as they are) into a few files in dist/cli/, which bin/importkit.js runs
 * (`npm run build` runs this after the compiler).
 *
 * Why a bundle: a cold `importkit infer small.csv` loaded 139 modules of ours, and Node's
 * ES module loader costs about half a millisecond each (a stat, an open, a read and a
 * link a file) before any work is done: a pre-commit hook or an editor pays that on every
 * run. bench/startup.bench.ts measures it.
 *
 * The worker modules are entries of the same bundle, sharing its chunks: a module starts
 * a worker by `new URL('./x.js', import.meta.url)`, relative to itself, which `workerUrls`
 * rewrites to the worker's entry in dist/cli/ (and fails the build when the module named
 * is not there). The library's entry points (dist/src/index.js and the others) are not
 * bundled: an application bundles them itself.
 */
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Plugin, rolldown } from 'rolldown';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const compiled = join(root, 'dist', 'src');
const entry = join(compiled, 'cli', 'index.js');
const out = join(root, 'dist', 'cli');

/** A URL made from a relative path and the module's own URL: how a module names a worker's file. */
export const MODULE_URL = /new URL\((['"])(\.\.?\/[^'"]+)\1,\s*import\.meta\.url\)/g;

/** The bundle's entry (a file name, `.js` aside) of a compiled module: its path under dist/src/. */
function entryName(file: string): string {
  return relative(compiled, file).replace(/\.js$/, '').split(sep).join('-');
}

/** Every module a compiled module names by a URL relative to its own: the worker modules. */
function workerModules(): string[] {
  const found = new Set<string>();
  for (const name of readdirSync(compiled, { recursive: true, encoding: 'utf8' })) {
    if (!name.endsWith('.js')) continue;
    const file = join(compiled, name);
    for (const m of readFileSync(file, 'utf8').matchAll(MODULE_URL)) {
      found.add(resolve(dirname(file), m[2] as string));
    }
  }
  return [...found].sort();
}

/**
 * Rewrites every `new URL('./x.js', import.meta.url)` of a module of dist/src/ to the
 * entry of the bundle that module is (each is: `workerModules` finds them the same way);
 * fails when the module is not there.
 */
function workerUrls(): Plugin {
  return {
    name: 'importkit-worker-urls',
    transform(code, id) {
      if (!code.includes('import.meta.url')) return null;
      const missing: string[] = [];
      const rewritten = code.replace(MODULE_URL, (_match, _quote, path: string) => {
        const target = resolve(dirname(id), path);
        if (!existsSync(target)) missing.push(`${path} (from ${relative(root, id)})`);
        return `new URL(${JSON.stringify(`./${entryName(target)}.js`)}, import.meta.url)`;
      });
      if (missing.length > 0) this.error(`no such file: ${missing.join(', ')}`);
      return rewritten === code ? null : { code: rewritten };
    },
  };
}

/**
 * The files a bundle's `new URL(path, import.meta.url)` name that are not there: after the
 * rewrite, none (a check of the output, not of the modules it was made from).
 */
export function missingModuleUrls(dir: string): string[] {
  const missing: string[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.js'))) {
    for (const m of readFileSync(join(dir, file), 'utf8').matchAll(MODULE_URL)) {
      const path = m[2] as string;
      if (!existsSync(resolve(dir, path))) missing.push(`${path} (in ${file})`);
    }
  }
  return missing;
}

/**
 * Writes the bundle to a folder of this process's own, then puts it in place of the one
 * before: a run of the bin never sees a bundle half written, and builds at once (tests that
 * each build a stale dist/) do not write into each other's.
 */
async function bundle(): Promise<void> {
  const next = `${out}.next-${process.pid}`;
  rmSync(next, { recursive: true, force: true });
  const workers = workerModules();
  const build = await rolldown({
    input: { index: entry, ...Object.fromEntries(workers.map((w) => [entryName(w), w])) },
    platform: 'node',
    // Our modules only: a package is imported from node_modules as it is (some find their
    // own files, a .wasm beside them, by their own URL).
    external: (id) => !id.startsWith('.') && !isAbsolute(id) && !id.startsWith('\0'),
    plugins: [workerUrls()],
    logLevel: 'warn',
  });
  try {
    await build.write({
      dir: next,
      format: 'esm',
      entryFileNames: '[name].js',
      chunkFileNames: '[name]-[hash].js',
    });
  } finally {
    await build.close();
  }
  const missing = missingModuleUrls(next);
  if (missing.length > 0) throw new Error(`the bundle names missing files: ${missing.join(', ')}`);
  const old = `${out}.old-${process.pid}`;
  try {
    renameSync(out, old);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  try {
    renameSync(next, out);
  } catch (err) {
    // Another build put its bundle there first: the same sources, the same bundle.
    if (!['ENOTEMPTY', 'EEXIST'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
  }
  rmSync(next, { recursive: true, force: true });
  rmSync(old, { recursive: true, force: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await bundle();
  console.log(`wrote ${relative(root, out)}/`);
}
