/**
 * The work of `csv-structure.test.ts`'s width test: a check of a 5-row CSV of n columns,
 * every column configured, for the test to time in a Node process of its own (see
 * `test/helpers/doubling-apart.ts`).
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkConfig } from '../../src/check/index.js';
import type { ImportDocument } from '../../src/model/document.js';
import type { DoublingCases } from '../helpers/doubling-apart.js';

let dir = '';
export async function setup(): Promise<void> {
  dir = await mkdtemp(join(tmpdir(), 'importkit-check-wide-'));
}
export async function teardown(): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** A CsvConfig of an RFC 3339 time column and `columns` INT_32 columns after it. */
export const doc = (columns = 1): ImportDocument => ({
  csvConfig: {
    assetName: 'a',
    firstDataRow: 2,
    timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_RFC3339' },
    dataColumns: Object.fromEntries(
      Array.from({ length: columns }, (_, c) => [
        String(c + 2),
        { name: `v${c + 2}`, dataType: 'CHANNEL_DATA_TYPE_INT_32' as const },
      ]),
    ),
  },
});

/** The file of n columns and its config, written once per size (by the warm-up run). */
const made = new Map<number, Promise<[string, ImportDocument]>>();
async function wide(n: number): Promise<[string, ImportDocument]> {
  const path = join(dir, `wide-${n}.csv`);
  const header = ['time', ...Array.from({ length: n - 1 }, (_, c) => `v${c + 2}`)];
  const rows = Array.from({ length: 5 }, (_, i) => {
    const t = new Date(Date.UTC(2024, 2, 1) + i * 1000).toISOString();
    return [t, ...Array(n - 1).fill(String(i))].join(',');
  });
  await writeFile(path, `${header.join(',')}\n${rows.join('\n')}\n`);
  return [path, doc(n - 1)];
}

export const cases: DoublingCases = {
  columns: {
    f: async (n) => {
      const [path, document] = await (made.get(n) ?? made.set(n, wide(n)).get(n) ?? wide(n));
      const found = await checkConfig(document, path);
      assert.deepEqual(
        found.filter((i) => i.severity === 'error'),
        [],
      );
    },
    n: 1250,
  },
};
