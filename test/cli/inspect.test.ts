import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { profileText } from '../../src/cli/commands/inspect.js';
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

  test('HDF5: a compound type is shown whole, wrapped in its column; shapes; no empty # column', async () => {
    const lines = await inspectText('hdf5/compound.h5');
    const at = lines.findIndex((l) => l.startsWith('name'));
    expect(lines[at]).toMatch(/^name\s+type\s+shape\s+logical\s+units\s+empty\s+samples$/);
    const typeAt = lines[at]?.indexOf('type') ?? 0;
    const shapeAt = lines[at]?.indexOf('shape') ?? 0;
    // The `pack` row and the lines its type wraps onto, up to the next row.
    const row = lines.slice(lines.findIndex((l) => l.startsWith('pack ')));
    const height = row.findIndex((l, i) => i > 0 && !l.startsWith(' '.repeat(typeAt)));
    const type = row
      .slice(0, height < 0 ? undefined : height)
      .map((l) => l.slice(typeAt, shapeAt).trim())
      .join(' ');
    expect(type).toBe(
      'compound{id: uint32, ts: int64, voltage: float64, label: string[8], ok: enum(FALSE|TRUE)}',
    );
    expect(row[0]?.slice(shapeAt).startsWith('[8] ')).toBe(true);
  });

  test('HDF5: the bytes the HDF5 library read are counted, and each dataset has its shape', async () => {
    const lines = await inspectText('hdf5/two-d.h5');
    const size = Number(/HDF5, (\d+) bytes$/.exec(lines[0] ?? '')?.[1]);
    const read = Number(/^read (\d+) bytes/.exec(lines[1] ?? '')?.[1]);
    // More than the signature and superblock (136 bytes); a small file is read about whole.
    expect(read).toBeGreaterThan(size / 2);
    const rows = lines.slice(lines.findIndex((l) => l.startsWith('name')));
    expect(rows[0]).toMatch(/^name\s+type\s+shape\s+logical/);
    expect(
      rows
        .slice(1)
        .filter(Boolean)
        .map((l) => /\[\d+(, \d+)*\]/.exec(l)?.[0]),
    ).not.toContain(undefined);
  });

  test('long and wide names (TDMS paths, CJK) wrap in their column and stay lined up by display width', () => {
    const long = 'Measurements and more measurements/Thermocouple channel with a long name 12';
    const wide = '温度センサー/チャンネル一番';
    const text = profileText({
      format: 'tdms',
      file: { path: 'x.tdms', size: 100 },
      bytesRead: 100,
      fields: [
        { name: long, physicalType: 'float64', units: 'degC', samples: ['1.5'] },
        { name: wide, physicalType: 'int32', units: 'V', samples: ['2'] },
        { name: 'short', physicalType: 'float64', samples: [] },
      ],
      issues: [],
    });
    expect(text.split('\n').slice(3)).toEqual([
      'name                                      type     logical  units  empty  samples',
      'Measurements and more measurements/       float64           degC          1.5',
      'Thermocouple channel with a long name 12',
      // 27 cells wide: 13 wide characters and a slash.
      '温度センサー/チャンネル一番               int32             V             2',
      'short                                     float64',
      '',
    ]);
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
