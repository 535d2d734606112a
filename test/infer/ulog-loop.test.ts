/**
 * The closed loop on every ULog fixture (fixtures/ulog and fixtures/check-ulog), through the
 * command line: the draft `infer` writes lints, is canonical for `fmt --check`, and neither
 * `check` nor `check --full` gives an error code that infer did not report itself.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { inferConfig } from '../../src/infer/index.js';
import { runCli } from '../helpers/cli.js';
import { repoRoot } from '../helpers/paths.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-ulog-loop-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const areas = ['ulog', 'check-ulog'];
const files = (
  await Promise.all(
    areas.map(async (area) =>
      (
        await readdir(join(repoRoot, 'fixtures', area))
      )
        .filter((f) => f.endsWith('.ulg') && !f.startsWith('error-'))
        .map((f) => `${area}/${f}`),
    ),
  )
).flat();

/** The error codes of a report in the JSON reporter's shape. */
function errorCodes(stdout: string): string[] {
  const report = JSON.parse(stdout) as {
    files: Array<{ issues: Array<{ code: string; severity: string }> }>;
  };
  return report.files.flatMap((f) =>
    f.issues.filter((i) => i.severity === 'error').map((i) => i.code),
  );
}

describe('infer → lint → fmt → check on every ULog fixture', () => {
  test('the fixtures are there', () => {
    expect(files).toHaveLength(12);
  });

  test.each(files)('%s', async (name) => {
    const data = join(repoRoot, 'fixtures', name);
    const draft = join(dir, `${name.replace('/', '-')}.yaml`);
    const inferred = await runCli(dir, ['infer', data, '-o', draft]);
    // The draft is written either way; its errors are the codes infer reported.
    const reported = new Set<string>(
      (await inferConfig(data)).issues.filter((i) => i.severity === 'error').map((i) => i.code),
    );
    expect(inferred.code).toBe(reported.size > 0 ? 1 : 0);
    const fmt = await runCli(dir, ['fmt', '--check', draft]);
    expect(fmt.code, fmt.stderr).toBe(0);
    const lint = await runCli(dir, ['lint', draft]);
    expect(lint.code, lint.stdout + lint.stderr).toBe(0);
    for (const full of [[], ['--full']]) {
      const checked = await runCli(dir, ['check', draft, data, ...full, '-r', 'json']);
      const errors = errorCodes(checked.stdout);
      expect(
        errors.filter((c) => !reported.has(c)),
        `${name} ${full.join('')}: ${checked.stdout}`,
      ).toEqual([]);
      expect(checked.code).toBe(errors.length > 0 ? 1 : 0);
    }
  });
});
