/**
 * What is not a data or config file (a folder, a FIFO, /dev/zero, /dev/urandom, an
 * unreadable or an empty file) gets one error naming the file, with a code and a hint, and
 * exit 1 or 2, from every command that reads files; nothing blocks or reads without end.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { run } from '../../src/cli/run.js';
import { repoRoot } from '../helpers/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-not-a-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const config = join(dir, 'c.yaml');
copyFileSync(join(repoRoot, 'fixtures', 'examples', 'csv.yaml'), config);
const data = join(repoRoot, 'fixtures', 'csv', 'datetime-space.csv');
const folder = join(dir, 'folder');
mkdirSync(folder);
writeFileSync(join(folder, 'x.txt'), 'not a config\n');
const fifo = join(dir, 'fifo');
const hasFifo = spawnSync('mkfifo', [fifo]).status === 0 && existsSync(fifo);
const unreadable = join(dir, 'unreadable.csv');
writeFileSync(unreadable, 'time,v\n1,2\n');
chmodSync(unreadable, 0o000);
// Root reads every file whatever its mode: there the mode case is skipped, and a symbolic
// link loop (which no one can read) stands for an unreadable file.
const isRoot = process.getuid?.() === 0;
// No extension: a `.csv` name in the config's place is answered as a swapped argument first.
const loop = join(dir, 'loop');
symlinkSync(loop, loop);
const devices = ['/dev/zero', '/dev/urandom'].filter((d) => existsSync(d));

async function call(argv: string[], stdin?: AsyncIterable<Uint8Array>) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io: Io = {
    stdout: { write: (s: string) => void stdout.push(s) },
    stderr: { write: (s: string) => void stderr.push(s) },
    env: { IMPORTKIT_BASE_URL: 'http://127.0.0.1:9', IMPORTKIT_API_KEY: 'k' },
    cwd: dir,
    ...(stdin ? { stdin } : {}),
  };
  const code = await run(argv, io);
  return { code, out: stdout.join('') + stderr.join('') };
}

/** Each command, with `F` where the odd path goes. */
const COMMANDS = [
  ['inspect', 'F'],
  ['infer', 'F'],
  ['check', config, 'F'],
  ['check', 'F', data],
  ['lint', 'F'],
  ['fmt', 'F', '--check'],
  ['submit', 'F', data],
  ['submit', config, 'F'],
];

function expectRefused(r: { code: number; out: string }, path: string, code: string) {
  expect([1, 2]).toContain(r.code);
  expect(r.out).toContain(path);
  expect(r.out).toContain(code);
  expect(r.out).toContain('hint:');
  expect(r.out).not.toMatch(/EISDIR|ENOENT|RangeError|Invalid string length|\n\s+at /);
}

describe('every command refuses what is not a regular file', () => {
  for (const argv of COMMANDS) {
    const name = argv.join(' ');
    test(`${name}: a folder`, async () => {
      const args = argv.map((a) => (a === 'F' ? folder : a));
      if (argv[0] === 'lint') {
        // lint takes folders (their .yaml/.yml/.json files): one with none is a usage error.
        const r = await call(args);
        expect(r.code).toBe(2);
        expect(r.out).toContain(`no config file (.yaml, .yml, .json) in the folder '${folder}'`);
        return;
      }
      if (argv[0] === 'infer') {
        // infer takes folders (a batch of their data files): one without any has none to list.
        const r = await call(args);
        expect(r.code).toBe(1);
        expect(r.out).toContain('x.txt: left out, a text file without a data extension');
        expect(r.out).toContain('error batch_no_data_files: folder: no data file to list');
        return;
      }
      expectRefused(await call(args), folder, 'not_a_file');
    });
    test.skipIf(!hasFifo)(`${name}: a FIFO (no writer: opening it would block)`, async () => {
      expectRefused(await call(argv.map((a) => (a === 'F' ? fifo : a))), fifo, 'not_a_file');
    });
    for (const device of devices) {
      test(`${name}: ${device}`, async () => {
        expectRefused(await call(argv.map((a) => (a === 'F' ? device : a))), device, 'not_a_file');
      });
    }
    test.skipIf(isRoot)(`${name}: an unreadable file (mode 000; skipped as root)`, async () => {
      expectRefused(
        await call(argv.map((a) => (a === 'F' ? unreadable : a))),
        unreadable,
        'file_unreadable',
      );
    });
    test(`${name}: a symbolic link loop`, async () => {
      const r = await call(argv.map((a) => (a === 'F' ? loop : a)));
      if (argv[0] === 'lint') {
        // lint expands its arguments first: a path it cannot stat is no file at all.
        expect(r.code).toBe(2);
        expect(r.out).toContain(`no such file '${loop}'`);
        return;
      }
      expectRefused(r, loop, 'file_unreadable');
      expect(r.out).toContain(`${loop}: cannot read (ELOOP)`);
    });
  }
  test('the messages say what the path is', async () => {
    expect((await call(['check', folder, data])).out).toContain(`${folder}: a folder, not a file`);
    expect((await call(['submit', folder, data])).out).toContain(`${folder}: a folder, not a file`);
    if (devices[0]) {
      expect((await call(['inspect', devices[0]])).out).toContain('a device, not a regular file');
    }
    if (hasFifo) {
      expect((await call(['lint', fifo])).out).toContain('a FIFO (named pipe), not a regular file');
    }
  });
});

describe('an empty file', () => {
  const empty = join(dir, 'empty.csv');
  writeFileSync(empty, '');
  const hint = '  hint: Check that the export finished and that this is the file you meant.\n';
  test('as data: one coded error naming it, from every command', async () => {
    for (const argv of [
      ['inspect', empty],
      ['infer', empty],
    ]) {
      expect(await call(argv)).toEqual({
        code: 1,
        out: `importkit ${argv[0]}: error file_empty: ${empty}: the file is empty (0 bytes)\n${hint}`,
      });
    }
    const checked = await call(['check', config, empty]);
    expect(checked).toEqual({
      code: 1,
      out: `importkit check: error file_empty: ${empty}: the file is empty (0 bytes)\n${hint}`,
    });
    const submitted = await call(['submit', config, empty]);
    expect(submitted).toEqual({
      code: 1,
      out: `importkit submit: error file_empty: ${empty}: the file is empty (0 bytes); nothing was sent\n${hint}`,
    });
  });
  test('of any format: file_empty, not a format error', async () => {
    for (const name of ['empty.parquet', 'empty.h5', 'empty.tdms', 'empty.ulg', 'empty.ch10']) {
      const file = join(dir, name);
      writeFileSync(file, '');
      for (const command of ['inspect', 'infer']) {
        expect(await call([command, file])).toEqual({
          code: 1,
          out: `importkit ${command}: error file_empty: ${file}: the file is empty (0 bytes)\n${hint}`,
        });
      }
    }
  });
  test('as a config: document_empty naming it', async () => {
    const emptyConfig = join(dir, 'empty.yaml');
    writeFileSync(emptyConfig, '');
    for (const argv of [
      ['lint', emptyConfig],
      ['check', emptyConfig, data],
      ['submit', emptyConfig, data],
    ]) {
      const r = await call(argv);
      expect(r.code).toBe(1);
      expect(r.out).toContain(`${emptyConfig}:1:1 error document_empty The file holds no config.`);
    }
    const r = await call(['fmt', emptyConfig, '--check']);
    expect(r).toEqual({
      code: 1,
      out: `${emptyConfig}:1:1 error document_empty The file holds no config.\n  hint: Write a config, for example \`csvConfig: ...\`.\n`,
    });
  });
});

describe('fmt reads configs as lint does', () => {
  test('a config over 16 MiB is refused without being read whole', async () => {
    const big = join(dir, 'big.yaml');
    writeFileSync(big, `csvConfig:\n  assetName: "${'x'.repeat(16 * 1024 * 1024)}"\n`);
    const r = await call(['fmt', big, '--check']);
    expect(r.code).toBe(1);
    expect(r.out).toContain('input_too_large');
    expect(r.out).toContain(big);
  });
  test('endless standard input is read up to 16 MiB, then refused', async () => {
    let given = 0;
    async function* endless() {
      const chunk = new Uint8Array(64 * 1024).fill(0x61);
      for (;;) {
        given += chunk.length;
        yield chunk;
      }
    }
    const r = await call(['fmt', '-', '--check'], endless());
    expect(r.code).toBe(1);
    expect(r.out).toContain('error input_too_large: <stdin>: Standard input holds more than');
    expect(r.out).toContain('hint:');
    expect(given).toBeLessThanOrEqual(16 * 1024 * 1024 + 64 * 1024);
  });
});
