/**
 * Reading the format table loads no format's code: a check of a CSV file against its
 * config, and an inference of one, load the CSV format's modules and no other format's
 * (their `index.ts` entries, which hold only facts, aside), and none of the packages the
 * other formats read with (hyparquet, parquet-wasm, h5wasm). Each runs in a fresh Node
 * process whose every module load is written down by a hook.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { packagesOf, tracedRun, tracedUrls } from '../helpers/load-trace.js';
import { repoRoot } from '../helpers/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-lazy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const csvPath = join(dir, 'data.csv');
writeFileSync(csvPath, 'time,speed\n2024-03-01T00:00:00Z,1.5\n2024-03-01T00:00:01Z,2.5\n');
const document = {
  csvConfig: {
    assetName: 'a',
    firstDataRow: 2,
    timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_RFC3339' },
    dataColumns: { 2: { name: 'speed', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' } },
  },
};

/** The modules a child process loads while it runs `script` (with STAGE: the stage's entry). */
function modulesLoaded(stage: string, script: string): string[] {
  const trace = join(dir, `${stage}.trace`);
  const entry = pathToFileURL(join(repoRoot, 'src', stage, 'index.ts')).href;
  const r = tracedRun(trace, `const STAGE = await import(${JSON.stringify(entry)});\n${script}`);
  expect(r.stderr).toBe('');
  expect(r.stdout.trim()).toBe('done');
  return tracedUrls(trace);
}

/** Of the loaded URLs: the source files under src/formats/ (relative), and the packages. */
function split(urls: string[]) {
  const formats = urls
    .map((u) => /\/src\/(formats\/.*)$/.exec(u)?.[1])
    .filter((f): f is string => f !== undefined);
  return { formats, packages: packagesOf(urls) };
}

const OTHER_FORMAT_CODE = /^formats\/(parquet|hdf5|tdms|ulog|ch10)\/(?!index\.ts$)/;
const OTHER_PACKAGES = ['hyparquet', 'parquet-wasm', 'h5wasm'];

describe('lazy formats', () => {
  test('check of a CSV file loads the CSV format and no other', () => {
    const { formats, packages } = split(
      modulesLoaded(
        'check',
        `const issues = await STAGE.checkConfig(${JSON.stringify(document)}, ${JSON.stringify(csvPath)}, { full: true, jobs: 1 });
if (issues.some((i) => i.severity === 'error')) throw new Error(JSON.stringify(issues));
console.log('done');`,
      ),
    );
    expect(formats).toContain('formats/csv/check.ts');
    expect(formats).toContain('formats/parquet/index.ts');
    expect(formats.filter((f) => OTHER_FORMAT_CODE.test(f))).toEqual([]);
    expect(OTHER_PACKAGES.filter((p) => packages.has(p))).toEqual([]);
  });

  test('infer of a CSV file loads the CSV format and no other', () => {
    const { formats, packages } = split(
      modulesLoaded(
        'infer',
        `const draft = await STAGE.inferConfig(${JSON.stringify(csvPath)});
if (!draft.document.csvConfig) throw new Error('no csvConfig');
console.log('done');`,
      ),
    );
    expect(formats).toContain('formats/csv/infer.ts');
    expect(formats.filter((f) => OTHER_FORMAT_CODE.test(f))).toEqual([]);
    expect(OTHER_PACKAGES.filter((p) => packages.has(p))).toEqual([]);
  });
});
