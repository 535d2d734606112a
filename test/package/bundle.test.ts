/**
 * The command line's bundle (scripts/bundle-cli.ts, dist/cli/), which bin/importkit.js runs:
 * each worker module the sources start, by a URL relative to their own, is an entry of the
 * bundle that the bundle names, and a command and its workers load the bundle only.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { MODULE_URL, missingModuleUrls } from '../../scripts/bundle-cli.js';
import { ensureBuilt } from '../helpers/built.js';
import { tracedNode, tracedUrls } from '../helpers/load-trace.js';
import { repoRoot } from '../helpers/paths.js';

const bundle = join(repoRoot, 'dist', 'cli');
const BIN_FILE = join('bin', 'importkit.js');
const BIN = join(repoRoot, BIN_FILE);
beforeAll(() => ensureBuilt('dist/src/cli/index.js'), 300_000);

/** The URLs relative to their own that `files` make (`new URL('./x.js', import.meta.url)`). */
function urlsIn(files: string[]): Array<{ file: string; path: string }> {
  return files.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(MODULE_URL)].map((m) => ({
      file,
      path: m[2] as string,
    })),
  );
}

/** The modules of ours (node_modules aside) a run of the bin with `args` from `cwd` loads. */
function loadedBy(args: string[], cwd: string): string[] {
  const trace = join(cwd, 'loaded.txt');
  const r = tracedNode(trace, [], [BIN, ...args], cwd);
  expect(r.status, r.stderr).toBe(0);
  return tracedUrls(trace)
    .filter((u) => u.startsWith('file:') && !u.includes('/node_modules/'))
    .map((u) => relative(repoRoot, fileURLToPath(u)));
}

describe('the command line bundle', () => {
  test('starts each worker module of the sources from its own entry, and each is there', () => {
    const src = join(repoRoot, 'src');
    const sources = readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
      .map((f) => join(src, f));
    // src/a/b.ts starting './w.js' starts the entry a-w.js of the bundle.
    const wanted = new Set(
      urlsIn(sources).map(({ file, path }) => {
        const module = relative(src, resolve(dirname(file), path));
        return `./${module.replace(/\.js$/, '').split(sep).join('-')}.js`;
      }),
    );
    const chunks = readdirSync(bundle)
      .filter((f) => f.endsWith('.js'))
      .map((f) => join(bundle, f));
    const named = new Set(urlsIn(chunks).map(({ path }) => path));
    expect(wanted).toContain('./formats-tdms-worker.js');
    expect([...named].sort()).toEqual([...wanted].sort());
    expect(missingModuleUrls(bundle)).toEqual([]);
  });

  test('a command and its worker threads load the bundle, none of the compiled modules', () => {
    const dir = mkdtempSync(join(tmpdir(), 'importkit-bundle-'));
    try {
      const csv = join(repoRoot, 'fixtures', 'csv', 'datetime-space.csv');
      const inferred = loadedBy(['infer', csv], dir);
      expect(inferred).toContain(join('dist', 'cli', 'index.js'));
      expect(inferred.filter((f) => !f.startsWith(join('dist', 'cli')) && f !== BIN_FILE)).toEqual(
        [],
      );
      // An HDF5 file is read in a worker thread (formats/hdf5/thread.ts), which loads the
      // trace hook too: its entry is in the list.
      const h5 = join(repoRoot, 'fixtures', 'hdf5', 'compound.h5');
      const inspected = loadedBy(['inspect', h5], dir);
      expect(inspected).toContain(join('dist', 'cli', 'formats-hdf5-thread.js'));
      expect(inspected.filter((f) => !f.startsWith(join('dist', 'cli')) && f !== BIN_FILE)).toEqual(
        [],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
