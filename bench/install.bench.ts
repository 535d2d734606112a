/**
 * What a user downloads: `npm pack`, the tarball installed into an empty folder (its
 * dependencies from the npm registry, the local cache first), the size of that folder's
 * node_modules, and the time of `npx importkit lint` on one file there, cold (the first
 * run after the install) and warm. Baselines in the same run: `node -e 0` (the floor of
 * any Node command) and node_modules with the runtime dependencies importkit had before
 * they were trimmed (apache-arrow, parquet-wasm, ajv-formats) added back.
 * Needs a built dist/ (`npm run bench` builds it).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { folderBytes, npxImportkit, packAndInstall } from '../scripts/pack-install.js';
import { fmtBytes, table } from './_measure.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'importkit-bench-install-'));

function timed(fn: () => void): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

/** The largest packages under node_modules, by bytes. */
async function largest(modules: string, n: number): Promise<Array<[string, number]>> {
  const names = readdirSync(modules).flatMap((d) =>
    d.startsWith('@')
      ? readdirSync(join(modules, d)).map((s) => `${d}/${s}`)
      : d.startsWith('.')
        ? []
        : [d],
  );
  const sized = await Promise.all(
    names.map(async (name) => [name, await folderBytes(join(modules, name))] as [string, number]),
  );
  return sized.sort((a, b) => b[1] - a[1]).slice(0, n);
}

try {
  const installed = await packAndInstall(root, scratch);
  copyFileSync(join(root, 'fixtures', 'examples', 'csv.yaml'), join(installed.dir, 'csv.yaml'));
  const modules = join(installed.dir, 'node_modules');
  const size = await folderBytes(modules);
  const packages = readdirSync(modules).filter((d) => !d.startsWith('.')).length;

  let code = 0;
  const cold = timed(() => {
    code = npxImportkit(installed.dir, ['lint', 'csv.yaml']).code;
  });
  if (code !== 0) throw new Error(`npx importkit lint exited ${code}`);
  const warm = median(
    Array.from({ length: 5 }, () => timed(() => npxImportkit(installed.dir, ['lint', 'csv.yaml']))),
  );
  const direct = median(
    Array.from({ length: 5 }, () =>
      timed(() =>
        spawnSync(
          process.execPath,
          [join(modules, 'importkit', 'bin', 'importkit.js'), 'lint', 'csv.yaml'],
          {
            cwd: installed.dir,
          },
        ),
      ),
    ),
  );
  const node = median(
    Array.from({ length: 5 }, () => timed(() => spawnSync(process.execPath, ['-e', '0']))),
  );
  const top = await largest(modules, 6);

  execFileSync(
    'npm',
    [
      'install',
      '--no-save',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      'apache-arrow@^21.2.0',
      'parquet-wasm@^0.8.0',
      'ajv-formats@^3.0.1',
    ],
    { cwd: installed.dir, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const before = await folderBytes(modules);

  table(
    ['what', 'value'],
    [
      ['tarball (npm pack)', fmtBytes(installed.tarballBytes)],
      ['node_modules after installing the tarball', `${fmtBytes(size)} (${packages} packages)`],
      [
        '  with the dependencies trimmed added back',
        `${fmtBytes(before)} (ours is ${(size / before).toFixed(2)}×)`,
      ],
      ['  largest', top.map(([n, b]) => `${n} ${fmtBytes(b)}`).join(', ')],
      ['npx importkit lint, cold (first run after install)', `${cold.toFixed(0)} ms`],
      ['npx importkit lint, warm (median of 5)', `${warm.toFixed(0)} ms`],
      ['node bin/importkit.js lint, warm (median of 5)', `${direct.toFixed(0)} ms`],
      [
        'baseline: node -e 0 (median of 5)',
        `${node.toFixed(0)} ms (npx lint warm is ${(warm / node).toFixed(1)}×)`,
      ],
    ],
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
