/**
 * `inferBatch` of a folder of many files on several threads (infer/batch-threads.ts) drafts
 * what one thread drafts, field for field: the batch config, its issues and evidence, the
 * files listed, whatever the jobs, with its workers started at once or once they pay. The
 * small folders of the property are inferred before a worker has loaded; the worker's own
 * inference of the runs it is given is compared apart.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, expect, test } from 'vitest';
import { inferRun } from '../../src/infer/batch-threads.js';
import { inferBatch } from '../../src/infer/index.js';
import { MIN_MEMBERS_FOR_WORKERS } from '../../src/values/index.js';
import { runsBesideAWorker } from '../helpers/worker-runs.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-infer-threads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

/** What a member is: files of two shapes (two defaults), odd ones, and files left out. */
const memberArb = fc.constantFrom(
  'temp and count',
  'temp and count',
  'pressure only',
  'day-first dates',
  'no rows',
  'not text',
  'notes.txt',
);
type Member = typeof memberArb extends fc.Arbitrary<infer T> ? T : never;

function bytesOf(kind: Member, i: number): string | Uint8Array {
  if (kind === 'not text') return Uint8Array.from({ length: 64 }, (_, k) => (k * 7 + i) % 256);
  if (kind === 'no rows') return 'time,temp\n';
  if (kind === 'notes.txt') return `notes ${i}\n`;
  const rows = [kind === 'pressure only' ? 'time,pressure' : 'time,temp,count'];
  for (let r = 0; r < 5; r++) {
    const time =
      kind === 'day-first dates' ? `${13 + r}/05/2024 10:00:0${r}` : `2024-05-01T00:00:0${r}Z`;
    rows.push(kind === 'pressure only' ? `${time},${1000 + r + i}` : `${time},${(i + r) / 2},${r}`);
  }
  return `${rows.join('\n')}\n`;
}

function folderOf(kinds: Member[]): string {
  const root = join(dir, `f${n++}`);
  for (const [i, kind] of kinds.entries()) {
    const sub = join(root, `day-${i % 3}`);
    mkdirSync(sub, { recursive: true });
    const ext = kind === 'notes.txt' ? 'txt' : kind === 'not text' ? 'bin' : 'csv';
    writeFileSync(join(sub, `run-${String(i).padStart(4, '0')}.${ext}`), bytesOf(kind, i));
  }
  return root;
}

test('a folder of many files: the same draft for jobs 1, 2 and 4, and with workers as they pay', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(memberArb, {
        minLength: MIN_MEMBERS_FOR_WORKERS,
        maxLength: MIN_MEMBERS_FOR_WORKERS + 20,
      }),
      async (kinds) => {
        const root = folderOf(kinds);
        const one = await inferBatch(root, { jobs: 1 });
        expect(one.listed.length).toBeGreaterThan(0);
        for (const [jobs, threadsAsTheyPay] of [
          [2, false],
          [4, false],
          [2, true],
        ] as const) {
          const seen: number[] = [];
          const many = await inferBatch(root, {
            jobs,
            threadsAsTheyPay,
            onFiles: (done, total) => seen.push(done, total),
          });
          expect(many).toEqual(one);
          expect(seen.slice(-2)).toEqual([kinds.length, kinds.length]);
        }
        rmSync(root, { recursive: true, force: true });
      },
    ),
    { numRuns: 2 },
  );
}, 120_000);

test('a worker infers the runs it is given as this thread does', async () => {
  const kinds = Array.from(
    { length: 8 * 32 },
    (_, i) => ['temp and count', 'pressure only', 'day-first dates', 'notes.txt'][i % 4] as Member,
  );
  const root = folderOf(kinds);
  const input = { root, options: {} };
  const paths = kinds.map((kind, i) => {
    const ext = kind === 'notes.txt' ? 'txt' : 'csv';
    return `day-${i % 3}/run-${String(i).padStart(4, '0')}.${ext}`;
  });
  const runs = Array.from({ length: 8 }, (_, k) => paths.slice(k * 32, (k + 1) * 32));
  const { got, here } = await runsBesideAWorker(
    new URL('../../src/infer/batch-worker.js', import.meta.url),
    input,
    runs,
    (run) => inferRun(input, run),
  );
  expect(here).toBeLessThan(runs.length);
  for (const [k, run] of runs.entries()) expect(got[k]).toEqual(await inferRun(input, run));
  rmSync(root, { recursive: true, force: true });
}, 60_000);
