/**
 * A member inflated once into a private temp file, for a member a stream passes only once
 * (a large member of a tar.gz, which can only be read again by inflating the archive from
 * its start): the file is created exclusively (`wx`, mode 0600) in a new private folder
 * (mkdtemp, 0700) under the system's temp folder, and removed with its folder once the
 * member's visit ends, whatever its outcome. Memory stays at a chunk whatever the size.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

/** A member written to disk: its file, and how to remove it. */
export interface Spilled {
  file: string;
  remove(): Promise<void>;
}

/** Writes `chunks` (a member's bytes, in order) to a new private file. */
export async function spill(chunks: AsyncIterable<unknown>): Promise<Spilled> {
  const folder = await mkdtemp(join(tmpdir(), 'importkit-member-'));
  const remove = () => rm(folder, { recursive: true, force: true });
  const file = join(folder, 'member');
  try {
    await pipeline(chunks, createWriteStream(file, { flags: 'wx', mode: 0o600 }));
  } catch (err) {
    await remove();
    throw err;
  }
  return { file, remove };
}
