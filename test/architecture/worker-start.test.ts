/**
 * What a `--jobs` worker thread loads before it reads a part: each format's worker entry,
 * imported in a fresh Node process whose every module load a hook writes down, loads no
 * part of the config validator (src/validate/) and none of the committed JSON Schemas. A
 * worker tallies values and reads bytes; the validator and its schemas were a third of its
 * start (`npm run bench -- startup`). (Imported outside a worker thread, an entry finds no parent port and serves
 * nothing: its module graph is loaded all the same, which is what is checked.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { tracedRun, tracedUrls } from '../helpers/load-trace.js';
import { repoRoot } from '../helpers/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-worker-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The repository files (relative, POSIX) a process loads when it imports `entry` (under src/). */
function filesLoaded(entry: string): string[] {
  const trace = join(dir, `${entry.replace(/\W/g, '_')}.trace`);
  const url = pathToFileURL(join(repoRoot, 'src', entry)).href;
  const r = tracedRun(trace, `await import(${JSON.stringify(url)});`);
  expect(r.status).toBe(0);
  const root = `${pathToFileURL(repoRoot).href}/`;
  return tracedUrls(trace)
    .filter((u) => u.startsWith(root) && !u.includes('/node_modules/'))
    .map((u) => u.slice(root.length));
}

const WORKERS = [
  'formats/tdms/worker.ts',
  'formats/ulog/check-worker.ts',
  'formats/parquet/worker.ts',
  'formats/hdf5/thread.ts',
  'formats/csv/check-worker.ts',
];

describe('worker start', () => {
  test.each(WORKERS)('%s loads no validator and no JSON Schema', (entry) => {
    const files = filesLoaded(entry);
    expect(files).toContain(`src/${entry}`);
    expect(files.filter((f) => f.startsWith('src/validate/') || f.startsWith('schemas/'))).toEqual(
      [],
    );
  });

  test("a CSV check's worker loads of values/ only its reader of date-time text", () => {
    const files = filesLoaded('formats/csv/check-worker.ts');
    const values = new Set(files.filter((f) => f.startsWith('src/values/')));
    expect([...values]).toEqual(['src/values/iso-time.ts']);
  });
});
