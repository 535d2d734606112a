/**
 * `importkit lint` in-process through `run(argv, io)`: the text lines, the pinned JSON
 * shape, exit codes, globs, folders, stdin; and once through the real binary.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { run } from '../../src/cli/run.js';

const root = join(import.meta.dirname, '..', '..');

function fakeIo(stdin?: string): { io: Io; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  const io: Io = {
    stdout: {
      write: (s) => {
        out += s;
      },
    },
    stderr: {
      write: (s) => {
        err += s;
      },
    },
    env: {},
    cwd: root,
  };
  if (stdin !== undefined) {
    io.stdin = (async function* () {
      yield Buffer.from(stdin);
    })();
  }
  return { io, out: () => out, err: () => err };
}

async function lint(...args: string[]) {
  const f = fakeIo();
  const code = await run(['lint', ...args], f.io);
  return { code, out: f.out(), err: f.err() };
}

describe('text reporter', () => {
  test('one line per issue with the hint below, then the summary', async () => {
    const r = await lint('fixtures/config/misspelled-keys.yaml', 'fixtures/config/valid-csv.yaml');
    expect(r.code).toBe(1);
    expect(r.err).toBe('');
    expect(r.out).toBe(
      [
        'fixtures/config/misspelled-keys.yaml:2:3 error unknown_key Unknown key "timeColum". (at /csvConfig/timeColum)',
        '  hint: Did you mean "timeColumn"?',
        'fixtures/config/misspelled-keys.yaml:7:7 error unknown_key Unknown key "dataTyp". (at /csvConfig/dataColumns/2/dataTyp)',
        '  hint: Did you mean "dataType"?',
        'fixtures/config/misspelled-keys.yaml:8:7 error unknown_key Unknown key "unit". (at /csvConfig/dataColumns/2/unit)',
        '  hint: Did you mean "units"?',
        '✖ 3 errors, 0 warnings: 1 of 2 files invalid, 1 valid',
        '',
      ].join('\n'),
    );
  });

  test('all valid: exit 0 and a summary; --quiet prints nothing; --verbose lists the files', async () => {
    expect(await lint('fixtures/config/valid-csv.yaml')).toEqual({
      code: 0,
      out: '✔ 1 file valid\n',
      err: '',
    });
    expect(await lint('--quiet', 'fixtures/config/valid-csv.yaml')).toEqual({
      code: 0,
      out: '',
      err: '',
    });
    expect((await lint('--verbose', 'fixtures/config/valid-csv.yaml')).out).toBe(
      'fixtures/config/valid-csv.yaml: ok\n✔ 1 file valid\n',
    );
  });

  test('warnings do not fail unless --fail-on warning', async () => {
    const f = fakeIo('csvConfig: { runName: a, runId: b, useEmbeddedConfig: true }\n');
    expect(await run(['lint', '-'], f.io)).toBe(0);
    expect(f.out()).toBe(
      [
        '<stdin>:1:23 warning run_name_and_run_id Both runName and runId are set: the import goes into the run runId names, and runName is ignored. (at /csvConfig/runName)',
        '  hint: Remove runName (to add to the existing run) or runId (to create a new run).',
        '✔ 1 file valid (1 warning)',
        '',
      ].join('\n'),
    );
    const g = fakeIo('csvConfig: { runName: a, runId: b, useEmbeddedConfig: true }\n');
    expect(await run(['lint', '--fail-on', 'warning', '-'], g.io)).toBe(1);
  });
});

describe('JSON reporter', () => {
  test('exactly the documented shape', async () => {
    const r = await lint(
      '--reporter',
      'json',
      'fixtures/config/valid-csv.yaml',
      'fixtures/config/duplicate-key.yaml',
    );
    expect(r.code).toBe(1);
    const json = JSON.parse(r.out);
    expect(Object.keys(json)).toEqual(['files', 'summary']);
    expect(Object.keys(json.summary)).toEqual(['files', 'valid', 'invalid', 'errors', 'warnings']);
    for (const f of json.files) {
      expect(Object.keys(f)).toEqual(['file', 'valid', 'issues']);
      for (const i of f.issues) {
        expect(Object.keys(i)).toEqual([
          'code',
          'severity',
          'path',
          'message',
          'hint',
          'line',
          'column',
        ]);
      }
    }
    expect(json).toEqual({
      files: [
        { file: 'fixtures/config/valid-csv.yaml', valid: true, issues: [] },
        {
          file: 'fixtures/config/duplicate-key.yaml',
          valid: false,
          issues: [
            {
              code: 'duplicate_key',
              severity: 'error',
              path: '',
              message: 'A key appears twice in the same object.',
              hint: 'Remove one of them.',
              line: 4,
              column: 3,
            },
          ],
        },
      ],
      summary: { files: 2, valid: 1, invalid: 1, errors: 1, warnings: 0 },
    });
  });

  test('an issue without a hint has hint: null', async () => {
    const r = await lint('-r', 'json', 'fixtures/config/not-a-config.yaml');
    const json = JSON.parse(r.out);
    expect(json.files[0].issues.map((i: { hint: unknown }) => i.hint)).toEqual([
      'Start the document with the config key, for example `csvConfig:`.',
    ]);
    const s = JSON.parse((await lint('-r', 'json', 'fixtures/config/alias-bomb.yaml')).out);
    expect(s.files[0].issues[0].hint).toBeNull();
  });
});

describe('files', () => {
  test('globs and folders expand, sorted, each file once', async () => {
    const r = await lint(
      '-r',
      'json',
      'fixtures/config/valid-*.yaml',
      'fixtures/config/valid-csv.yaml',
    );
    expect(JSON.parse(r.out).files.map((f: { file: string }) => f.file)).toEqual([
      'fixtures/config/valid-csv.yaml',
    ]);
    const all = JSON.parse((await lint('-r', 'json', 'fixtures/config')).out);
    const names = all.files.map((f: { file: string }) => f.file);
    expect(names).toContain('fixtures/config/trailing-comma.json');
    expect(names.some((n: string) => n.endsWith('.expected.json'))).toBe(true);
    const braces = JSON.parse((await lint('-r', 'json', 'fixtures/config/{batch,times}.yaml')).out);
    expect(braces.files.map((f: { file: string }) => f.file)).toEqual([
      'fixtures/config/batch.yaml',
      'fixtures/config/times.yaml',
    ]);
  });
});

describe('usage errors exit 2 with one clear line', () => {
  const cases: Array<[string[], string]> = [
    [[], 'importkit lint: no files given\n'],
    [['--bogus', 'a.yaml'], "importkit lint: unknown option '--bogus'\n"],
    [['no-such.yaml'], "importkit lint: no such file 'no-such.yaml'\n"],
    [['nothing/*.yaml'], "importkit lint: no file matches 'nothing/*.yaml'\n"],
    [['-r', 'xml', 'fixtures/config/valid-csv.yaml'], "importkit lint: unknown reporter 'xml'"],
    [
      ['--fail-on', 'info', 'fixtures/config/valid-csv.yaml'],
      "importkit lint: --fail-on takes error or warning, not 'info'\n",
    ],
  ];
  for (const [args, message] of cases) {
    test(args.join(' ') || '(no arguments)', async () => {
      const r = await lint(...args);
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err.startsWith(message)).toBe(true);
      expect(r.err).not.toMatch(/\n\s+at /);
    });
  }
});

// The real binary runs the compiled code in dist/ (`npm ci` builds it through `prepare`).
const built = existsSync(join(root, 'dist', 'src', 'cli', 'index.js'));
test.skipIf(!built)('the real binary: exit code and output', () => {
  const r = spawnSync(
    process.execPath,
    ['bin/importkit.js', 'lint', 'fixtures/config/valid-csv.yaml', 'fixtures/config/numbers.yaml'],
    { cwd: root, encoding: 'utf8' },
  );
  expect(r.status).toBe(1);
  expect(r.stderr).toBe('');
  expect(r.stdout).toContain('fixtures/config/numbers.yaml:2:17 error negative_unsigned ');
  expect(r.stdout.trim().split('\n').at(-1)).toBe(
    '✖ 5 errors, 0 warnings: 1 of 2 files invalid, 1 valid',
  );
});
