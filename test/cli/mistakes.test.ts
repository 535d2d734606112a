/**
 * Every common mistake answered with what was given, what was expected and the next
 * command: one message line, a hint, the exit code, never Node's own parser text.
 */
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { nearestFlag } from '../../src/cli/mistakes.js';
import { run } from '../../src/cli/run.js';
import { formatById, formats } from '../../src/inspect/index.js';
import { closedPort, json, plainServer } from '../client/_helpers.js';

const root = join(import.meta.dirname, '..', '..');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-mistakes-'));
  await copyFile(join(root, 'fixtures', 'examples', 'csv.yaml'), join(dir, 'config.yaml'));
  await copyFile(join(root, 'fixtures', 'csv', 'unix-milliseconds.csv'), join(dir, 'data.csv'));
  await writeFile(
    join(dir, 'commented.json'),
    '{\n  // from the bench rig\n  "csvConfig": {}\n}\n',
  );
  await writeFile(join(dir, 'short-key.yaml'), 'csv:\n  assetName: rig\n');
  await writeFile(join(dir, 'tabs.yaml'), 'csvConfig:\n\tassetName: rig\n');
  await writeFile(join(dir, 'crlf.yaml'), 'csvConfig:\r\n  assetName: rig\r\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function call(argv: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = {
    stdout: { write: (s) => void out.push(s) },
    stderr: { write: (s) => void err.push(s) },
    env: { IMPORTKIT_BASE_URL: 'http://127.0.0.1:9', IMPORTKIT_API_KEY: 'k', ...env },
    cwd: dir,
  };
  const code = await run(argv, io);
  return { code, stdout: out.join(''), stderr: err.join('') };
}

const usage = (command: string, message: string, hint: string) => ({
  code: 2,
  stdout: '',
  stderr: `importkit ${command}: ${message}\n  hint: ${hint}\nRun 'importkit ${command} --help' for usage.\n`,
});

describe('unknown flags: did you mean the closest one', () => {
  const cases: Array<[string[], string, string]> = [
    [['lint', '--reporters', 'json', 'config.yaml'], '--reporters', '--reporter'],
    [['infer', '--time-col', '1', 'data.csv'], '--time-col', '--time-column'],
    [['infer', '--timeColumn', '1', 'data.csv'], '--timeColumn', '--time-column'],
    [['submit', '--wiat', 'config.yaml', 'data.csv'], '--wiat', '--wait'],
    [['check', '--ful', 'config.yaml', 'data.csv'], '--ful', '--full'],
  ];
  for (const [argv, given, meant] of cases) {
    test(`${argv.join(' ')} → ${meant}`, async () => {
      expect(await call(argv)).toEqual(
        usage(argv[0] as string, `unknown option '${given}'`, `Did you mean ${meant}?`),
      );
    });
  }

  test('--api-key: the key comes from IMPORTKIT_API_KEY', async () => {
    expect(await call(['submit', '--api-key', 'abc', 'config.yaml', 'data.csv'])).toEqual(
      usage(
        'submit',
        "unknown option '--api-key': the API key is never given on the command line",
        'set IMPORTKIT_API_KEY in the environment (export IMPORTKIT_API_KEY=...) and run the command again',
      ),
    );
  });

  test('a flag far from every known one: no guess, the help pointer', async () => {
    expect(await call(['lint', '--zzzzzzzz', 'config.yaml'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "importkit lint: unknown option '--zzzzzzzz'\nRun 'importkit lint --help' for usage.\n",
    });
  });

  test('nearestFlag: case and separators, prefixes, small edits', () => {
    const known = ['time-column', 'time-format', 'asset', 'wait', 'reporter'];
    expect(nearestFlag('--TIME_COLUMN', known)).toBe('time-column');
    expect(nearestFlag('--time-c', known)).toBe('time-column');
    expect(nearestFlag('--time', known)).toBe(undefined);
    expect(nearestFlag('--waitt', known)).toBe('wait');
    expect(nearestFlag('--colour', known)).toBe(undefined);
  });
});

describe('swapped arguments and URLs', () => {
  test('submit data.csv config.yaml: says which is which and the command as it should read', async () => {
    expect(await call(['submit', 'data.csv', 'config.yaml'])).toEqual(
      usage(
        'submit',
        'data.csv looks like a CSV data file, not a config (YAML or JSON)',
        'usage: importkit submit <config> <data-file>; with the arguments swapped: importkit submit config.yaml data.csv',
      ),
    );
  });

  test('every extension inspect reads a format by names that format when swapped (one table)', async () => {
    // The CLI kept a second table that had drifted: it knew .c10 (inspect did not) and not .txt.
    for (const format of formats()) {
      for (const ext of format.extensions) {
        expect((await call(['submit', `rec${ext}`, 'config.yaml'])).stderr).toContain(
          `rec${ext} looks like a ${format.title} data file, not a config`,
        );
      }
    }
    expect(formatById('ch10')?.extensions).toContain('.c10');
  });

  test('check data.csv config.yaml: the same answer', async () => {
    expect((await call(['check', 'data.csv', 'config.yaml'])).stderr).toContain(
      'with the arguments swapped: importkit check config.yaml data.csv',
    );
  });

  test('lint data.csv: lint reads configs; check compares a config with its data', async () => {
    expect(await call(['lint', 'data.csv'])).toEqual(
      usage(
        'lint',
        'data.csv looks like a CSV data file, not a config (YAML or JSON)',
        'usage: importkit lint <config>... (to check a config against its data: importkit check <config> <data-file>)',
      ),
    );
  });

  test('infer config.yaml: a config where a data file is expected', async () => {
    expect(await call(['infer', 'config.yaml'])).toEqual(
      usage(
        'infer',
        'config.yaml looks like a config, not a data file',
        'usage: importkit infer <data-file> [options]',
      ),
    );
  });

  test('submit config.yaml https://...: points at --url', async () => {
    expect(await call(['submit', 'config.yaml', 'https://example.com/x.csv'])).toEqual(
      usage(
        'submit',
        'https://example.com/x.csv is a URL, not a local file',
        'the service fetches a URL itself: importkit submit <config> --url URL',
      ),
    );
  });

  test('infer https://...: infer reads local files', async () => {
    expect(await call(['infer', 'https://example.com/x.csv'])).toEqual(
      usage(
        'infer',
        'https://example.com/x.csv is a URL, not a local file',
        'infer reads local files only: download the file, then run importkit infer on it',
      ),
    );
  });
});

describe('connection trouble names the variable to fix', () => {
  test('a base URL without its scheme names IMPORTKIT_BASE_URL and shows the fix', async () => {
    expect(await call(['status', 'abc'], { IMPORTKIT_BASE_URL: 'localhost:8080' })).toEqual(
      usage(
        'status',
        "IMPORTKIT_BASE_URL is 'localhost:8080': the address needs its scheme",
        'export IMPORTKIT_BASE_URL=http://localhost:8080',
      ),
    );
  });

  test('a 401 names IMPORTKIT_API_KEY', async () => {
    const server = await plainServer((_req, res) =>
      json(res, 401, { code: 16, message: 'the bearer credential is not valid' }),
    );
    try {
      const r = await call(['status', 'abc'], { IMPORTKIT_BASE_URL: server.url });
      expect(r).toEqual({
        code: 1,
        stdout: '',
        stderr:
          `importkit status: GET ${server.url}/api/v2/data-imports/abc failed: HTTP 401, code 16: the bearer credential is not valid\n` +
          '  hint: the service refused the API key: check IMPORTKIT_API_KEY (importkit serve prints the key it accepts)\n',
      });
    } finally {
      await server.close();
    }
  });

  test('a refused connection names the URL and suggests importkit serve', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const r = await call(['submit', 'config.yaml', 'data.csv', '--no-check'], {
      IMPORTKIT_BASE_URL: url,
    });
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `importkit submit: cannot reach ${url} (connection refused)\n` +
        '  hint: check IMPORTKIT_BASE_URL; for local work start the emulator with importkit serve and use the address it prints\n',
    });
  });
});

describe('config mistakes', () => {
  test('a .json config with // comments: JSON has no comments; the YAML form', async () => {
    const r = await call(['lint', 'commented.json']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      'commented.json:2:3 error json_syntax_error JSON has no comments; this .json file has one.\n' +
        '  hint: Delete the comment, or write the config as YAML (a .yaml file), where `#` starts a comment: `csvConfig:  # from the bench rig`.\n' +
        '✖ 1 error, 0 warnings: 1 of 1 file invalid, 0 valid\n',
    );
  });

  test('csv: as a key → did you mean csvConfig', async () => {
    const r = await call(['lint', 'short-key.yaml']);
    expect(r.stdout).toContain(
      'short-key.yaml:1:1 error unknown_key Unknown key "csv" at the top level. (at /csv)\n  hint: Did you mean "csvConfig"?\n',
    );
  });

  test('tab indentation → YAML indents with spaces', async () => {
    const r = await call(['lint', 'tabs.yaml']);
    expect(r.stdout).toBe(
      'tabs.yaml:2:1 error yaml_syntax_error A tab indents this line; YAML indents with spaces only.\n' +
        '  hint: Replace each tab at the start of the line with spaces (two per level, as `importkit fmt` writes).\n' +
        '✖ 1 error, 0 warnings: 1 of 1 file invalid, 0 valid\n',
    );
  });

  test('fmt --check on a file that differs only in line endings says so', async () => {
    expect(await call(['fmt', '--check', 'crlf.yaml'])).toEqual({
      code: 1,
      stdout:
        'crlf.yaml: not in canonical form: only its line endings differ (CRLF; fmt writes LF)\n',
      stderr: '',
    });
  });
});

describe('slips: a misspelt command or option, swapped preview arguments, a flag of another format', () => {
  test('infr: did you mean infer, then the usage', async () => {
    const r = await call(['infr', 'data.csv']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n').slice(0, 3)).toEqual([
      "importkit: unknown command 'infr'",
      "  hint: Did you mean 'infer'?",
      '',
    ]);
    // A word far from every command gets the usage alone.
    expect((await call(['frobnicate'])).stderr.split('\n').slice(0, 2)).toEqual([
      "importkit: unknown command 'frobnicate'",
      '',
    ]);
  });

  test('--verison is an unknown option, with --version suggested', async () => {
    expect(await call(['--verison'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "importkit: unknown option '--verison'\n  hint: Did you mean --version?\nRun 'importkit --help' for usage.\n",
    });
  });

  test('preview data.csv config.yaml: the arguments swapped, as check and submit say', async () => {
    expect(await call(['preview', 'data.csv', 'config.yaml'])).toEqual(
      usage(
        'preview',
        'data.csv looks like a CSV data file, not a config (YAML or JSON)',
        'usage: importkit preview <config> <data-file>; with the arguments swapped: importkit preview config.yaml data.csv',
      ),
    );
  });

  test('--time-column timestmp: did you mean the column timestamp', async () => {
    const r = await call(['infer', 'data.csv', '--time-column', 'timestmp']);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').slice(0, 3)).toEqual([
      `error infer_time_column_unknown: ${join(dir, 'data.csv')}: the time column 'timestmp' is not in the file (columns: 1 timestamp, 2 p)`,
      '  at /csvConfig/timeColumn/columnNumber',
      "  hint: Did you mean 'timestamp'?",
    ]);
  });

  test('a flag of another format is refused, naming the flag, the format and the formats it is for', async () => {
    const preview = join(root, 'fixtures', 'preview');
    const cases: Array<[string[], string, string, string]> = [
      [
        ['infer', 'data.csv', '--layout', 'flat'],
        'infer',
        '--layout does not apply to data.csv, a CSV file',
        '--layout is for Parquet files; leave it out',
      ],
      [
        ['infer', join(preview, 'channels.parquet'), '--delimiter', ';'],
        'infer',
        `--delimiter does not apply to ${join(preview, 'channels.parquet')}, a Parquet file`,
        '--delimiter is for CSV files; leave it out',
      ],
      [
        ['infer', join(preview, 'channels.ulg'), '--time-format', 'RELATIVE_SECONDS'],
        'infer',
        `--time-format does not apply to ${join(preview, 'channels.ulg')}, a ULog file`,
        '--time-format is for CSV, Parquet, HDF5 and TDMS files; leave it out',
      ],
      [
        ['infer', join(preview, 'channels.h5'), '--time-column', '1'],
        'infer',
        `--time-column does not apply to ${join(preview, 'channels.h5')}, a HDF5 file`,
        '--time-column is for CSV and Parquet files; leave it out',
      ],
      [
        ['inspect', join(preview, 'channels.tdms'), '--header-row', '2'],
        'inspect',
        `--header-row does not apply to ${join(preview, 'channels.tdms')}, a TDMS file`,
        '--header-row is for CSV files; leave it out',
      ],
      [
        [
          'check',
          join(preview, 'channels.parquet.yaml'),
          join(preview, 'channels.parquet'),
          '--delimiter',
          ';',
        ],
        'check',
        `--delimiter does not apply to ${join(preview, 'channels.parquet')}, a Parquet file`,
        '--delimiter is for CSV files; leave it out',
      ],
    ];
    for (const [argv, command, message, hint] of cases)
      expect(await call(argv)).toEqual(usage(command, message, hint));
    // A flag of the file's own format is taken.
    expect((await call(['infer', 'data.csv', '--delimiter', ','])).code).toBe(0);
  });
});
