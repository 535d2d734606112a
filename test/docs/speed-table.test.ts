/** The README's speed table is written from the benchmarks' headline figures (bench/_speed.ts). */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { atOnce, bestTogether, togetherOf } from '../../bench/_measure.js';
import {
  keepLatest,
  possible,
  renderSpeedTable,
  SPEEDS,
  type SpeedKey,
  type StoredRow,
  withSpeedTable,
} from '../../bench/_speed.js';

const root = join(import.meta.dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const keys = Object.keys(SPEEDS) as SpeedKey[];

function row(key: SpeedKey, ratio: number, extra: Partial<StoredRow> = {}): StoredRow {
  return {
    key,
    ours: `ours ${key}`,
    baseline: 'base',
    ratio,
    at: '2026-11-27T10:00:00Z',
    cores: 2,
    load: 0.5,
    ...extra,
  };
}

test('the README holds one speed-table line per headline figure, in order', () => {
  const section = readme.slice(
    readme.indexOf('<!-- speed-table'),
    readme.indexOf('<!-- /speed-table'),
  );
  const whats = section
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| what '))
    .map((l) => l.split(' | ')[0]?.slice(2));
  expect(whats).toEqual(keys.map((k) => SPEEDS[k].what));
});

test('each headline figure is reported by the benchmark the table names', () => {
  for (const key of keys) {
    const source = readFileSync(join(root, 'bench', `${SPEEDS[key].bench}.bench.ts`), 'utf8');
    const helpers = ['_batch-submit.ts'].map((f) => readFileSync(join(root, 'bench', f), 'utf8'));
    const reports = [source, ...(SPEEDS[key].bench === 'batch' ? helpers : [])].some(
      (s) => s.includes('reportSpeed') && s.includes(`'${key}'`),
    );
    expect(reports, `${key} in bench/${SPEEDS[key].bench}.bench.ts`).toBe(true);
  }
});

test('a row is written with its ratio, peak RSS, goal, verdict and date; a missing one says so', () => {
  const table = renderSpeedTable([
    row('csv-full', 1.234, { peakRss: 100 * 1024 * 1024 }),
    row('lint-cold', 2.5),
  ]);
  const lines = table.split('\n');
  expect(lines).toHaveLength(2 + keys.length);
  expect(lines[2]).toBe(
    `| ${SPEEDS['csv-full'].what} | ours csv-full | ${SPEEDS['csv-full'].baseline}: base | 1.23× | 100 MiB | ≥ 1.1× DuckDB | yes | 2026-11-27, 2 cores, load 0.5 |`,
  );
  expect(lines.find((l) => l.includes(SPEEDS['lint-cold'].what))).toContain(
    '| 2.50× |  | ≤ 2× | no |',
  );
  expect(lines.find((l) => l.includes(SPEEDS['csv-jobs'].what))).toContain('| not measured |');
});

test('a row of several jobs shows beside its ratio what as many one-job runs did at once', () => {
  const table = renderSpeedTable([row('csv-jobs', 1.634, { together: 1.661 })]);
  const line = table.split('\n').find((l) => l.includes(SPEEDS['csv-jobs'].what));
  expect(line).toContain('| 1.63× (runs at once: 1.66×) |');
  // The goal is the goal: a ratio near what separate runs did, but under it, is not met.
  expect(line).toContain('| ≥ 1.7× on 2 cores | no |');
});

test('a goal with a memory bound is not met above 150 MB, whatever the ratio', () => {
  expect(SPEEDS['parquet-full'].met(row('parquet-full', 1.5, { peakRss: 149e6 }))).toBe(true);
  expect(SPEEDS['parquet-full'].met(row('parquet-full', 1.5, { peakRss: 151e6 }))).toBe(false);
  expect(SPEEDS.normalize.met(row('normalize', 0.5, { rate: 120, peakRss: 100e6 }))).toBe(true);
  expect(SPEEDS.normalize.met(row('normalize', 5, { rate: 90, peakRss: 100e6 }))).toBe(false);
});

test('the latest figure of each kind is kept, in table order; the rest of the README is untouched', () => {
  const kept = keepLatest([row('lint-cold', 3), row('csv-full', 1)], [row('lint-cold', 1.9)]);
  expect(kept.map((r) => [r.key, r.ratio])).toEqual([
    ['csv-full', 1],
    ['lint-cold', 1.9],
  ]);
  const written = withSpeedTable(readme, renderSpeedTable(kept));
  const outside = (s: string) => s.replace(/<!-- speed-table[\s\S]*<!-- \/speed-table -->/, '');
  expect(outside(written)).toBe(outside(readme));
  expect(written).toContain('| 1.90× |');
  expect(() => withSpeedTable('# no table', 'x')).toThrow(/markers/);
});

test('runs at once report their own times; together they did the work of each against one alone', async () => {
  const times = await atOnce(2, [
    '-e',
    'console.log("warming up"); console.log(JSON.stringify({ ms: 1250 }))',
  ]);
  expect(times).toEqual([1250, 1250]);
  // Two runs that each took 1.25 s where one alone took 1 s: 1.6 runs' work a second.
  expect(togetherOf(1000, times)).toBeCloseTo(1.6);
  expect(togetherOf(1000, [1000, 1000])).toBe(2);
  // One done at 1.25 s, the other at 1.5 s: the other had 0.25 s left alone, a quarter of
  // the work, so 1.75 runs' work in the 1.25 s both ran: 1.4 a second.
  expect(togetherOf(1000, [1250, 1500])).toBeCloseTo(1.4);
  await expect(atOnce(1, ['-e', 'process.exit(3)'])).rejects.toThrow(/exited with 3/);
  // Rounds of runs at once: the most any round did. The run takes 2 s the first time, 1 s after.
  const dir = mkdtempSync(join(tmpdir(), 'importkit-speed-table-'));
  try {
    const seen = join(dir, 'seen');
    const script = `const f = ${JSON.stringify(seen)}; const fs = require('node:fs');
      const again = fs.existsSync(f); fs.writeFileSync(f, '1');
      console.log(JSON.stringify({ ms: again ? 1000 : 2000 }));`;
    expect(await bestTogether(1, ['-e', script], 1000, 1)).toBe(0.5);
    expect(await bestTogether(1, ['-e', script], 1000, 2)).toBe(1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a row whose runs at once did more than one a core is not kept: its one-job run was slowed', () => {
  expect(possible(row('tdms-jobs', 2.03, { together: 2.61 }), 2)).toBe(false);
  expect(possible(row('tdms-jobs', 1.75, { together: 1.87 }), 2)).toBe(true);
  expect(possible(row('tdms-jobs', 1.75, { together: 2.01 }), 2)).toBe(true);
  expect(possible(row('csv-full', 1.06), 2)).toBe(true);
});
