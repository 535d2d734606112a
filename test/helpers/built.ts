/**
 * Tests that run the real binary (bin/importkit.js) run the compiled code in dist/: this
 * builds it first when it is missing or older than the sources it is built from.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { repoRoot } from './paths.js';

/** The command line's bundle (scripts/bundle-cli.ts). */
const BUNDLE = 'dist/cli/index.js';

async function newestMtime(folder: string): Promise<number> {
  let newest = 0;
  for (const f of await readdir(folder, { recursive: true })) {
    if (f.endsWith('.ts')) newest = Math.max(newest, statSync(join(folder, f)).mtimeMs);
  }
  return newest;
}

/**
 * Builds dist/ as `npm run build` does (the compiler, then the command line's bundle in
 * dist/cli/, which bin/importkit.js runs) unless `built` (a path under dist/) and the
 * bundle are newer than every source file of src/ (any of them may be on the path the
 * compiled code runs: a stage list went stale once the formats moved into their own folder).
 */
export async function ensureBuilt(built: string): Promise<void> {
  const sources = await newestMtime(join(repoRoot, 'src'));
  const fresh = (path: string) => {
    const target = join(repoRoot, path);
    return existsSync(target) && statSync(target).mtimeMs >= sources;
  };
  if (fresh(built) && fresh(BUNDLE)) return;
  // tsc emits even when files of other stages still have type errors; the exit code is not ours.
  spawnSync(
    process.execPath,
    [join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
    { cwd: repoRoot, stdio: 'ignore' },
  );
  spawnSync(process.execPath, [join(repoRoot, 'dist', 'scripts', 'bundle-cli.js')], {
    cwd: repoRoot,
    stdio: 'ignore',
  });
}
