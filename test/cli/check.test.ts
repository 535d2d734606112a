import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { runCli } from '../helpers/cli.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures');
const dir = mkdtempSync(join(tmpdir(), 'importkit-check-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function call(...argv: string[]) {
  return runCli(dir, argv);
}

function config(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const DATA = join(fixtures, 'csv', 'unix-milliseconds.csv');
const GOOD = config(
  'good.yaml',
  `csvConfig:
  firstDataRow: 2
  timeColumn:
    columnNumber: 1
    format: TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS
  dataColumns:
    "2": { name: p, dataType: CHANNEL_DATA_TYPE_DOUBLE }
`,
);
const WRONG_UNIT = config(
  'wrong-unit.yaml',
  `# seconds, but the file holds milliseconds
csvConfig:
  firstDataRow: 2
  timeColumn:
    columnNumber: 1
    format: TIME_FORMAT_ABSOLUTE_UNIX_SECONDS
  dataColumns:
    "2": { name: p, dataType: CHANNEL_DATA_TYPE_DOUBLE }
`,
);
/** Fits, but with a warning only: the data starts one row later than it could. */
const SKIPS = config(
  'skips.yaml',
  `csvConfig:
  firstDataRow: 3
  timeColumn:
    columnNumber: 1
    format: TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS
  dataColumns:
    "2": { name: p, dataType: CHANNEL_DATA_TYPE_DOUBLE }
`,
);

describe('importkit check', () => {
  test('a file that fits: exit 0, saying the data fits the config and how much was read', async () => {
    const r = await call('check', GOOD, DATA);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      `✔ ${DATA} fits ${GOOD} (its head and tail sampled; --full reads every row)\n`,
    );
    const full = await call('check', GOOD, DATA, '--full');
    expect(full.stdout).toBe(`✔ ${DATA} fits ${GOOD} (every row read)\n`);
  });

  test('the wrong unit: exit 1, the error on the config line of the format, the unit that fits named', async () => {
    const r = await call('check', WRONG_UNIT, DATA, '--reporter', 'json');
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as {
      files: Array<{ valid: boolean; issues: Array<Record<string, unknown>> }>;
    };
    expect(out.files[0]?.valid).toBe(false);
    expect(
      out.files[0]?.issues.map((i) => [i.code, i.severity, i.path, i.line, i.column, i.hint]),
    ).toEqual([
      [
        'time_wrong_unit',
        'error',
        '/csvConfig/timeColumn/format',
        6,
        13,
        'Use format: TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS.',
      ],
    ]);
  });

  test('--fail-on warning turns a warning into a failure; --quiet hides warnings', async () => {
    expect((await call('check', SKIPS, DATA)).code).toBe(0);
    const strict = await call('check', SKIPS, DATA, '--fail-on', 'warning');
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('first_data_row_skips_data');
    const quiet = await call('check', SKIPS, DATA, '--quiet');
    expect(quiet).toEqual({ code: 0, stdout: '', stderr: '' });
    const quietWrong = await call('check', WRONG_UNIT, DATA, '--quiet');
    expect(quietWrong.code).toBe(1);
    expect(quietWrong.stdout).toContain('time_wrong_unit');
  });

  test('--full reads every row, with the same verdict', async () => {
    expect((await call('check', GOOD, DATA, '--full')).code).toBe(0);
    expect((await call('check', WRONG_UNIT, DATA, '--full')).code).toBe(1);
  });

  test('reporters: github annotations point at the config line', async () => {
    const r = await call('check', WRONG_UNIT, DATA, '-r', 'github');
    expect(r.stdout.split('\n')[0]).toMatch(
      /^::error file=.*wrong-unit\.yaml,line=6,col=13,title=time_wrong_unit::read as ABSOLUTE_UNIX_SECONDS/,
    );
  });

  test('several pairs at once (--jobs): each reported in the order given, exit 1 when one fails', async () => {
    const one = await call('check', WRONG_UNIT, DATA, '-r', 'json');
    const r = await call(
      'check',
      GOOD,
      DATA,
      WRONG_UNIT,
      DATA,
      SKIPS,
      DATA,
      '-j',
      '2',
      '-r',
      'json',
    );
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as {
      files: Array<{ file: string; valid: boolean; issues: Array<{ code: string }> }>;
    };
    expect(out.files.map((f) => [f.file, f.valid, f.issues.map((i) => i.code)])).toEqual([
      [GOOD, true, []],
      [WRONG_UNIT, false, ['time_wrong_unit']],
      [SKIPS, true, ['first_data_row_skips_data']],
    ]);
    expect(out.files[1]).toEqual((JSON.parse(one.stdout) as typeof out).files[0]);
    const full = await call('check', GOOD, DATA, GOOD, DATA, '--full', '--jobs', '3');
    expect(full).toEqual({ code: 0, stdout: '✔ 2 files valid\n', stderr: '' });
  });

  test('usage errors: exit 2', async () => {
    expect((await call('check', GOOD)).code).toBe(2);
    expect((await call('check', GOOD, DATA, GOOD)).code).toBe(2);
    expect((await call('check', GOOD, DATA, '--jobs', '0')).code).toBe(2);
    expect((await call('check', GOOD, DATA, '-j', 'many')).code).toBe(2);
    expect((await call('check', GOOD, DATA, GOOD, join(dir, 'missing.csv'))).code).toBe(2);
    expect((await call('check', GOOD, join(dir, 'missing.csv'))).code).toBe(2);
    expect((await call('check', GOOD, DATA, '--fail-on', 'info')).code).toBe(2);
    expect((await call('check', GOOD, DATA, '--bogus')).code).toBe(2);
  });

  test('a config of the wrong kind for the file: exit 1 with data_format_mismatch', async () => {
    const r = await call('check', GOOD, join(fixtures, 'parquet', 'unix-ms-row-groups.parquet'));
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('data_format_mismatch');
  });
});

describe('importkit lint --data', () => {
  test('adds the data checks to each config’s report', async () => {
    expect((await call('lint', GOOD, '--data', DATA)).code).toBe(0);
    const r = await call('lint', GOOD, WRONG_UNIT, '--data', DATA, '-r', 'json');
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as {
      files: Array<{ valid: boolean; issues: Array<{ code: string }> }>;
    };
    expect(out.files.map((f) => [f.valid, f.issues.map((i) => i.code)])).toEqual([
      [true, []],
      [false, ['time_wrong_unit']],
    ]);
    expect((await call('lint', SKIPS, '--data', DATA, '--fail-on', 'warning')).code).toBe(1);
  });
});

describe('a field the validator rejects', () => {
  test('is reported once, by the validator, not again by the data checks', async () => {
    const path = config(
      'negative-row.yaml',
      `csvConfig:
  firstDataRow: -1
  timeColumn:
    columnNumber: 1
    format: TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS
  dataColumns:
    "2": { name: p, dataType: CHANNEL_DATA_TYPE_DOUBLE }
`,
    );
    const { code, stdout } = await call('check', path, DATA, '--reporter', 'json');
    expect(code).toBe(1);
    const issues = JSON.parse(stdout).files[0].issues as Array<{ code: string; path: string }>;
    const atRow = issues.filter((i) => i.path === '/csvConfig/firstDataRow').map((i) => i.code);
    expect(atRow).toEqual(['negative_unsigned']);
  });
});
