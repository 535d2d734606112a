/**
 * Runs every benchmark (`bench/*.bench.ts`, compiled to dist/bench) in its own process,
 * so each one's peak memory is its own. `npm run bench` runs all; `npm run bench -- csv`
 * runs those whose name contains `csv`. Each benchmark prints its own table, with its
 * baseline measured in the same run, and reports its headline figures (`_speed.ts`): they
 * are printed together at the end and the latest of each kind is kept in
 * `bench/.data/speed.json`. `npm run bench -- --readme` rewrites the README's speed table
 * from the figures kept (with benchmark names too, after running those).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataDir, table } from './_measure.js';
import {
  keepLatest,
  ROWS_ENV,
  readKept,
  readRows,
  SPEEDS,
  type StoredRow,
  writeReadmeTable,
} from './_speed.js';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const readme = args.includes('--readme');
const filters = args.filter((a) => a !== '--readme');
const benches = readdirSync(here)
  .filter((f) => f.endsWith('.bench.js'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
const kept = join(dataDir(), 'speed.json');
const fresh = join(dataDir(), 'speed-run.jsonl');

if (benches.length === 0) {
  console.error(`no benchmark matches ${filters.join(' ')}`);
  process.exit(2);
}
let failed = 0;
if (!readme || filters.length > 0) {
  rmSync(fresh, { force: true });
  for (const file of benches) {
    console.log(`\n## ${file.replace(/\.bench\.js$/, '')}\n`);
    const r = spawnSync(process.execPath, ['--expose-gc', join(here, file)], {
      stdio: 'inherit',
      env: { ...process.env, [ROWS_ENV]: fresh },
    });
    if (r.status !== 0) {
      failed += 1;
      console.error(`${file} exited with ${r.status ?? r.signal}`);
    }
  }
  summarize(readRows(fresh));
  rmSync(fresh, { force: true });
}
if (readme) {
  const path = join(here, '..', '..', 'README.md');
  writeReadmeTable(path, kept);
  console.log(`\nThe speed table of ${path} is written from ${kept}.`);
}
process.exit(failed === 0 ? 0 : 1);

/** Prints this run's headline figures and keeps them, the latest of each kind. */
function summarize(rows: StoredRow[]): void {
  if (rows.length === 0) return;
  console.log('\n## Headline figures of this run\n');
  table(
    ['what', 'ours', 'baseline (same run)', 'ratio', 'goal', 'met'],
    rows.map((r) => {
      const s = SPEEDS[r.key];
      return [
        s.what,
        r.ours,
        `${s.baseline}: ${r.baseline}`,
        `${r.ratio.toFixed(2)}×`,
        s.goal,
        s.met(r) ? 'yes' : 'no',
      ];
    }),
  );
  writeFileSync(kept, `${JSON.stringify(keepLatest(readKept(kept), rows), null, 2)}\n`);
}
