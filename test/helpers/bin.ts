/**
 * The real `importkit` binary, for the few tests that spawn it: `bin/importkit.js` runs the
 * compiled code in dist/, so it is built first when it is missing or older than a source.
 * Test files run in parallel: one build at a time (a lock folder), the others wait for it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { repoRoot } from './paths.js';

export const BIN = join(repoRoot, 'bin', 'importkit.js');

function newestSource(folder: string): number {
  let newest = 0;
  for (const f of readdirSync(folder, { recursive: true }) as string[]) {
    if (f.endsWith('.ts')) newest = Math.max(newest, statSync(join(folder, f)).mtimeMs);
  }
  return newest;
}

function stale(): boolean {
  const built = join(repoRoot, 'dist', 'src', 'cli', 'run.js');
  return !existsSync(built) || statSync(built).mtimeMs < newestSource(join(repoRoot, 'src'));
}

/** Builds dist/ when a source is newer than it; waits while another test file builds it. */
export async function ensureBuilt(): Promise<void> {
  const lock = join(repoRoot, 'dist', '.building');
  mkdirSync(join(repoRoot, 'dist'), { recursive: true });
  for (;;) {
    if (!stale()) return;
    try {
      mkdirSync(lock);
    } catch {
      // A lock left by a run that was killed while building: older than any build takes.
      const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
      if (since !== undefined && Date.now() - since > 600_000) rmdirSync(lock);
      await sleep(250);
      continue;
    }
    try {
      if (!stale()) return;
      // tsc emits even when files of other stages still have type errors; the exit code is not ours.
      spawnSync(
        process.execPath,
        [join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
        { cwd: repoRoot, stdio: 'ignore' },
      );
      return;
    } finally {
      rmdirSync(lock);
    }
  }
}
