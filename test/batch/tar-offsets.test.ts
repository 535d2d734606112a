/**
 * A plain tar is read by member offsets: its headers are walked with positioned reads and a
 * member's bytes are read in place, so what is not needed of a large member is never read;
 * a tar cut inside a member names the archive and that member.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { inferBatch } from '../../src/infer/batch.js';
import { tarMembers } from '../../src/inspect/archive/tar-index.js';
import { memorySource } from '../../src/inspect/byte-source.js';
import { InspectError } from '../../src/inspect/index.js';
import { tarOf } from '../helpers/archives.js';
import { repoRoot } from '../helpers/paths.js';

const tmp = mkdtempSync(join(tmpdir(), 'importkit-tar-offsets-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const parquet = readFileSync(join(repoRoot, 'fixtures', 'parquet', 'all-types.parquet'));
const csv = Buffer.from('time,temp\n2024-01-01T00:00:00Z,1.5\n2024-01-01T00:00:01Z,2.5\n');
/** A large binary member: only its head is needed to leave it out. */
const blob = Buffer.alloc(8 * 1024 * 1024, 7);

test('a plain tar: only the headers and the bytes the inspectors need are read', async () => {
  const long = `${'deep/'.repeat(30)}table.parquet`;
  const bytes = await tarOf([
    ['blob.bin', blob],
    [long, parquet],
    ['run.csv', csv],
  ]);
  const path = join(tmp, 'set.tar');
  writeFileSync(path, bytes);
  const draft = await inferBatch(path);
  expect(Object.keys(draft.document.batchConfig?.fileConfigs ?? {}).sort()).toEqual([
    long,
    'run.csv',
  ]);
  // A stream would read all of it; in place, the blob's 8 MiB stay unread.
  expect(draft.archiveBytesRead).toBeLessThan(blob.byteLength / 8);
});

test('the header walk gives every member with its offset and size (PAX long names too)', async () => {
  const long = `${'é/'.repeat(80)}x.csv`;
  const bytes = await tarOf([
    ['a.csv', csv],
    [long, parquet],
  ]);
  const members = await tarMembers(memorySource(bytes, 'set.tar'));
  expect(members.map((m) => [m.path, m.size])).toEqual([
    ['a.csv', csv.byteLength],
    [long, parquet.byteLength],
  ]);
  for (const [m, data] of [
    [members[0], csv],
    [members[1], parquet],
  ] as const) {
    const at = m?.dataStart ?? 0;
    expect(bytes.subarray(at, at + data.byteLength).equals(data)).toBe(true);
  }
});

test('a plain tar cut inside a member names the archive and the member', async () => {
  const bytes = await tarOf([
    ['a.csv', csv],
    ['cut.parquet', parquet],
  ]);
  const path = join(tmp, 'cut.tar');
  writeFileSync(path, bytes.subarray(0, 1024 + 512 + 100));
  const err = await inferBatch(path).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(InspectError);
  expect((err as InspectError).code).toBe('archive_corrupt');
  expect((err as InspectError).message).toMatch(
    /cut\.tar: member cut\.parquet: the archive is truncated or damaged \(the member runs past the end of the archive\)/,
  );
});
