/**
 * What a command loads before doing work: `lint` of a config, `infer` of a small CSV and
 * `check` of it against its draft, each run through the CLI in a fresh Node process whose
 * every module load a hook writes down, load none of the packages they do not need: not
 * zod (the model's schemas; the validator reads the committed JSON Schemas, and the
 * canonical key order is read from them too), not fflate (a plain file needs no inflater),
 * not the HTTP client. And of the committed JSON Schemas they read one, the document's
 * (validation, the canonical key order and a draft's title need no other).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { packagesOf, tracedRun, tracedUrls } from '../helpers/load-trace.js';
import { repoRoot } from '../helpers/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-cold-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const csvPath = join(dir, 'data.csv');
writeFileSync(csvPath, 'time,speed\n2024-03-01T00:00:00Z,1.5\n2024-03-01T00:00:01Z,2.5\n');
const configPath = join(dir, 'data.yaml');
writeFileSync(
  configPath,
  [
    'csvConfig:',
    '  assetName: a',
    '  firstDataRow: 2',
    '  timeColumn:',
    '    columnNumber: 1',
    '    format: TIME_FORMAT_ABSOLUTE_RFC3339',
    '  dataColumns:',
    '    "2":',
    '      name: speed',
    '      dataType: CHANNEL_DATA_TYPE_DOUBLE',
    '',
  ].join('\n'),
);

/**
 * The URLs of the modules a CLI run of `args` loads (ES modules, then CommonJS ones), after
 * checking it exits with 0.
 */
function modulesLoaded(name: string, args: string[]): string[] {
  const trace = join(dir, `${name}.trace`);
  const cli = pathToFileURL(join(repoRoot, 'src', 'cli', 'index.ts')).href;
  const r = tracedRun(
    trace,
    `const { run, processIo } = await import(${JSON.stringify(cli)});
process.exitCode = await run(${JSON.stringify(args)}, processIo());
// The module hook sees no require(): the CommonJS modules loaded are added from its cache.
const { createRequire } = await import('node:module');
const { appendFileSync } = await import('node:fs');
const { pathToFileURL } = await import('node:url');
for (const f of Object.keys(createRequire(process.cwd() + '/').cache))
  appendFileSync(process.env.IMPORTKIT_LOAD_TRACE, pathToFileURL(f).href + '\\n');`,
  );
  expect(r.stderr).not.toMatch(/error|warning/i);
  expect(r.status).toBe(0);
  return tracedUrls(trace);
}

/** The packages a CLI run of `args` loads (by name). */
function packagesLoaded(name: string, args: string[]): Set<string> {
  return packagesOf(modulesLoaded(name, args));
}

/** The JSON Schema files (schemas/*.json) a CLI run of `args` loads. */
function schemasLoaded(name: string, args: string[]): string[] {
  const files = modulesLoaded(name, args)
    .map((u) => /\/schemas\/([^/]+\.json)$/.exec(u)?.[1])
    .filter((f): f is string => f !== undefined);
  return [...new Set(files)];
}

const NEVER = ['zod', 'fflate', '@modelcontextprotocol/sdk', 'hyparquet', 'parquet-wasm', 'h5wasm'];

describe('cold start', () => {
  test('lint of one config loads no zod', () => {
    const loaded = packagesLoaded('lint', ['lint', configPath]);
    expect(NEVER.filter((p) => loaded.has(p))).toEqual([]);
  });

  test('infer of a small CSV loads no zod', () => {
    const loaded = packagesLoaded('infer', ['infer', csvPath, '-o', join(dir, 'draft.yaml')]);
    expect(NEVER.filter((p) => loaded.has(p))).toEqual([]);
  });

  test('check of a small CSV against its config loads no zod', () => {
    const loaded = packagesLoaded('check', ['check', configPath, csvPath]);
    expect(NEVER.filter((p) => loaded.has(p))).toEqual([]);
  });

  test('infer of a small CSV writes its YAML draft without loading the yaml package', () => {
    const loaded = packagesLoaded('infer-yaml', ['infer', csvPath, '-o', join(dir, 'y.yaml')]);
    expect(loaded.has('papaparse')).toBe(true);
    expect(loaded.has('yaml')).toBe(false);
  });

  test('lint, infer and check of a CSV read one JSON Schema, the document one', () => {
    const draft = join(dir, 'schemas-draft.yaml');
    expect({
      lint: schemasLoaded('lint-schemas', ['lint', configPath]),
      infer: schemasLoaded('infer-schemas', ['infer', csvPath, '-o', draft]),
      check: schemasLoaded('check-schemas', ['check', configPath, csvPath]),
    }).toEqual({
      lint: ['document.schema.json'],
      infer: ['document.schema.json'],
      check: ['document.schema.json'],
    });
  });
});
