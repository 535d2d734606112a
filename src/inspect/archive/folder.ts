import { lstatSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pushAll } from '../../model/plain.js';
import { type ByteSource, openSmallFileSource } from '../byte-source.js';
import { renamedSource } from './member-source.js';
import { createPool } from './pool.js';
import { refuseFolderName } from './rules.js';
import type { Container, ContainerMember } from './types.js';

/**
 * Every regular file under `root` (the folder `name`), by relative POSIX path; symlinks are
 * not followed; a name a zip could not hold refuses the folder (rules.ts).
 * Sizes by blocking `lstat`: awaited one after another, ten thousand took a second.
 */
async function listFiles(root: string, name: string, prefix = ''): Promise<ContainerMember[]> {
  const out: ContainerMember[] = [];
  const entries = await readdir(join(root, prefix), { withFileTypes: true });
  for (const e of entries) {
    const rel = prefix === '' ? e.name : `${prefix}/${e.name}`;
    if (e.isDirectory()) pushAll(out, await listFiles(root, name, rel));
    else if (e.isFile()) {
      refuseFolderName(name, rel);
      out.push({ path: rel, size: lstatSync(join(root, rel)).size });
    }
  }
  return out;
}

/**
 * A file of the folder at `root`, read in place, named by its path in the folder; a small
 * one with blocking reads (most files of a folder of many are small).
 */
export async function openFolderMember(root: string, path: string): Promise<ByteSource> {
  return renamedSource(await openSmallFileSource(join(root, path)), path);
}

/** A folder as a container: its files, read in place (each member's `file` is its own). */
export async function openFolder(root: string, name: string): Promise<Container> {
  const members = (await listFiles(root, name)).sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
  );
  return {
    kind: 'folder',
    name,
    bytesRead: 0,
    count: members.length,
    async walk(visit, jobs) {
      const pool = createPool(jobs);
      for (const m of members) {
        const file = join(root, m.path);
        await pool.run(() => visit({ ...m, file }, () => openFolderMember(root, m.path)));
      }
      await pool.drain();
    },
    async close() {},
  };
}
