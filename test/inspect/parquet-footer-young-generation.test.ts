/**
 * A Parquet footer of many row groups is decoded with V8's young generation held at its
 * size (inspect/young-generation.ts): its objects outlive the decode, and V8 would grow the
 * young generation to hold them and keep it that large. Measured in a fresh process running
 * the compiled code (a process that loads the TypeScript sources has grown its young
 * generation to its largest before the test could look): the footer's decode leaves the young
 * generation as it found it, and the same footer decoded by hyparquet directly, after it,
 * grows it, which shows the footer is large enough to tell, and the flag set back.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ensureBuilt } from '../helpers/built.js';
import { repoRoot } from '../helpers/paths.js';

let dir: string;

beforeAll(async () => {
  await ensureBuilt('dist/src/formats/parquet/footer.js');
  dir = await mkdtemp(join(tmpdir(), 'importkit-young-'));
}, 300_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A file of `groups` row groups of 2 rows: a footer of about 180 bytes a group. */
function manyGroups(groups: number): Uint8Array {
  const rows = groups * 2;
  return new Uint8Array(
    parquetWriteBuffer({
      rowGroupSize: 2,
      columnData: [
        {
          name: 't',
          type: 'INT64',
          data: BigInt64Array.from({ length: rows }, (_, i) => BigInt(i)),
        },
        { name: 'a', type: 'DOUBLE', data: Float64Array.from({ length: rows }, (_, i) => i / 3) },
        { name: 'b', type: 'STRING', data: Array.from({ length: rows }, (_, i) => `s${i % 7}`) },
      ],
    }),
  );
}

const module = (path: string) => JSON.stringify(pathToFileURL(join(repoRoot, path)).href);

/** In a fresh process: the young generation's size before and after each decode of `file`. */
function sizesAround(file: string) {
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    import { readFileSync } from 'node:fs';
    import { parquetMetadata } from 'hyparquet';
    const { readParquetFooter } = await import(${module('dist/src/formats/parquet/footer.js')});
    const { memorySource } = await import(${module('dist/src/inspect/byte-source.js')});
    const young = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
    const bytes = new Uint8Array(readFileSync(${JSON.stringify(file)}));
    const before = young();
    const footer = await readParquetFooter(memorySource(bytes, 'many-groups.parquet'));
    const held = young();
    const again = parquetMetadata(bytes);
    console.log(JSON.stringify({
      groups: footer.metadata.row_groups.length,
      footerLength: footer.footerLength,
      before,
      held,
      after: young(),
      same: again.row_groups.length,
    }));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '--eval', script], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as {
    groups: number;
    footerLength: number;
    before: number;
    held: number;
    after: number;
    same: number;
  };
}

test('a footer of 1,000 row groups is decoded without growing the young generation', async () => {
  const file = join(dir, 'many-groups.parquet');
  await writeFile(file, manyGroups(1000));
  const s = sizesAround(file);
  expect(s.groups).toBe(1000);
  expect(s.same).toBe(1000);
  // Over the 64 KiB from which the decode holds the young generation.
  expect(s.footerLength).toBeGreaterThan(64 * 1024);
  expect(s.held).toBe(s.before);
  expect(s.after).toBeGreaterThan(s.before);
}, 60_000);
