/**
 * The shared unpacking of an archive's chosen members: exactly those, byte for byte, from a
 * zip, a tar and a tar.gz; a name that could leave the folder is refused; the inflation cap
 * holds; the private folder of `withPrivateFolder` is gone afterwards, also when its work throws.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, test } from 'vitest';
import { tarOf } from '../../scripts/fixtures/tar-writer.js';
import { zipBytes } from '../../scripts/fixtures/zip-writer.js';
import { UnpackError, unpackMembers, withPrivateFolder } from '../../src/inspect/index.js';

const tmp = mkdtempSync(join(tmpdir(), 'importkit-unpack-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const FILES: Array<[string, Buffer]> = [
  ['a.csv', Buffer.from('t,v\n1,2\n')],
  ['sub dir/b é.csv', Buffer.from('x'.repeat(5000))],
  ['skip.txt', Buffer.from('not listed\n')],
];
const LISTED = new Set(['a.csv', 'sub dir/b é.csv']);

const zip = join(tmp, 'set.zip');
writeFileSync(
  zip,
  zipBytes(FILES.map(([name, data], i) => ({ name, data, method: i % 2 ? 0 : 8 }))),
);
const tarFile = join(tmp, 'set.tar');
writeFileSync(tarFile, await tarOf(FILES));
const tgz = join(tmp, 'set.tar.gz');
writeFileSync(tgz, gzipSync(readFileSync(tarFile)));

/** Every file under `root`, by relative POSIX path. */
function listed(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) =>
      join(e.parentPath, e.name)
        .slice(root.length + 1)
        .split('\\')
        .join('/'),
    )
    .sort();
}

describe('unpackMembers', () => {
  for (const [kind, file] of [
    ['zip', zip],
    ['tar', tarFile],
    ['tar.gz', tgz],
  ] as const) {
    test(`${kind}: exactly the listed members, byte for byte`, async () => {
      const root = await mkdtemp(join(tmp, `${kind}-`));
      await unpackMembers(file, kind, root, LISTED);
      expect(listed(root)).toEqual(['a.csv', 'sub dir/b é.csv']);
      for (const [name, data] of FILES.filter(([n]) => LISTED.has(n)))
        expect(await readFile(join(root, name))).toEqual(data);
      await rm(root, { recursive: true, force: true });
    });
  }

  test('a name that leaves the folder is refused, naming it, and nothing is written', async () => {
    const name = '../evil.csv';
    const evilTar = join(tmp, 'evil.tar');
    writeFileSync(evilTar, await tarOf([[name, Buffer.from('x')]]));
    const evilZip = join(tmp, 'evil.zip');
    writeFileSync(evilZip, zipBytes([{ name, data: Buffer.from('x'), method: 0 }]));
    for (const [kind, file] of [
      ['tar', evilTar],
      ['zip', evilZip],
    ] as const) {
      const root = await mkdtemp(join(tmp, 'evil-'));
      const err = await unpackMembers(file, kind, root, new Set([name])).catch((e) => e);
      expect(err).toBeInstanceOf(UnpackError);
      expect(`${(err as UnpackError).member} ${(err as Error).message}`).toContain(name);
      expect(existsSync(join(tmp, 'evil.csv'))).toBe(false);
      expect(listed(root)).toEqual([]);
    }
  });

  test('members past the cap are refused, naming the member, before it is written', async () => {
    const big = join(tmp, 'big.tar.gz');
    const data = Buffer.alloc(20 * 1024 * 1024);
    writeFileSync(big, gzipSync(await tarOf([['zeros.csv', data]])));
    const root = await mkdtemp(join(tmp, 'big-'));
    const err = await unpackMembers(big, 'tar.gz', root, new Set(['zeros.csv']), {
      maxRatio: 2,
    }).catch((e) => e);
    expect(err).toBeInstanceOf(UnpackError);
    expect((err as UnpackError).message).toBe(
      `its members unpack to more than 2 times the archive's size (${data.byteLength} bytes by member 1, "zeros.csv"); refused as a decompression bomb`,
    );
  });
});

describe('withPrivateFolder', () => {
  test('its folder is removed afterwards, also when the work throws', async () => {
    let seen = '';
    const n = await withPrivateFolder(async (root) => {
      seen = root;
      await unpackMembers(zip, 'zip', root, LISTED);
      return listed(root).length;
    });
    expect(n).toBe(2);
    expect(existsSync(seen)).toBe(false);
    const err = await withPrivateFolder(async (root) => {
      seen = root;
      await unpackMembers(zip, 'zip', root, LISTED);
      throw new Error('boom');
    }).catch((e: Error) => e.message);
    expect(err).toBe('boom');
    expect(existsSync(seen)).toBe(false);
  });
});
