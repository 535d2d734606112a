/**
 * `checkBatch` of a folder of many members on several threads (check/batch-threads.ts) finds
 * what one thread finds, issue for issue and in the same order, whatever the jobs, with
 * its workers started at once or once they pay for their start. The small folders of the
 * property are checked before a worker has loaded; the worker's own check of the runs it is
 * given is compared apart.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, expect, test } from 'vitest';
import { examineRun } from '../../src/check/batch-threads.js';
import { checkBatch } from '../../src/check/index.js';
import type { BatchConfig } from '../../src/model/index.js';
import { MIN_MEMBERS_FOR_WORKERS } from '../../src/values/index.js';
import { runsBesideAWorker } from '../helpers/worker-runs.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-batch-threads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

/** What a member is: how it is written and how the batch lists it. */
const memberArb = fc.constantFrom(
  'fits',
  'bad value',
  'time backwards',
  'listed as TDMS',
  'not listed',
  'listed, missing',
  'own config, no such column',
  'notes.txt',
);
type Member = typeof memberArb extends fc.Arbitrary<infer T> ? T : never;

function csvOf(kind: Member, i: number): string {
  const rows = ['time,temp,count'];
  for (let r = 0; r < 6; r++) {
    const t = kind === 'time backwards' && r === 4 ? 1 : r;
    const count = kind === 'bad value' && r === 3 ? 'n/a' : String(i + r);
    rows.push(`2024-05-01T00:00:0${t}Z,${(i + r) / 2},${count}`);
  }
  return `${rows.join('\n')}\n`;
}

const DEFAULT = {
  firstDataRow: 2,
  timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_RFC3339' },
  dataColumns: {
    2: { name: 'temp', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' },
    3: { name: 'count', dataType: 'CHANNEL_DATA_TYPE_INT_32' },
  },
};

/** Writes the folder (members in two subfolders) and returns it with its batch config. */
function folderOf(kinds: Member[]): { root: string; batch: BatchConfig } {
  const root = join(dir, `f${n++}`);
  const fileConfigs: Record<string, unknown> = {};
  for (const [i, kind] of kinds.entries()) {
    const sub = `day-${i % 3}`;
    mkdirSync(join(root, sub), { recursive: true });
    const name = `${sub}/run-${String(i).padStart(4, '0')}.${kind === 'notes.txt' ? 'txt' : 'csv'}`;
    if (kind !== 'listed, missing') writeFileSync(join(root, name), csvOf(kind, i));
    if (kind === 'not listed' || kind === 'notes.txt') continue;
    if (kind === 'listed as TDMS') fileConfigs[name] = { type: 'DATA_TYPE_KEY_TDMS' };
    else if (kind === 'own config, no such column')
      fileConfigs[name] = {
        type: 'DATA_TYPE_KEY_CSV',
        csvConfig: {
          ...DEFAULT,
          dataColumns: { 9: { name: 'x', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' } },
        },
      };
    else fileConfigs[name] = { type: 'DATA_TYPE_KEY_CSV' };
  }
  return {
    root,
    batch: { assetName: 'rig', defaultCsvConfig: DEFAULT, fileConfigs } as BatchConfig,
  };
}

test('a folder of many members: the same issues for jobs 1, 2 and 4, progress to the last member', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(memberArb, {
        minLength: MIN_MEMBERS_FOR_WORKERS,
        maxLength: MIN_MEMBERS_FOR_WORKERS + 20,
      }),
      fc.boolean(),
      async (kinds, full) => {
        const { root, batch } = folderOf(kinds);
        const one = await checkBatch(batch, root, { full, jobs: 1 });
        expect(one.length).toBeGreaterThan(0);
        // Threads at once (2, 4), or a worker started once it pays (the CLI's default).
        for (const [jobs, threadsAsTheyPay] of [
          [2, false],
          [4, false],
          [2, true],
        ] as const) {
          const seen: number[] = [];
          const many = await checkBatch(batch, root, {
            full,
            jobs,
            threadsAsTheyPay,
            onProgress: (done, total) => seen.push(done, total),
          });
          expect(many).toEqual(one);
          const present = kinds.filter((k) => k !== 'listed, missing').length;
          expect(seen.slice(-2)).toEqual([present, present]);
        }
        rmSync(root, { recursive: true, force: true });
      },
    ),
    { numRuns: 2 },
  );
});

test('a worker checks the runs it is given as this thread does', async () => {
  const kinds: Member[] = ['fits', 'bad value', 'time backwards', 'listed as TDMS'];
  const all = Array.from({ length: 8 * 32 }, (_, i) => kinds[i % kinds.length] as Member);
  const { root, batch } = folderOf(all);
  const input = { batch, root, options: { full: true, jobs: 1 } };
  const paths = Object.keys(batch.fileConfigs ?? {}).sort();
  const runs = Array.from({ length: 8 }, (_, k) => paths.slice(k * 32, (k + 1) * 32));
  const { got, here } = await runsBesideAWorker(
    new URL('../../src/check/batch-worker.js', import.meta.url),
    input,
    runs,
    (run) => examineRun(input, run),
  );
  expect(here).toBeLessThan(runs.length);
  for (const [k, run] of runs.entries()) expect(got[k]).toEqual(await examineRun(input, run));
  rmSync(root, { recursive: true, force: true });
}, 60_000);
