/**
 * Runs every benchmark (`bench/*.bench.ts`, compiled to dist/bench) in its own process,
 * so each one's peak memory is its own. `npm run bench` runs all; `npm run bench -- csv`
 * runs those whose name contains `csv`. Each benchmark prints its own table, with its
 * baseline measured in the same run.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const benches = readdirSync(here)
  .filter((f) => f.endsWith('.bench.js'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

if (benches.length === 0) {
  console.error(`no benchmark matches ${filters.join(' ')}`);
  process.exit(2);
}
let failed = 0;
for (const file of benches) {
  console.log(`\n## ${file.replace(/\.bench\.js$/, '')}\n`);
  const r = spawnSync(process.execPath, ['--expose-gc', join(here, file)], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed += 1;
    console.error(`${file} exited with ${r.status ?? r.signal}`);
  }
}
process.exit(failed === 0 ? 0 : 1);
