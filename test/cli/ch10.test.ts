/**
 * `importkit` with CH10 recordings: the check's verdict says what it read and never says
 * "fits" of a file inspection refuses, and the closed loop holds for every CH10 fixture
 * (the draft infer writes lints, is canonical for `fmt --check`, and gets no error from
 * `check` or `check --full` that infer did not report itself).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Expected, ExpectedError } from '../../scripts/fixtures/ch10.js';
import { runCli } from '../helpers/cli.js';
import { fixtureCases } from '../helpers/fixtures.js';

const { cases, load, file } = fixtureCases<Expected | ExpectedError>('ch10', '.ch10');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-ch10-cli-'));
  await writeFile(join(dir, 'c.yaml'), 'ch10Config:\n  assetName: jet\n  scaleValues: true\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const call = (...argv: string[]) => runCli(dir, argv);

/** The codes of a JSON report's issues of one severity. */
function codes(stdout: string, severity: string): string[] {
  const report = JSON.parse(stdout) as {
    files: Array<{ issues: Array<{ code: string; severity: string }> }>;
  };
  return report.files.flatMap((f) =>
    f.issues.filter((i) => i.severity === severity).map((i) => i.code),
  );
}

describe('importkit check with a CH10 recording', () => {
  test('a recording that fits: the verdict says what was read, sampled and with --full', async () => {
    const data = file('recorder');
    expect(await call('check', 'c.yaml', data)).toEqual({
      code: 0,
      stdout: `✔ ${data} fits c.yaml (its TMATS record, the headers of the packets in its first and last MiB and the first time packet's time read, no other packet data; --full reads every packet header)\n`,
      stderr: '',
    });
    expect((await call('check', 'c.yaml', data, '--full')).stdout).toBe(
      `✔ ${data} fits c.yaml (its TMATS record, every packet header and the first time packet's time read, no other packet data)\n`,
    );
  });

  test.each(cases.filter((c) => 'error' in load(c)))(
    '%s: a file inspect refuses never fits',
    async (name) => {
      const code = (load(name) as ExpectedError).error.code;
      for (const extra of [[], ['--full']]) {
        const r = await call('check', 'c.yaml', file(name), ...extra);
        expect(r.code).toBe(1);
        expect(r.stdout).not.toContain('fits');
        expect(r.stderr).toContain(`error ${code}: `);
      }
      const inspected = await call('inspect', file(name));
      expect([inspected.code, inspected.stderr.includes(`error ${code}: `)]).toEqual([1, true]);
    },
  );

  test('damage fails the check', async () => {
    const r = await call('check', 'c.yaml', file('damaged-header'), '-r', 'json');
    expect([r.code, codes(r.stdout, 'error')]).toEqual([1, ['ch10_packet_damaged']]);
  });
});

describe('the closed loop: infer, lint, fmt --check, check, check --full', () => {
  test.each(cases.filter((c) => !('error' in load(c))))('%s', async (name) => {
    const expected = load(name) as Expected;
    const options = expected.options.runName ? ['--run', expected.options.runName] : [];
    const draft = `${name}.yaml`;
    const inferred = await call('infer', file(name), '-o', draft, ...options);
    const reported = expected.issues.filter((i) => i.severity === 'error').map((i) => i.code);
    expect(inferred.code).toBe(reported.length > 0 ? 1 : 0);
    for (const code of reported) expect(inferred.stderr).toContain(`error ${code}: `);
    expect((await call('lint', draft)).code).toBe(0);
    expect((await call('fmt', '--check', draft)).code).toBe(0);
    for (const full of [[], ['--full']]) {
      const r = await call('check', draft, file(name), '-r', 'json', ...full);
      expect(codes(r.stdout, 'error').filter((c) => !reported.includes(c))).toEqual([]);
      expect(r.code).toBe(reported.length > 0 ? 1 : 0);
    }
  });
});
