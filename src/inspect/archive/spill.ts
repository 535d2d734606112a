/**
 * A member inflated once into a private temp file, for a member a stream passes only once
 * (a large member of a tar.gz, which can only be read again by inflating the archive from
 * its start) or one a reader in another thread reads at random (a large deflated zip member
 * the HDF5 library reads: ByteSource.spill): the file is created exclusively (`wx`, mode
 * 0600) in a new private folder (mkdtemp, 0700) under the system's temp folder, and removed
 * with its folder once the member's visit ends, whatever its outcome; a process that exits
 * or is interrupted (SIGINT, SIGTERM, SIGHUP) before then removes it on its way out. Memory
 * stays at a chunk whatever the size.
 */
import { createWriteStream, rmSync } from 'node:fs';
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
  holding(folder);
  const remove = async () => {
    await rm(folder, { recursive: true, force: true });
    released(folder);
  };
  const file = join(folder, 'member');
  try {
    await pipeline(chunks, createWriteStream(file, { flags: 'wx', mode: 0o600 }));
  } catch (err) {
    await remove();
    throw err;
  }
  return { file, remove };
}

/** The folders of the files spilled and not yet removed. */
const live = new Set<string>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function holding(folder: string): void {
  if (live.size === 0) {
    process.on('exit', removeAllNow);
    for (const s of SIGNALS) process.on(s, onSignal);
  }
  live.add(folder);
}

function released(folder: string): void {
  if (live.delete(folder) && live.size === 0) unhook();
}

function unhook(): void {
  process.off('exit', removeAllNow);
  for (const s of SIGNALS) process.off(s, onSignal);
}

/** On the way out: every folder still there removed (synchronously: nothing else runs). */
function removeAllNow(): void {
  for (const folder of live) rmSync(folder, { recursive: true, force: true });
  live.clear();
}

/**
 * A signal while files are spilled: they are removed, then the signal does what it would
 * have done: nothing more when another listener handles it (the command that set it up
 * decides), else the process ends by it, as without this listener.
 */
function onSignal(signal: NodeJS.Signals): void {
  removeAllNow();
  unhook();
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}
