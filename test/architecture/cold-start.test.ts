/**
 * What a command loads before doing work: `lint` of a config, `infer` of a small CSV and
 * `check` of it against its draft, each run through the CLI in a fresh Node process whose
 * every module load a hook writes down, load none of the packages they do not need: not
 * zod (the model's schemas; the validator reads the committed JSON Schemas, and the
 * canonical key order is read from them too), not fflate (a plain file needs no inflater),
 * not the HTTP client.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
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

/** The packages a CLI run of `args` loads (by name), after checking it exits with 0. */
function packagesLoaded(name: string, args: string[]): Set<string> {
  const trace = join(dir, `${name}.trace`);
  const hooks = pathToFileURL(join(repoRoot, 'test', 'helpers', 'load-trace-hooks.mjs')).href;
  const register = `import { register } from 'node:module'; register(${JSON.stringify(hooks)});`;
  const cli = pathToFileURL(join(repoRoot, 'src', 'cli', 'index.ts')).href;
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      pathToFileURL(join(repoRoot, 'test', 'helpers', 'ts-register.mjs')).href,
      '--import',
      `data:text/javascript,${encodeURIComponent(register)}`,
      '--input-type=module',
      '--eval',
      `const { run, processIo } = await import(${JSON.stringify(cli)});
process.exitCode = await run(${JSON.stringify(args)}, processIo());`,
    ],
    { encoding: 'utf8', env: { ...process.env, IMPORTKIT_LOAD_TRACE: trace }, timeout: 60_000 },
  );
  expect(r.stderr).not.toMatch(/error|warning/i);
  expect(r.status).toBe(0);
  const urls = readFileSync(trace, 'utf8').trim().split('\n');
  return new Set(
    urls
      .map((u) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.[1])
      .filter((p): p is string => p !== undefined),
  );
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
});
