import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { run } from '../../src/cli/run.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fixtures = join(repoRoot, 'fixtures', 'csv');

function fakeIo() {
  const out = { stdout: '', stderr: '' };
  const io: Io = {
    stdout: {
      write: (s) => {
        out.stdout += s;
      },
    },
    stderr: {
      write: (s) => {
        out.stderr += s;
      },
    },
    env: {},
    cwd: fixtures,
  };
  return { io, out };
}

describe('importkit inspect', () => {
  test('text: summary, dialect, layout and a table of columns', async () => {
    const { io, out } = fakeIo();
    expect(await run(['inspect', 'units-row.csv'], io)).toBe(0);
    const lines = out.stdout.split('\n');
    expect(lines[0]).toMatch(/^units-row\.csv: CSV, \d+ bytes$/);
    expect(out.stdout).toContain('delimiter=","');
    expect(out.stdout).toContain('unitsRow=2');
    expect(lines.some((l) => /^2\s+speed\s+DOUBLE\s+m\/s\s+0\s/.test(l))).toBe(true);
    expect(lines.some((l) => /^1\s+timestamp\s+STRING\s+rfc3339\s/.test(l))).toBe(true);
  });

  test('json: the whole profile', async () => {
    const { io, out } = fakeIo();
    expect(await run(['inspect', 'number-edges.csv', '--format', 'json'], io)).toBe(0);
    const profile = JSON.parse(out.stdout) as {
      format: string;
      fields: Array<{ name: string; physicalType: string }>;
      layout: { firstDataRow: number };
    };
    expect(profile.format).toBe('csv');
    expect(profile.layout.firstDataRow).toBe(2);
    expect(profile.fields.map((f) => [f.name, f.physicalType])).toEqual([
      ['timestamp', 'STRING'],
      ['big', 'INT_64'],
      ['huge', 'UINT_64'],
      ['code', 'STRING'],
      ['special', 'DOUBLE'],
      ['neg64', 'INT_64'],
    ]);
  });

  test('options: delimiter and header row', async () => {
    const { io, out } = fakeIo();
    expect(
      await run(
        ['inspect', 'semicolon.csv', '--delimiter', ';', '--header-row', '0', '--format', 'json'],
        io,
      ),
    ).toBe(0);
    const profile = JSON.parse(out.stdout) as {
      layout: { headerRow: number; firstDataRow: number };
    };
    expect(profile.layout).toMatchObject({ headerRow: 0, firstDataRow: 1 });
  });

  test('a missing file exits 2 (as in every command) with one line; usage errors exit 2', async () => {
    const missing = fakeIo();
    expect(await run(['inspect', 'nope.csv'], missing.io)).toBe(2);
    expect(missing.out.stderr.trim().split('\n')).toHaveLength(1);
    for (const args of [[], ['a.csv', 'b.csv'], ['a.csv', '--format', 'yaml']]) {
      const u = fakeIo();
      expect(await run(['inspect', ...args], u.io)).toBe(2);
    }
  });
});
