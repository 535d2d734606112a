import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkConfig } from '../../src/check/index.js';
import type { Io } from '../../src/cli/io.js';
import { run } from '../../src/cli/run.js';
import { inferCsv } from '../../src/infer/csv.js';
import { normalizeCsv } from '../../src/normalize/index.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fixtures = join(repoRoot, 'fixtures', 'csv');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-normalize-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The shapes normalize is for: their drafts have errors (or warnings) that the copy has not. */
const FIXED = [
  'commented-header',
  'hash-number-header',
  'semicolons-in-cells',
  'decimal-comma',
  'thousands-separators',
  'date-time-split',
  'time-zone-name',
  'time-ampm',
  'trailing-empty-columns',
  'repeated-header',
  'semicolon',
  'tab',
  'pipe',
  'bom-crlf',
];

const files = readdirSync(fixtures).filter((f) => !f.endsWith('.json'));

describe('normalize → infer → check --full: every CSV fixture round-trips', () => {
  for (const file of files) {
    test(file, async () => {
      const out = join(dir, `${file.replace(/\.(csv|tsv|csv\.gz)$/, '')}.out.csv`);
      await normalizeCsv(join(fixtures, file), out);
      const before = await inferCsv(join(fixtures, file));
      const draft = await inferCsv(out);
      const errors = draft.issues.filter((i) => i.severity === 'error').map((i) => i.code);
      // Normalizing never adds an error; the shapes it is for come out clean.
      const had = new Set(before.issues.map((i) => i.code));
      expect(errors.filter((c) => !had.has(c))).toEqual([]);
      if (FIXED.some((f) => file.startsWith(`${f}.`)))
        expect(draft.issues.filter((i) => i.severity !== 'info').map((i) => i.code)).toEqual([]);
      if (errors.length === 0) {
        const found = await checkConfig(draft.document, out, { full: true });
        expect(found.filter((i) => i.severity === 'error')).toEqual([]);
      }
    });
  }
  test('there are fixtures of every shape', () => {
    for (const f of FIXED)
      expect(
        files.some((x) => x.startsWith(`${f}.`)),
        f,
      ).toBe(true);
  });
});

describe('what normalize writes', () => {
  test('decimal commas, `;` and a repeated header: the rows the platform reads', async () => {
    const input = join(dir, 'eu.csv');
    await writeFile(
      input,
      '\ufefftime;temp;energy\n2024-03-01T12:00:00Z;20,5;1.234,5\ntime;temp;energy\n2024-03-01T12:00:01Z;-0,25;12,0\n',
    );
    const out = join(dir, 'eu.out.csv');
    const report = await normalizeCsv(input, out);
    expect(await readFile(out, 'utf8')).toBe(
      'time,temp,energy\n2024-03-01T12:00:00Z,20.5,1234.5\n2024-03-01T12:00:01Z,-0.25,12.0\n',
    );
    expect(report.counts).toEqual({
      decimalCommas: 4,
      thousandsSeparators: 0,
      timesJoined: 0,
      timesRewritten: 0,
      repeatedHeaders: 1,
      cellsKept: 0,
    });
    expect([report.delimiter, report.bomDropped]).toEqual([';', true]);
  });

  test('a split date and time in a zone: RFC 3339 with the offset of that moment (DST too)', async () => {
    const input = join(dir, 'split.csv');
    await writeFile(
      input,
      'Date,Time,v\n2024-03-30,23:30:00,1\n2024-03-31,03:30:00,2\n2024-03-31,04:00:00.5,3\n2024-04-01,00:00:00,4\n',
    );
    const out = join(dir, 'split.out.csv');
    await normalizeCsv(input, out, { timezone: 'Europe/Berlin' });
    expect(await readFile(out, 'utf8')).toBe(
      'Time,v\n2024-03-30T23:30:00+01:00,1\n2024-03-31T03:30:00+02:00,2\n2024-03-31T04:00:00.5+02:00,3\n2024-04-01T00:00:00+02:00,4\n',
    );
  });

  test('a day-first date beside a time of day: named as split (not a daily time), joined day-first', async () => {
    const input = join(dir, 'dmy.csv');
    const rows = Array.from(
      { length: 30 },
      (_, i) => `1${i % 3}.03.2024;08:${String(i).padStart(2, '0')}:00;${i},5`,
    );
    await writeFile(input, `Datum;Zeit;Wert\n${rows.join('\n')}\n`);
    const draft = await inferCsv(input);
    expect(
      draft.issues
        .filter((i) => i.severity === 'error')
        .map((i) => i.code)
        .sort(),
    ).toEqual(['csv_decimal_comma', 'csv_time_split_columns']);
    const out = join(dir, 'dmy.out.csv');
    await normalizeCsv(input, out, { timezone: 'Europe/Berlin' });
    expect((await readFile(out, 'utf8')).split('\n').slice(0, 3)).toEqual([
      'Zeit,Wert',
      '2024-03-10T08:00:00+01:00,0.5',
      '2024-03-11T08:01:00+01:00,1.5',
    ]);
  });

  test('the byte path drops repeated header lines across its 4 MiB pieces, CRLF included', async () => {
    const header = 'time,a,b';
    const rows = Array.from({ length: 200_000 }, (_, i) =>
      i % 50_000 === 49_999
        ? header
        : `2024-01-01T00:00:${String(i % 60).padStart(2, '0')}Z,${i},${i * 2}`,
    );
    const input = join(dir, 'long.csv');
    await writeFile(input, `${header}\r\n${rows.join('\r\n')}\r\n`);
    const out = join(dir, 'long.out.csv');
    const report = await normalizeCsv(input, out);
    const text = await readFile(out, 'utf8');
    expect(report.counts.repeatedHeaders).toBe(4);
    expect(text.split('\r\n').filter((l) => l === header)).toHaveLength(1);
    expect(text.length).toBe(readFileSync(input, 'utf8').length - 4 * (header.length + 2));
  });
});

describe('importkit normalize', () => {
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
      cwd: dir,
    };
    return { io, out };
  }

  test('prints what it changed and that the new draft is clean', async () => {
    await writeFile(
      join(dir, 'cli.csv'),
      'time;v\n2024-03-01T12:00:00Z;1,5\n2024-03-01T12:00:01Z;2,5\n',
    );
    const { io, out } = fakeIo();
    expect(await run(['normalize', 'cli.csv', '-o', 'cli.out.csv'], io)).toBe(0);
    expect(out.stdout).toBe(
      [
        'wrote cli.out.csv (57 bytes from 57)',
        "  delimiter ';' → ','",
        '  2 decimal comma(s) → dots',
        'draft for cli.out.csv: clean (importkit infer cli.out.csv)',
        '',
      ].join('\n'),
    );
  });

  test('refuses to write over its input, and needs -o and a known zone', async () => {
    await writeFile(join(dir, 'same.csv'), 'time,v\n2024-03-01T12:00:00Z,1\n');
    const before = await readFile(join(dir, 'same.csv'), 'utf8');
    for (const args of [
      ['normalize', 'same.csv', '-o', 'same.csv'],
      ['normalize', 'same.csv', '-o', `${dir}/./same.csv`],
      ['normalize', 'same.csv'],
      ['normalize', 'same.csv', '-o', 'x.csv', '--timezone', 'Mars/Olympus'],
    ]) {
      const { io, out } = fakeIo();
      expect(await run(args, io), args.join(' ')).toBe(2);
      expect(out.stderr).toMatch(/is the input|-o <out.csv>|not a time zone/);
    }
    expect(await readFile(join(dir, 'same.csv'), 'utf8')).toBe(before);
  });
});
