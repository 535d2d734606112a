/**
 * Cold start: `importkit lint one.yaml` (the compiled CLI from dist, a new process each
 * time, as a pre-commit hook or an editor runs it) beside `node -e 0`, the floor any Node
 * program pays. Runs alternate so both see the same machine load; medians of 10.
 * Goal: lint ≤ 2.5 × node -e 0.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataDir, table } from './_measure.js';

const RUNS = 10;
const bin = join(import.meta.dirname, '..', '..', 'bin', 'importkit.js');

/** A typical one-file config: a CSV import of twelve channels. */
function oneConfig(): string {
  const lines = [
    'csvConfig:',
    '  assetName: rig-7',
    '  runName: bench run',
    '  firstDataRow: 2',
    '  timeColumn:',
    '    columnNumber: 1',
    '    format: TIME_FORMAT_ABSOLUTE_RFC3339',
    '  dataColumns:',
  ];
  for (let c = 0; c < 12; c++) {
    lines.push(
      `    "${c + 2}":`,
      `      name: channel_${c}`,
      `      units: ${c % 2 ? 'm/s' : 'V'}`,
      `      dataType: ${c % 4 === 0 ? 'CHANNEL_DATA_TYPE_INT_32' : 'CHANNEL_DATA_TYPE_DOUBLE'}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Wall time of one run of a new process, in ms; throws when it fails. */
function timed(args: string[]): number {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited with ${r.status}: ${r.stderr}`);
  return ms;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

const dir = join(dataDir(), 'startup');
mkdirSync(dir, { recursive: true });
const file = join(dir, 'one.yaml');
writeFileSync(file, oneConfig());

// One run of each first, so that both find the files in the page cache.
timed(['-e', '0']);
timed([bin, 'lint', file]);
const bare: number[] = [];
const lint: number[] = [];
for (let i = 0; i < RUNS; i++) {
  bare.push(timed(['-e', '0']));
  lint.push(timed([bin, 'lint', file]));
}
const base = median(bare);
const ours = median(lint);
console.log(`Median of ${RUNS} runs each, alternating; ${process.execPath} ${process.version}.\n`);
table(
  ['command', 'median ms', 'min ms', 'max ms', '× node -e 0'],
  [
    [
      'node -e 0',
      base.toFixed(0),
      Math.min(...bare).toFixed(0),
      Math.max(...bare).toFixed(0),
      '1.00',
    ],
    [
      'importkit lint one.yaml',
      ours.toFixed(0),
      Math.min(...lint).toFixed(0),
      Math.max(...lint).toFixed(0),
      (ours / base).toFixed(2),
    ],
  ],
);
console.log(`\nGoal: ≤ 2.50 × node -e 0; ${ours / base <= 2.5 ? 'met' : 'NOT met'} in this run.`);
