/**
 * The main entry (`importkit`: model, builders, validator, formatter) runs where Node's
 * built-ins do not exist, as in a browser: nothing it loads, statically or on demand, is a
 * Node built-in, and its only packages are zod and yaml (both ship a browser build). Loaded
 * in a Node process under hooks that refuse every built-in and resolve packages through
 * their browser exports, with `process.getBuiltinModule` taken away, it validates (YAML with
 * positions included), builds and formats configs. The client's entry fails there, naming
 * the built-in, which shows that the hooks catch one.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { importGraph } from '../helpers/imports.js';
import { repoRoot } from '../helpers/paths.js';

const src = join(repoRoot, 'src');
const helpers = join(repoRoot, 'test', 'helpers');

/** What the child does with the main entry: each result printed as one JSON line. */
const SCRIPT = `
process.getBuiltinModule = undefined;
const m = await import(process.env.IMPORTKIT_ENTRY);
const text = 'csvConfig:\\n  firstDataRow: -1\\n  extra: 1\\n';
console.log(JSON.stringify(m.validateConfigText(text, { filename: 'a.yaml' }).issues.map((i) => [i.code, i.line])));
const doc = m.csvConfig({
  firstDataRow: 2,
  time: { column: 1, format: 'absolute_datetime' },
  columns: { 2: { name: 'speed', type: 'double' } },
});
console.log(JSON.stringify(m.validateConfig(doc).ok));
console.log(JSON.stringify(m.formatConfigText('csv_config:\\n  first_data_row: 2 # header above\\n').text));
const failed = await import(process.env.IMPORTKIT_NODE_ENTRY).then(() => 'loaded', (e) => e.message);
console.log(JSON.stringify(failed));
`;

/** Runs SCRIPT (the main entry, then the client's) in a Node process without built-ins. */
function runWithoutBuiltins() {
  const hooks = pathToFileURL(join(helpers, 'browser-hooks.mjs')).href;
  const register = `import { register } from 'node:module'; register(${JSON.stringify(hooks)});`;
  return spawnSync(
    process.execPath,
    [
      '--import',
      pathToFileURL(join(helpers, 'ts-register.mjs')).href,
      '--import',
      `data:text/javascript,${encodeURIComponent(register)}`,
      '--input-type=module',
      '--eval',
      SCRIPT,
    ],
    {
      encoding: 'utf8',
      env: {
        ...process.env,
        IMPORTKIT_ENTRY: pathToFileURL(join(src, 'index.ts')).href,
        IMPORTKIT_NODE_ENTRY: pathToFileURL(join(src, 'client.ts')).href,
      },
      timeout: 60_000,
    },
  );
}

describe('the main entry needs no Node built-in', () => {
  test('its import graph, dynamic imports included, holds only zod and yaml', () => {
    const { packages } = importGraph([join(src, 'index.ts')], { dynamic: true });
    expect([...packages].sort()).toEqual(['yaml', 'zod']);
  });

  test('without built-ins it validates, builds and formats; a Node-only entry fails', () => {
    const r = runWithoutBuiltins();
    expect(r.stderr).toBe('');
    const [issues, built, formatted, nodeEntry, ...rest] = r.stdout.trim().split('\n');
    expect(JSON.parse(issues ?? '')).toEqual([
      ['time_column_missing', 1],
      ['data_columns_missing', 1],
      ['negative_unsigned', 2],
      ['unknown_key', 3],
    ]);
    expect(built).toBe('true');
    expect(JSON.parse(formatted ?? '')).toBe('csvConfig:\n  firstDataRow: 2 # header above\n');
    // The hooks do catch a built-in: the client's entry cannot load under them.
    expect(JSON.parse(nodeEntry ?? '')).toMatch(
      /^Node built-in "(node:)?[a-z_/]+" imported by file:/,
    );
    expect(rest).toEqual([]);
    expect(r.status).toBe(0);
  });
});
