/**
 * The README's quick start, run as a newcomer would run it: the `sh walkthrough` block,
 * line by line, against a local emulator (what `importkit serve` starts), for the CSV
 * example it names and for the Parquet and HDF5 examples it says go the same way. Every
 * command exits 0; submit --wait ends SUCCEEDED; status finds the import by its id.
 */
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { run } from '../../src/cli/run.js';
import { type Emulator, startEmulator } from '../../src/emulator/index.js';

const root = join(import.meta.dirname, '..', '..');
const CSV = 'fixtures/platform-examples/csv-absolute-datetime.csv';
let emu: Emulator;
let dir: string;
let lines: string[];
/** What the README says `submit --wait` ends with. */
let endsWith: string;

beforeAll(async () => {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  const block = /```sh walkthrough\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  lines = block.split('\n').filter((l) => l.trim() !== '');
  endsWith = /`submit --wait` ends with\s+`([^`]+)`/.exec(readme)?.[1] ?? '';
  // The emulator `importkit serve` starts, with its default key.
  emu = await startEmulator({ apiKeys: { 'emulator-key': 'local' } });
  dir = await mkdtemp(join(tmpdir(), 'importkit-walkthrough-'));
  await mkdir(join(dir, 'fixtures', 'platform-examples'), { recursive: true });
});
afterAll(async () => {
  await emu.close();
  await rm(dir, { recursive: true, force: true });
});

describe("the README's quick start", () => {
  test('names the CSV example, the two variables, infer, check, submit --wait and status', () => {
    expect(lines.map((l) => l.split(/\s+/).slice(0, 3).join(' '))).toEqual([
      'export IMPORTKIT_BASE_URL=http://127.0.0.1:8080',
      'export IMPORTKIT_API_KEY=emulator-key',
      'npx importkit infer',
      'npx importkit check',
      'npx importkit submit',
      'npx importkit status',
    ]);
    expect(lines.join('\n')).toContain(CSV);
  });

  for (const example of [
    CSV,
    'fixtures/platform-examples/parquet-flat.parquet',
    'fixtures/platform-examples/hdf5-one-d.h5',
  ]) {
    test(`${example}: clone to SUCCEEDED, following only the README`, async () => {
      // The clone's file, in a fresh folder (the config the walk-through writes goes there).
      await copyFile(join(root, example), join(dir, example));
      await rm(join(dir, 'import.yaml'), { force: true });
      const env: Record<string, string> = {};
      let id = '';
      for (const line of lines) {
        const text = line.replaceAll(CSV, example).replaceAll('<id>', id);
        const exported = /^export (\w+)=(\S+)$/.exec(text);
        if (exported) {
          env[exported[1] as string] =
            exported[1] === 'IMPORTKIT_BASE_URL' ? emu.url : (exported[2] as string);
          continue;
        }
        const args = text.replace(/^npx importkit /, '').split(/\s+/);
        const out: string[] = [];
        const err: string[] = [];
        const io: Io = {
          stdout: { write: (s) => void out.push(s) },
          stderr: { write: (s) => void err.push(s) },
          env: { ...env, CI: '1' },
          cwd: dir,
        };
        const code = await run(args, io);
        expect({ line: text, code, stderr: code === 0 ? '' : err.join('') }).toEqual({
          line: text,
          code: 0,
          stderr: '',
        });
        if (args[0] === 'submit') {
          const done = /^data import (\S+): SUCCEEDED, /.exec(out.join(''));
          expect(done, out.join('')).not.toBeNull();
          id = done?.[1] ?? '';
          // The line the README shows, its placeholders filled, the asset named as inferred.
          const shown = endsWith
            .replace('csv-absolute-datetime', basename(example, extname(example)))
            .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
            .replace(/<[a-z-]+>/g, '\\S+');
          expect(out.join('')).toMatch(new RegExp(`^${shown}\n$`));
        }
        if (args[0] === 'status')
          expect(out.join('')).toMatch(new RegExp(`^data import ${id}: SUCCEEDED`));
      }
      expect(id).not.toBe('');
    });
  }
});
