/**
 * The test hooks' transpile cache (ts-hooks.mjs): a hit gives the text transpiled before,
 * an edited file is transpiled again, and its older entry is removed, so the cache holds
 * one entry per source file however often it is edited.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript hooks, no declarations
import { cacheEntry, load } from './ts-hooks.mjs';

type Loaded = { format: string; source: string };
const loadTs = load as (url: string, context: object, next: () => never) => Promise<Loaded>;
const entryOf = cacheEntry as (file: string, text: string) => { dir: string; entry: string };

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-ts-hooks-'));
  file = join(dir, 'sample.ts');
});
afterEach(async () => {
  await rm(entryOf(file, '').dir, { recursive: true, force: true });
  await rm(dir, { recursive: true, force: true });
});

const never = (): never => {
  throw new Error('a .ts file is not passed on');
};

describe('ts-hooks transpile cache', () => {
  it('transpiles once, serves the entry after, and keeps one entry per file', async () => {
    const first = 'export const n: number = 1;\n';
    await writeFile(file, first);
    const a = await loadTs(pathToFileURL(file).href, {}, never);
    expect(a.format).toBe('module');
    expect(a.source).toContain('export const n = 1');
    expect(a.source).not.toContain(': number');
    const { dir: cacheDir, entry } = entryOf(file, first);
    expect(await readdir(cacheDir)).toEqual([entry]);

    // The entry is what a hit serves: changed by hand, the change comes back.
    await writeFile(join(cacheDir, entry), 'export const n = "from the cache";\n');
    const hit = await loadTs(pathToFileURL(file).href, {}, never);
    expect(hit.source).toContain('from the cache');

    const second = 'export const n: number = 2;\n';
    await writeFile(file, second);
    const b = await loadTs(pathToFileURL(file).href, {}, never);
    expect(b.source).toContain('export const n = 2');
    const now = entryOf(file, second);
    expect(now.dir).toBe(cacheDir);
    expect(await readdir(cacheDir)).toEqual([now.entry]);
    expect(existsSync(join(cacheDir, entry))).toBe(false);
  });

  it('leaves an entry another thread is still writing aside', async () => {
    const text = 'export const s: string = "x";\n';
    await writeFile(file, text);
    const { dir: cacheDir, entry } = entryOf(file, text);
    await rm(cacheDir, { recursive: true, force: true });
    await mkdir(cacheDir, { recursive: true });
    const aside = `${entry}.12345.abc`;
    await writeFile(join(cacheDir, aside), 'partial');
    await loadTs(pathToFileURL(file).href, {}, never);
    expect((await readdir(cacheDir)).sort()).toEqual([entry, aside].sort());
  });
});
