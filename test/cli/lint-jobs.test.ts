/**
 * `importkit lint` of many files with --jobs: the same output and exit status at any job
 * count, from 1 (this thread alone) to 4 (three worker threads beside it), and without
 * `--jobs` (workers only once they pay for their start), for folders of valid and invalid
 * configs. Runs the compiled CLI (workers load the compiled worker), and
 * the source CLI in this process (where a worker cannot start: its runs are linted here).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { lintRun, MIN_FILES_FOR_WORKERS } from '../../src/cli/commands/_lint-jobs.js';
import { lintFile } from '../../src/cli/commands/lint.js';
import type { Io } from '../../src/cli/io.js';
import { MIN_MEMBERS_FOR_WORKERS } from '../../src/values/index.js';
import { ensureBuilt } from '../helpers/built.js';
import { runCli } from '../helpers/cli.js';
import { repoRoot } from '../helpers/paths.js';
import { runsBesideAWorker } from '../helpers/worker-runs.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-lint-jobs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => ensureBuilt('dist/src/cli/commands/_lint-worker.js'), 300_000);
let n = 0;

const GOOD = [
  'csvConfig:',
  '  assetName: a',
  '  firstDataRow: 2',
  '  timeColumn:',
  '    columnNumber: 1',
  '    format: TIME_FORMAT_ABSOLUTE_RFC3339',
  '  dataColumns:',
  '    "2":',
  '      name: speed',
  '      dataType: CHANNEL_DATA_TYPE_DOUBLE',
  '',
].join('\n');
const BAD = [
  'csvConfig:\n  assetName: a\n  firstDataRow: -1\n',
  'csvConfig:\n  asetName: a\n',
  'csvConfig: [unclosed\n',
  '{"csvConfig": {"assetName": 1}}',
];

/** A folder of `count` configs: valid ones, and the bad ones at the places `bad` picks. */
function folderOf(count: number, bad: Array<[number, number]>): string {
  n += 1;
  const folder = join(dir, `configs-${n}`);
  mkdirSync(folder);
  const texts = Array.from({ length: count }, () => GOOD);
  for (const [at, which] of bad) texts[at % count] = BAD[which % BAD.length] as string;
  texts.forEach((t, i) => {
    writeFileSync(
      join(folder, `c-${String(i).padStart(4, '0')}.${t.startsWith('{') ? 'json' : 'yaml'}`),
      t,
    );
  });
  return folder;
}

function runBin(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(repoRoot, 'bin', 'importkit.js'), ...args], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const badArb = fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 6 });

describe('lint --jobs', () => {
  test('lint shares a walk with workers from as many files as check and infer do', () => {
    expect(MIN_FILES_FOR_WORKERS).toBe(MIN_MEMBERS_FOR_WORKERS);
  });

  test('the compiled CLI prints the same at jobs 1 to 4', () => {
    fc.assert(
      fc.property(badArb, fc.constantFrom('text', 'json'), (bad, reporter) => {
        const folder = folderOf(MIN_FILES_FOR_WORKERS + 40, bad);
        const one = runBin(['lint', folder, '--jobs', '1', '--reporter', reporter, '--verbose']);
        expect(one.status).toBe(bad.length > 0 ? 1 : 0);
        for (const jobs of [['--jobs', '2'], ['--jobs', '3'], ['--jobs', '4'], []]) {
          const r = runBin(['lint', folder, ...jobs, '--reporter', reporter, '--verbose']);
          expect(r).toEqual(one);
        }
        rmSync(folder, { recursive: true, force: true });
      }),
      { numRuns: 3 },
    );
  }, 240_000);

  test('in this process (no worker can start) the output is the one of --jobs 1', async () => {
    const folder = folderOf(MIN_FILES_FOR_WORKERS + 5, [
      [3, 0],
      [200, 2],
    ]);
    const one = await runCli(dir, ['lint', folder, '--jobs', '1']);
    const three = await runCli(dir, ['lint', folder, '--jobs', '3']);
    expect(three).toEqual(one);
    expect(one.code).toBe(1);
  }, 60_000);

  test('a worker lints the runs it is given as this thread does', async () => {
    const folder = folderOf(8 * 32, [
      [5, 0],
      [70, 1],
      [140, 2],
      [230, 3],
    ]);
    const files = readdirSync(folder)
      .sort()
      .map((f) => join(folder, f));
    const runs = Array.from({ length: 8 }, (_, k) => files.slice(k * 32, (k + 1) * 32));
    const input = { cwd: dir, failOn: 'error' };
    const here = (run: string[]) => lintRun(run, (f) => lintFile(f, { cwd: dir } as Io, 'error'));
    const { got, here: readHere } = await runsBesideAWorker(
      new URL('../../src/cli/commands/_lint-worker.js', import.meta.url),
      input,
      runs,
      here,
    );
    expect(readHere).toBeLessThan(runs.length);
    for (const [k, run] of runs.entries()) expect(got[k]).toEqual(await here(run));
  }, 60_000);
});
