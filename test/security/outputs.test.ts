/**
 * Files the commands write (security round 2, points 13 and 16): a temporary file is
 * created exclusively under a random name beside the target and renamed over it, so a
 * symlink planted at a predictable name or at the target is never written through; and no
 * command writes over one of its inputs, by whatever path or link it is named.
 */
import {
  chmodSync,
  copyFileSync,
  linkSync,
  lstatSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isSameFile, writeFileSafely } from '../../src/files/index.js';
import { normalizeCsv } from '../../src/normalize/index.js';
import { runCli } from '../helpers/cli.js';

const fixtures = join(import.meta.dirname, '..', '..', 'fixtures', 'preview');
let root: string;
let n = 0;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'importkit-security-outputs-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A fresh folder with the preview fixture's data file and config, and a victim file. */
async function folder(): Promise<string> {
  const dir = join(root, `case-${n++}`);
  await mkdir(dir);
  copyFileSync(join(fixtures, 'channels.csv'), join(dir, 'd.csv'));
  copyFileSync(join(fixtures, 'channels.csv.yaml'), join(dir, 'c.yaml'));
  writeFileSync(join(dir, 'victim.txt'), 'precious\n');
  return dir;
}

const read = (dir: string, name: string) => readFileSync(join(dir, name), 'utf8');

describe('point 13: temporary files are created exclusively and renamed into place', () => {
  test('normalize: a symlink planted at the old temporary name <out>.<pid>.tmp is left alone', async () => {
    const dir = await folder();
    const out = join(dir, 'out.csv');
    symlinkSync(join(dir, 'victim.txt'), `${out}.${process.pid}.tmp`);
    await normalizeCsv(join(dir, 'd.csv'), out);
    expect(read(dir, 'victim.txt')).toBe('precious\n');
    expect(read(dir, 'out.csv')).toBe(read(dir, 'd.csv'));
    expect(readdirSync(dir).sort()).toEqual([
      'c.yaml',
      'd.csv',
      'out.csv',
      `out.csv.${process.pid}.tmp`,
      'victim.txt',
    ]);
  });

  test('infer -o, infer --preview, preview -o and normalize -o replace a symlink at the target, never write through it', async () => {
    const cases: Array<[string, string[]]> = [
      ['draft.yaml', ['infer', 'd.csv', '-o', 'draft.yaml']],
      ['page.html', ['infer', 'd.csv', '--preview', 'page.html']],
      ['page.html', ['preview', 'c.yaml', 'd.csv', '-o', 'page.html']],
      ['out.csv', ['normalize', 'd.csv', '-o', 'out.csv']],
    ];
    for (const [target, argv] of cases) {
      const dir = await folder();
      symlinkSync(join(dir, 'victim.txt'), join(dir, target));
      const r = await runCli(dir, argv);
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
      expect(read(dir, 'victim.txt')).toBe('precious\n');
      expect(lstatSync(join(dir, target)).isFile()).toBe(true);
      // Nothing is left beside it: no temporary file.
      expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    }
  });

  test('fmt rewrites a symlinked config where it is (the link stays) and keeps its mode', async () => {
    const dir = await folder();
    writeFileSync(join(dir, 'real.yaml'), 'csv_config:\n  asset_name: a\n');
    chmodSync(join(dir, 'real.yaml'), 0o640);
    symlinkSync(join(dir, 'real.yaml'), join(dir, 'link.yaml'));
    const r = await runCli(dir, ['fmt', 'link.yaml']);
    expect(r).toEqual({ code: 0, stdout: 'link.yaml: formatted\n', stderr: '' });
    expect(lstatSync(join(dir, 'link.yaml')).isSymbolicLink()).toBe(true);
    expect(read(dir, 'real.yaml')).toBe('csvConfig:\n  assetName: a\n');
    expect(statSync(join(dir, 'real.yaml')).mode & 0o777).toBe(0o640);
  });

  test('writeFileSafely: the target holds exactly the bytes written, and nothing else is left', async () => {
    const dir = join(root, 'property');
    await mkdir(dir);
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 64 }), fc.boolean(), async (bytes, exists) => {
        const target = join(dir, 'target.bin');
        if (exists) writeFileSync(target, 'old');
        else await rm(target, { force: true });
        await writeFileSafely(target, bytes);
        expect(new Uint8Array(readFileSync(target))).toEqual(bytes);
        expect(readdirSync(dir)).toEqual(['target.bin']);
      }),
      { numRuns: 30 },
    );
  });

  test('a write that cannot happen leaves the target as it was and no temporary file', async () => {
    const dir = await folder();
    // A folder at the target: the rename fails.
    await mkdir(join(dir, 'draft.yaml'));
    const r = await runCli(dir, ['infer', 'd.csv', '-o', 'draft.yaml']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^importkit infer: cannot write draft\.yaml \(E[A-Z]+\)$/m);
    expect(readdirSync(dir).sort()).toEqual(['c.yaml', 'd.csv', 'draft.yaml', 'victim.txt']);
  });
});

describe('point 16: a command never writes over one of its inputs', () => {
  const usage = (command: string, message: string) => ({
    code: 2,
    stdout: '',
    stderr: `importkit ${command}: ${message}\n  hint: write to another file: ${message.split(' ')[0]} <new file>\nRun 'importkit ${command} --help' for usage.\n`,
  });

  test('preview -o the data file or the config, infer -o or --preview the data file: usage errors naming both', async () => {
    const dir = await folder();
    const cases: Array<[string[], string, string]> = [
      [['preview', 'c.yaml', 'd.csv', '-o', 'd.csv'], 'preview', '-o d.csv is the data file d.csv'],
      [['preview', 'c.yaml', 'd.csv', '-o', 'c.yaml'], 'preview', '-o c.yaml is the config c.yaml'],
      [['infer', 'd.csv', '-o', 'd.csv'], 'infer', '-o d.csv is the data file d.csv'],
      [['infer', 'd.csv', '--preview', 'd.csv'], 'infer', '--preview d.csv is the data file d.csv'],
      [['normalize', 'd.csv', '-o', 'd.csv'], 'normalize', '-o d.csv is the input d.csv'],
    ];
    for (const [argv, command, said] of cases) {
      expect(await runCli(dir, argv)).toEqual(
        usage(command, `${said}: importkit ${command} never writes over its inputs`),
      );
    }
    expect(read(dir, 'd.csv')).toBe(readFileSync(join(fixtures, 'channels.csv'), 'utf8'));
    expect(read(dir, 'c.yaml')).toBe(readFileSync(join(fixtures, 'channels.csv.yaml'), 'utf8'));
  });

  test('the same file by another path, a symlink or a hard link is refused too', async () => {
    const dir = await folder();
    symlinkSync(join(dir, 'd.csv'), join(dir, 'soft.csv'));
    linkSync(join(dir, 'd.csv'), join(dir, 'hard.csv'));
    linkSync(join(dir, 'c.yaml'), join(dir, 'hard.yaml'));
    const cases: Array<[string[], string, string]> = [
      [['infer', 'd.csv', '-o', 'soft.csv'], 'infer', '-o soft.csv is the data file d.csv'],
      [['infer', 'd.csv', '-o', './hard.csv'], 'infer', '-o ./hard.csv is the data file d.csv'],
      [
        ['preview', 'c.yaml', 'd.csv', '-o', 'hard.yaml'],
        'preview',
        '-o hard.yaml is the config c.yaml',
      ],
      [['normalize', 'd.csv', '-o', 'hard.csv'], 'normalize', '-o hard.csv is the input d.csv'],
    ];
    for (const [argv, command, said] of cases) {
      expect(await runCli(dir, argv)).toEqual(
        usage(
          command,
          `${said} (the same file): importkit ${command} never writes over its inputs`,
        ),
      );
    }
    expect(read(dir, 'd.csv')).toBe(readFileSync(join(fixtures, 'channels.csv'), 'utf8'));
    expect(await isSameFile(join(dir, 'hard.csv'), join(dir, 'd.csv'))).toBe(true);
    expect(await isSameFile(join(dir, 'c.yaml'), join(dir, 'd.csv'))).toBe(false);
    expect(await isSameFile(join(dir, 'missing'), join(dir, 'missing'))).toBe(false);
  });

  test('two outputs on one file are refused', async () => {
    const dir = await folder();
    expect(await runCli(dir, ['infer', 'd.csv', '-o', 'x.html', '--preview', './x.html'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "importkit infer: -o x.html and --preview ./x.html name the same file\n  hint: give each output its own file\nRun 'importkit infer --help' for usage.\n",
    });
  });
});
