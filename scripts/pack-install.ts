/**
 * Packs this repository with `npm pack` and installs the tarball into an empty folder, as a
 * user of the package would; shared by the install test and `npm run bench -- install`.
 * The package is packed from the built `dist/` (`npm run build` first; `npm ci` does it),
 * without running the build again. Dependencies come from the npm registry, the local
 * cache first (`--prefer-offline`).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

export interface Installed {
  /** The folder the package was installed into (its `node_modules/importkit`). */
  dir: string;
  /** The packed tarball. */
  tarball: string;
  /** Size of the tarball, bytes. */
  tarballBytes: number;
}

/** The environment for npm: no update notices, no funding or audit chatter. */
function npmEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
}

/** Packs `root` into `into`, then installs the tarball into `into/app`. */
export async function packAndInstall(root: string, into: string): Promise<Installed> {
  if (!existsSync(join(root, 'dist', 'src', 'cli', 'index.js')))
    throw new Error('dist/ is not built: run `npm run build` first');
  const packed = execFileSync(
    npm,
    ['pack', '--ignore-scripts', '--json', '--pack-destination', into],
    { cwd: root, env: npmEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const [info] = JSON.parse(packed) as Array<{ filename: string; size: number }>;
  if (!info) throw new Error('npm pack printed no file');
  const tarball = join(into, info.filename);
  const dir = join(into, 'app');
  await mkdir(dir);
  await writeFile(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'app', private: true, type: 'module' }, null, 2)}\n`,
  );
  execFileSync(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], {
    cwd: dir,
    env: npmEnv(),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return { dir, tarball, tarballBytes: info.size };
}

/** Runs `npx importkit ...args` in `dir`: exit code and what it printed. */
export function npxImportkit(
  dir: string,
  args: readonly string[],
): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(npx, ['--no-install', 'importkit', ...args], {
    cwd: dir,
    env: npmEnv(),
    encoding: 'utf8',
  });
  // npm's own warnings (about the machine's npm config) are not importkit's output.
  const stderr = r.stderr
    .split('\n')
    .filter((l) => !l.startsWith('npm warn'))
    .join('\n');
  return { code: r.status ?? -1, stdout: r.stdout, stderr };
}

/** Bytes of the files under `dir` (apparent sizes, symlinks not followed). */
export async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) total += (await stat(join(e.parentPath, e.name))).size;
  }
  return total;
}
