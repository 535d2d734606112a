/**
 * The work of `config.test.ts`, point 5b: `lint` of a config whose one map has n keys, and
 * the reading of such a map, for the test to time in a Node process of its own (see
 * `test/helpers/doubling-apart.ts`).
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../src/cli/run.js';
import { parseConfigSource } from '../../src/validate/index.js';
import type { DoublingCases } from '../helpers/doubling-apart.js';

let dir = '';
export async function setup(): Promise<void> {
  dir = await mkdtemp(join(tmpdir(), 'importkit-security-lint-'));
}
export async function teardown(): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

const time = 'timeColumn: { columnNumber: 1, format: TIME_FORMAT_ABSOLUTE_RFC3339 }';
/** A map of n keys, written as config text: the names are the tests'. */
export const shapes: Array<[string, (n: number) => string]> = [
  [
    'valid data columns (YAML)',
    (n) =>
      `csvConfig:\n  assetName: a\n  firstDataRow: 2\n  ${time}\n  dataColumns:\n${Array.from(
        { length: n },
        (_, i) => `    "${i + 2}": { name: c${i}, dataType: CHANNEL_DATA_TYPE_DOUBLE }\n`,
      ).join('')}`,
  ],
  [
    'unknown keys, each an issue (YAML)',
    (n) => `${Array.from({ length: n }, (_, i) => `k${i}: ${i}\n`).join('')}csvConfig: {}\n`,
  ],
  [
    'unknown keys, each an issue (JSON)',
    (n) => `{${Array.from({ length: n }, (_, i) => `"k${i}": ${i}`).join(', ')}, "csvConfig": {}}`,
  ],
  [
    'a duplicate key at the end (YAML)',
    (n) => `csvConfig:\n${Array.from({ length: n }, (_, i) => `  k${i}: 1\n`).join('')}  k0: 2\n`,
  ],
];

/** `importkit lint` of the shape's text of size n, written to a file: 0 for a valid one. */
function lint(name: string, shape: (n: number) => string) {
  return async (n: number) => {
    const file = join(dir, `c-${n}.${name.includes('JSON') ? 'json' : 'yaml'}`);
    await writeFile(file, shape(n));
    const io = { stdout: { write: () => {} }, stderr: { write: () => {} }, env: {}, cwd: dir };
    const code = await run(['lint', file], io);
    assert.equal(code, name.startsWith('valid') ? 0 : 1);
  };
}

const manyKeys = (n: number) =>
  `csvConfig:\n${Array.from({ length: n }, (_, i) => `  k${i}: 1\n`).join('')}  k0: 2\n`;

export const cases: DoublingCases = {
  ...Object.fromEntries(shapes.map(([name, shape]) => [name, { f: lint(name, shape), n: 500 }])),
  // The reader checked duplicates pairwise.
  'reading a map of many keys': {
    f: (n) => assert.ok(parseConfigSource(manyKeys(n))),
    n: 3000,
  },
};
