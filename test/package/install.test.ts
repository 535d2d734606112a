/**
 * The package as a user gets it: `npm pack`, the tarball installed into an empty folder,
 * then `npx importkit lint` and `infer` there, and the library imported by name with its
 * types. Needs a built `dist/` (`npm ci` builds it) and reaches the npm registry (or the
 * local cache) for the dependencies.
 */

import { execFileSync } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { type Installed, npxImportkit, packAndInstall } from '../../scripts/pack-install.js';

const root = join(import.meta.dirname, '..', '..');
let scratch: string;
let installed: Installed;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'importkit-install-'));
  installed = await packAndInstall(root, scratch);
  await copyFile(join(root, 'fixtures', 'examples', 'csv.yaml'), join(installed.dir, 'csv.yaml'));
  await copyFile(
    join(root, 'fixtures', 'csv', 'datetime-space.csv'),
    join(installed.dir, 'data.csv'),
  );
}, 120_000);

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('the packed package, installed into an empty folder', () => {
  test('ships the built code, the schemas and the bin, and nothing of the repository else', async () => {
    const pkg = JSON.parse(
      await readFile(join(installed.dir, 'node_modules', 'importkit', 'package.json'), 'utf8'),
    );
    const listing = execFileSync('tar', ['-tzf', installed.tarball], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((p) => p.replace(/^package\//, ''));
    const tops = [
      ...new Set(
        listing.map((p) =>
          p
            .split('/')
            .slice(0, p.startsWith('dist/') ? 2 : 1)
            .join('/'),
        ),
      ),
    ].sort();
    expect(tops).toEqual([
      'LICENSE',
      'README.md',
      'bin',
      'dist/cli',
      'dist/schemas',
      'dist/src',
      'docs',
      'package.json',
      'schemas',
    ]);
    expect(listing.filter((p) => p.endsWith('.map'))).toEqual([]);
    expect(pkg.bin).toEqual({ importkit: 'bin/importkit.js' });
  });

  test('ships the agents guide, the issue codes and the config pages, which mcp serves', async () => {
    expect(npxImportkit(installed.dir, ['mcp', '--print-skill'])).toEqual({
      code: 0,
      stdout: await readFile(join(root, 'docs', 'agents.md'), 'utf8'),
      stderr: '',
    });
  });

  test('npx importkit lint validates a config', () => {
    expect(npxImportkit(installed.dir, ['lint', 'csv.yaml'])).toEqual({
      code: 0,
      stdout: '✔ 1 file valid\n',
      stderr: '',
    });
  });

  test('npx importkit infer drafts a config that lints', async () => {
    const r = npxImportkit(installed.dir, ['infer', 'data.csv']);
    expect(r.code).toBe(0);
    const draft = parse(r.stdout);
    expect(Object.keys(draft)).toEqual(['csvConfig']);
    await writeFile(join(installed.dir, 'draft.yaml'), r.stdout);
    expect(npxImportkit(installed.dir, ['lint', 'draft.yaml']).code).toBe(0);
  });

  test('the library imports by name, with its types', async () => {
    const script = join(installed.dir, 'use.mjs');
    await writeFile(
      script,
      "import { validateConfig } from 'importkit';\n" +
        "console.log(JSON.stringify(validateConfig({ url: 'https://example.com/x.csv' }).ok));\n",
    );
    const out = execFileSync(process.execPath, [script], { cwd: installed.dir, encoding: 'utf8' });
    expect(out).toBe('false\n');
    const pkg = JSON.parse(
      await readFile(join(installed.dir, 'node_modules', 'importkit', 'package.json'), 'utf8'),
    );
    const types = await readFile(
      join(installed.dir, 'node_modules', 'importkit', pkg.types),
      'utf8',
    );
    expect(types).toContain('validateConfig');
  });

  test('each entry point loads from its subpath, with its types', async () => {
    const script = join(installed.dir, 'entries.mjs');
    await writeFile(
      script,
      "const { inferConfig, validateConfig } = await import('importkit/node');\n" +
        "const { createClient } = await import('importkit/client');\n" +
        "const { startEmulator } = await import('importkit/emulator');\n" +
        'console.log([inferConfig, validateConfig, createClient, startEmulator].map((f) => typeof f).join());\n',
    );
    const out = execFileSync(process.execPath, [script], { cwd: installed.dir, encoding: 'utf8' });
    expect(out).toBe('function,function,function,function\n');
    const pkgDir = join(installed.dir, 'node_modules', 'importkit');
    const pkg = JSON.parse(await readFile(join(pkgDir, 'package.json'), 'utf8'));
    const named = {
      '.': 'validateConfig',
      './node': 'inferConfig',
      './client': 'createClient',
      './emulator': 'startEmulator',
    };
    for (const [subpath, name] of Object.entries(named)) {
      expect(await readFile(join(pkgDir, pkg.exports[subpath].types), 'utf8')).toContain(name);
    }
  });

  test('the built main entry loads where Node built-ins are refused', () => {
    const hooks = pathToFileURL(join(root, 'test', 'helpers', 'browser-hooks.mjs')).href;
    const register = `import { register } from 'node:module'; register(${JSON.stringify(hooks)});`;
    const script =
      "const { validateConfigText } = await import('importkit');\n" +
      "console.log(validateConfigText('csvConfig: {}\\n').issues.map((i) => i.code).join());\n";
    const out = execFileSync(
      process.execPath,
      [
        '--import',
        `data:text/javascript,${encodeURIComponent(register)}`,
        '--input-type=module',
        '--eval',
        script,
      ],
      { cwd: installed.dir, encoding: 'utf8' },
    );
    expect(out).toBe('first_data_row_missing,time_column_missing,data_columns_missing\n');
  });
});
