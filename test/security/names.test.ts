/**
 * Names with terminal escapes (security round 2, point 14): a file, member or column named
 * `\e]0;PWNED\a\e[31mred.csv` (or with C1 or bidi controls) is printed with those
 * characters as visible escapes by infer (draft, comments, issues, explain), inspect,
 * every reporter of check, progress lines and usage errors; the JSON outputs and the YAML
 * draft keep the exact name.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import type { Io } from '../../src/cli/io.js';
import { printable, printableJson } from '../../src/cli/printable.js';
import { createProgress } from '../../src/cli/progress.js';
import { tarOf } from '../helpers/archives.js';
import { runCli } from '../helpers/cli.js';

const EVIL = '\x1b]0;PWNED\x07\x1b[31mred\u009b2J\u202eved.csv';
const SHOWN = '\\x1b]0;PWNED\\x07\\x1b[31mred\\x9b2J\\u202eved.csv';
const CSV =
  'time,sp\u202eeed\n2024-01-01T00:00:00Z,1\n2024-01-01T00:00:01Z,2\n2024-01-01T00:00:02Z,3\n';
/** Any character that must not reach a terminal raw (a newline is the output's own). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for them
const RAW = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-security-names-'));
  await mkdir(join(dir, 'runs'));
  writeFileSync(join(dir, 'runs', EVIL), CSV);
  writeFileSync(join(dir, EVIL), CSV);
  writeFileSync(join(dir, 'runs.tar'), await tarOf([[EVIL, new TextEncoder().encode(CSV)]]));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function call(...argv: string[]) {
  const r = await runCli(dir, argv);
  expect(r.stdout + r.stderr, argv.join(' ')).not.toMatch(RAW);
  return r;
}

describe('point 14: names are printed escaped, and kept exact in YAML and JSON', () => {
  test('infer on a folder and a tar: the draft keeps the member name, nothing raw is printed', async () => {
    for (const input of ['runs', 'runs.tar']) {
      const yaml = await call('infer', input, '--explain');
      expect(yaml.code).toBe(0);
      expect(Object.keys(parse(yaml.stdout).batchConfig.fileConfigs)).toEqual([EVIL]);
      const json = await call('infer', input, '--format', 'json');
      expect(Object.keys(JSON.parse(json.stdout).batchConfig.fileConfigs)).toEqual([EVIL]);
    }
  });

  test('infer on such a file: the comment, the column name and the explain table are escaped', async () => {
    const r = await call('infer', EVIL, '--explain');
    expect(r.stdout.split('\n')[0]).toBe(`# Draft CsvConfig inferred by importkit from ${SHOWN}.`);
    expect(parse(r.stdout).csvConfig.dataColumns['2'].name).toBe('sp\u202eeed');
    expect(r.stderr).toContain('sp\\u202eeed');
  });

  test("inspect: the header's file name and the column names are escaped", async () => {
    const r = await call('inspect', EVIL);
    expect(r.stdout.split('\n')[0]).toBe(`${SHOWN}: CSV, ${Buffer.byteLength(CSV)} bytes`);
    expect(r.stdout).toContain('sp\\u202eeed');
    const json = await call('inspect', EVIL, '--format', 'json');
    expect(JSON.parse(json.stdout).file.path).toBe(EVIL);
  });

  test('check: every reporter escapes a member name in its messages; json keeps it exact', async () => {
    const draft = (await call('infer', 'runs', '-o', 'batch.yaml')).code;
    expect(draft).toBe(0);
    renameSync(join(dir, 'runs', EVIL), join(dir, 'runs', 'other.csv'));
    try {
      for (const reporter of ['text', 'github', 'junit', 'sarif', 'json']) {
        const r = await call('check', 'batch.yaml', 'runs', '-r', reporter);
        expect(r.code, reporter).toBe(1);
        // SARIF is JSON too: the escaped name, its backslashes JSON-escaped.
        const shown = { json: '\\u001b]0;PWNED', sarif: JSON.stringify(SHOWN).slice(1, -1) };
        expect(r.stdout, reporter).toContain(shown[reporter as keyof typeof shown] ?? SHOWN);
      }
      const json = JSON.parse((await call('check', 'batch.yaml', 'runs', '-r', 'json')).stdout);
      expect(json.files[0].issues.map((i: { message: string }) => i.message).join('\n')).toContain(
        EVIL,
      );
    } finally {
      renameSync(join(dir, 'runs', 'other.csv'), join(dir, 'runs', EVIL));
      rmSync(join(dir, 'batch.yaml'), { force: true });
    }
  });

  test('usage errors and outputs name files escaped', async () => {
    const missing = await call('infer', `${EVIL}.missing`);
    expect(missing.stderr).toContain(`${SHOWN}.missing`);
    expect(missing.code).toBe(2);
    const unknown = await call(EVIL);
    expect(unknown.stderr.split('\n')[0]).toBe(`importkit: unknown command '${SHOWN}'`);
  });

  test('a progress line escapes its label', () => {
    let written = '';
    const io: Io = {
      stdout: { write: () => undefined },
      stderr: {
        write: (s) => {
          written += s;
        },
        isTTY: true,
        columns: 120,
      },
      env: {},
      cwd: dir,
    };
    const progress = createProgress(io, `reading ${EVIL}`, 10, { now: () => 1000 });
    progress.update(5);
    progress.done();
    expect(written.startsWith(`\rreading ${SHOWN} [`)).toBe(true);
    expect(written.replaceAll('\r', '').replaceAll('\x1b[K', '')).not.toMatch(RAW);
  });

  test('printable is unambiguous and leaves nothing raw; printableJson keeps the value', () => {
    // Decoding the escapes gives back the text: two different texts never print the same.
    const decode = (s: string) =>
      s.replace(/\\(\\|n|r|t|x[0-9a-f]{2}|u[0-9a-f]{4})/g, (_, e: string) =>
        e === '\\'
          ? '\\'
          : e === 'n'
            ? '\n'
            : e === 'r'
              ? '\r'
              : e === 't'
                ? '\t'
                : String.fromCharCode(Number.parseInt(e.slice(1), 16)),
      );
    const text = fc.string({
      unit: fc.oneof(
        fc.constantFrom('\\', 'x', 'u', 'n', '1', 'b', '\x1b', '\x07', '\u009b', '\u202e', '\n'),
        fc.string({ minLength: 1, maxLength: 1, unit: 'binary' }),
      ),
    });
    fc.assert(
      fc.property(text, (s) => {
        const shown = printable(s);
        expect(shown).not.toMatch(RAW);
        expect(decode(shown)).toBe(s);
        const json = printableJson({ s });
        expect(json).not.toMatch(RAW);
        expect(JSON.parse(json)).toEqual({ s });
      }),
    );
  });
});
