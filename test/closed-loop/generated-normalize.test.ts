/**
 * What `normalize` writes, the next stages accept: the copy of a messy CSV (day-first dates,
 * zone names, decimal commas, odd cells, repeated headers, `;` or tab or `|`, a BOM, CRLF;
 * or a tidy one, every row in one logger's style)
 * goes round the closed loop (`closedLoop`, test/helpers/closed-loop.ts): its draft from
 * `infer` lints clean, is canonical for `fmt`, and `check` and `check --full` find no error
 * in it that infer did not report. And what normalize says of the copy is so: the draft it
 * calls clean has no error, and the one it does not has one.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { inferConfig } from '../../src/infer/index.js';
import { normalizeCsv } from '../../src/normalize/index.js';
import { runCli } from '../helpers/cli.js';
import { closedLoop, shown } from '../helpers/closed-loop.js';
import { csvArb, optionsArb, tidyCsvArb } from '../helpers/messy-csv.js';
import { repoRoot } from '../helpers/paths.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-loop-normalize-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let n = 0;

test('the copy normalize writes goes round the closed loop', async () => {
  await fc.assert(
    fc.asyncProperty(fc.oneof(tidyCsvArb, csvArb), optionsArb, async (text, options) => {
      const input = join(dir, `in${n}.csv`);
      const copy = join(dir, `copy${n}.csv`);
      n += 1;
      await writeFile(input, text);
      await normalizeCsv(input, copy, options);
      expect(shown(await closedLoop(copy, dir, 'copy'))).toEqual([]);
      await Promise.all([input, copy].map((p) => rm(p, { force: true })));
    }),
    { numRuns: 40 },
  );
});

test('the CLI says the draft of the copy is clean exactly when infer finds no error in it', async () => {
  const seen = { clean: 0, not: 0 };
  await fc.assert(
    fc.asyncProperty(fc.oneof(tidyCsvArb, csvArb), optionsArb, async (text, options) => {
      const input = join(dir, `cli${n}.csv`);
      const copy = join(dir, `cli-copy${n}.csv`);
      n += 1;
      await writeFile(input, text);
      const flags = [
        ...(options.timezone ? ['--timezone', options.timezone] : []),
        ...(options.dateOrder ? ['--date-order', options.dateOrder] : []),
      ];
      const r = await runCli(repoRoot, ['normalize', input, '-o', copy, ...flags]);
      const draft = await inferConfig(copy);
      const errors = draft.issues.filter((i) => i.severity === 'error');
      expect(r.code, r.stdout + r.stderr).toBe(errors.length === 0 ? 0 : 1);
      seen[errors.length === 0 ? 'clean' : 'not'] += 1;
      await Promise.all([input, copy].map((p) => rm(p, { force: true })));
    }),
    { numRuns: 20 },
  );
  // The generated files give drafts of both kinds.
  expect(seen.clean).toBeGreaterThan(0);
  expect(seen.not).toBeGreaterThan(0);
});
