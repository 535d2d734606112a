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

describe('inspect output is exactly right', () => {
  const inspectText = async (file: string) => {
    const { io, out } = fakeIo();
    expect(await run(['inspect', join(repoRoot, 'fixtures', file)], io)).toBe(0);
    return out.stdout.split('\n');
  };

  test('CSV read whole: the bytes read are the file size, not more', async () => {
    const lines = await inspectText('csv/units-row.csv');
    const size = Number(/CSV, (\d+) bytes$/.exec(lines[0] ?? '')?.[1]);
    expect(lines[1]).toMatch(new RegExp(`^read ${size} bytes;`));
  });

  test('HDF5: a compound type is shown whole; no empty # column', async () => {
    const lines = await inspectText('hdf5/compound.h5');
    const header = lines.find((l) => l.startsWith('name'));
    expect(header).toMatch(/^name\s+type\s+logical\s+units\s+empty\s+samples$/);
    const compound = lines.find((l) => /compound\{/.test(l)) ?? '';
    const type = /compound\{[^}]*\}/.exec(compound)?.[0] ?? '';
    expect(type.length).toBeGreaterThan(40);
    expect(type.endsWith('}')).toBe(true);
  });

  test('Parquet: each column numbered, with samples from its first page', async () => {
    const lines = await inspectText('parquet/single-channel.parquet');
    const table = lines.slice(lines.findIndex((l) => l.startsWith('#')) + 1).filter(Boolean);
    expect(table.length).toBeGreaterThan(1);
    table.forEach((row, i) => {
      expect(row.startsWith(`${i + 1} `)).toBe(true);
      // The samples column: the last one, after the empty count.
      expect(row).toMatch(/\s0\s+\S.*$/);
    });
  });
});
