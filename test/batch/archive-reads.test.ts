/**
 * `checkBatch` reads an archive once: the walk checks each listed member in place, through
 * its byte source, and detects the others from their heads, instead of unpacking first and
 * walking again. Counted with the process's read bytes (Linux /proc/self/io `rchar`):
 * checking the archive reads about the archive once (of a compressed one, its compressed
 * bytes), and the same issues come out as from its folder.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, test } from 'vitest';
import { zipBytes } from '../../scripts/fixtures/zip-writer.js';
import { checkBatch } from '../../src/check/index.js';
import { inferBatch } from '../../src/infer/batch.js';
import { tarOf } from '../helpers/archives.js';

const tmp = mkdtempSync(join(tmpdir(), 'importkit-archive-reads-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function csv(rows: number, seed: number): Buffer {
  const lines = ['time,temp,pressure'];
  for (let r = 0; r < rows; r += 1)
    lines.push(`${1_700_000_000_000 + r * 10},${((r * 37 + seed) % 1000) / 10},${1000 + (r % 97)}`);
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** Bytes this process has read through read syscalls so far (files, pipes, sockets). */
function readBytes(): number {
  const line = readFileSync('/proc/self/io', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('rchar:'));
  return Number(line?.split(/\s+/)[1]);
}

// Two listed CSVs of about 2 MiB and one present but not listed (only its head is read).
const files: Array<[string, Uint8Array]> = [
  ['day 1/run.csv', csv(60_000, 1)],
  ['day 2/run é.csv', csv(60_000, 2)],
  ['extra.csv', csv(30_000, 3)],
];
const folder = join(tmp, 'set');
for (const [name, data] of files) {
  mkdirSync(join(folder, dirname(name)), { recursive: true });
  writeFileSync(join(folder, name), data);
}
const archives: Record<string, Buffer> = {
  'set.zip (stored)': zipBytes(files.map(([name, data]) => ({ name, data, method: 0 }))),
  'set.zip (deflated)': zipBytes(files.map(([name, data]) => ({ name, data, method: 8 }))),
  'set.tar': await tarOf(files),
  'set.tar.gz': gzipSync(await tarOf(files)),
};

describe.runIf(existsSync('/proc/self/io'))('checkBatch reads an archive once', () => {
  for (const [label, bytes] of Object.entries(archives)) {
    test(label, async () => {
      const path = join(tmp, label.replace(/ .*/, ''));
      writeFileSync(path, bytes);
      const draft = await inferBatch(folder);
      const batch = { ...draft.document.batchConfig };
      const { 'extra.csv': _, ...listed } = batch.fileConfigs ?? {};
      batch.fileConfigs = listed;
      // Once each first, so that the modules they load are not counted.
      await checkBatch(batch, folder);
      await checkBatch(batch, path);
      const r0 = readBytes();
      const fromFolder = await checkBatch(batch, folder);
      const r1 = readBytes();
      const fromArchive = await checkBatch(batch, path);
      const r2 = readBytes();
      expect(fromArchive).toEqual(fromFolder);
      expect(fromFolder.map((i) => i.code)).toEqual(['batch_file_not_listed']);
      const archiveReads = r2 - r1;
      const folderReads = r1 - r0;
      // The checkers read a member as they read a file (the CSV check reads its head twice:
      // the inspector's, then the tally's), so the archive's members are read as often as
      // the folder's files: of a stored archive about the same bytes, of a compressed one
      // fewer (its compressed bytes; a deflated member's second pass inflates it again).
      // Unpacking, then walking read the folder's bytes again on top of the archive.
      expect(archiveReads).toBeGreaterThan(0);
      expect(archiveReads).toBeLessThan(folderReads * 1.1 + 128 * 1024);
    });
  }
});
