import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkConfig } from '../../src/check/index.js';
import type { Io } from '../../src/cli/io.js';
import { run } from '../../src/cli/run.js';
import { inferCsv } from '../../src/formats/csv/infer.js';
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

  test('day-first or month-first dates with a zone name: named by infer, rewritten with the order the values give', async () => {
    const input = join(dir, 'dmy-zone.csv');
    await writeFile(
      input,
      'time;v\n21.02.2024 18:30:34 CET;1,5\n21.02.2024 06:30:35 PM CET;2,5\n01/07/2024 18:30:36 Europe/Berlin;3,5\n',
    );
    const draft = await inferCsv(input);
    expect(draft.issues.filter((i) => i.severity === 'error').map((i) => i.code)).toContain(
      'csv_time_zone_name',
    );
    const out = join(dir, 'dmy-zone.out.csv');
    const report = await normalizeCsv(input, out);
    expect(report.issues).toEqual([]);
    expect(await readFile(out, 'utf8')).toBe(
      'time,v\n2024-02-21T18:30:34+01:00,1.5\n2024-02-21T18:30:35+01:00,2.5\n2024-07-01T18:30:36+02:00,3.5\n',
    );
    // No value decides the order: the column is left as written, and the order asked for.
    const ambiguous = join(dir, 'ambiguous-zone.csv');
    await writeFile(ambiguous, 'time,v\n01/02/2024 18:30:34 UTC,1\n01/02/2024 18:30:35 UTC,2\n');
    const kept = await normalizeCsv(ambiguous, join(dir, 'ambiguous-zone.out.csv'));
    expect(kept.issues.map((i) => i.code)).toEqual(['normalize_date_order_unknown']);
    const given = join(dir, 'ambiguous-zone.mdy.csv');
    await normalizeCsv(ambiguous, given, { dateOrder: 'mdy' });
    expect(await readFile(given, 'utf8')).toBe(
      'time,v\n2024-01-02T18:30:34Z,1\n2024-01-02T18:30:35Z,2\n',
    );
  });

  test('times of several shapes that normalize rewrites, most of a column: rewritten; a quarter of one: named, kept', async () => {
    const input = join(dir, 'shapes.csv');
    await writeFile(
      input,
      'time,v\n15/03/2024 12:12:36 PM,1\n10/01/2024 18:02:51.25,2\n11/01/2024 18:02:52,3\n',
    );
    const out = join(dir, 'shapes.out.csv');
    const report = await normalizeCsv(input, out);
    expect(report.issues).toEqual([]);
    expect(await readFile(out, 'utf8')).toBe(
      'time,v\n2024-03-15T12:12:36Z,1\n2024-01-10T18:02:51.25Z,2\n2024-01-11T18:02:52Z,3\n',
    );
    const notes = join(dir, 'notes.csv');
    await writeFile(
      notes,
      'time,note\n2024-01-01T00:00:00Z,a\n2024-01-01T00:00:01Z,15/03/2024 12:12:36 PM\n2024-01-01T00:00:02Z,b\n2024-01-01T00:00:03Z,c\n',
    );
    const kept = await normalizeCsv(notes, join(dir, 'notes.out.csv'));
    expect(kept.issues).toMatchObject([
      {
        code: 'normalize_column_kept',
        severity: 'warning',
        message: `${notes}: column 2 (note) was left as written: 1 of its 4 values read is a time the platform cannot read (1 12-hour with AM/PM), and normalize rewrites a column when more than half are`,
      },
    ]);
  });

  test('a --date-order the dates contradict: those dates are kept, and an error says which order they read in', async () => {
    const input = join(dir, 'contradicted.csv');
    await writeFile(
      input,
      'time,v\n04/29/2024 05:13:48 AM,1\n05/02/2024 05:13:49 AM,2\n04/30/2024 05:13:50 AM,3\n',
    );
    const out = join(dir, 'contradicted.out.csv');
    const report = await normalizeCsv(input, out, { dateOrder: 'dmy' });
    expect(report.issues).toMatchObject([
      {
        code: 'normalize_date_order_contradicted',
        severity: 'error',
        message: `${input}: 2 dates in column 1 (time) read month-first, not dmy as given, and were kept as written; first at row 2: '04/29/2024'`,
        source: { column: 1, row: 2 },
      },
    ]);
    // The date that reads either way is read as given.
    expect((await readFile(out, 'utf8')).split('\n')[2]).toBe('2024-02-05T05:13:49Z,2');
    // Given as the dates read, nothing is said.
    const right = await normalizeCsv(input, join(dir, 'right.out.csv'), { dateOrder: 'mdy' });
    expect(right.issues).toEqual([]);
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

  test('with a warning on the copy, it does not say that nothing needed changing', async () => {
    const notes = join(dir, 'notes-cli.csv');
    await writeFile(
      notes,
      'time,note\n2024-01-01T00:00:00Z,a\n2024-01-01T00:00:01Z,15/03/2024 12:12:36 PM\n',
    );
    const { io, out } = fakeIo();
    await run(['normalize', notes, '-o', join(dir, 'notes-cli.out.csv')], io);
    expect(out.stdout).toContain('nothing was changed: the copy is byte for byte the same');
    expect(out.stderr).toContain('warning normalize_column_kept');
  });

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

  test('day-first and month-first dates in one column: converted, the order decided by the values, else asked for', async () => {
    const cases: Array<[string, string, string[]]> = [
      [
        'dmy-one.csv',
        'time,v\n30.03.2024 23:58:00,1\n31.03.2024 00:10:00,2\n',
        ['2024-03-30T23:58:00Z', '2024-03-31T00:10:00Z'],
      ],
      [
        'mdy-date.csv',
        'date,v\n10/18/2010,1\n10/19/2010,2\n',
        ['2010-10-18T00:00:00Z', '2010-10-19T00:00:00Z'],
      ],
    ];
    for (const [name, text, times] of cases) {
      await writeFile(join(dir, name), text);
      const { io, out } = fakeIo();
      expect(await run(['normalize', name, '-o', `${name}.out`], io)).toBe(0);
      expect(out.stderr).toBe('');
      const written = (await readFile(join(dir, `${name}.out`), 'utf8')).split('\n');
      expect(written.slice(1, 3).map((l) => l.split(',')[0])).toEqual(times);
      expect(out.stdout).toMatch(/draft for \S+: clean/);
    }
    // Only days up to 12, with the one day that decides far down the file.
    const rows = Array.from(
      { length: 3000 },
      (_, i) => `0${(i % 9) + 1}/0${(i % 7) + 1}/2024,${i}`,
    );
    rows[1700] = '03/25/2024,1700';
    await writeFile(join(dir, 'late.csv'), `date,v\n${rows.join('\n')}\n`);
    const late = fakeIo();
    expect(await run(['normalize', 'late.csv', '-o', 'late.out.csv'], late.io)).toBe(0);
    const lateOut = (await readFile(join(dir, 'late.out.csv'), 'utf8')).split('\n');
    expect([lateOut[1], lateOut[1701]]).toEqual([
      '2024-01-01T00:00:00Z,0',
      '2024-03-25T00:00:00Z,1700',
    ]);
    // Nothing decides: left as written, the order asked for (exit 1); given, converted.
    await writeFile(join(dir, 'either.csv'), 'date,v\n01/02/2010,1\n03/04/2010,2\n');
    const asked = fakeIo();
    expect(await run(['normalize', 'either.csv', '-o', 'either.out.csv'], asked.io)).toBe(1);
    expect(await readFile(join(dir, 'either.out.csv'), 'utf8')).toBe(
      'date,v\n01/02/2010,1\n03/04/2010,2\n',
    );
    expect(asked.out.stderr).toBe(
      [
        `error normalize_date_order_unknown: ${join(dir, 'either.csv')}: the dates in column 1 (date) read day-first or month-first, and no value decides which (no day above 12): the column was left as written`,
        '  hint: Give the order with --date-order dmy (10/03/2024 is 10 March) or --date-order mdy (3 October).',
        '',
      ].join('\n'),
    );
    const given = fakeIo();
    const args = ['normalize', 'either.csv', '-o', 'either.out.csv', '--date-order', 'mdy'];
    expect(await run(args, given.io)).toBe(0);
    expect(await readFile(join(dir, 'either.out.csv'), 'utf8')).toBe(
      'date,v\n2010-01-02T00:00:00Z,1\n2010-03-04T00:00:00Z,2\n',
    );
  });

  test('--timezone: the hour repeated when summer time ends is read in row order, and its rows are named', async () => {
    await writeFile(
      join(dir, 'fallback.csv'),
      'Date,Time,v\n2024-10-27,01:30:00,1\n2024-10-27,02:30:00,2\n2024-10-27,02:59:00,3\n2024-10-27,02:30:00,4\n2024-10-27,03:30:00,5\n',
    );
    const { io, out } = fakeIo();
    const args = [
      'normalize',
      'fallback.csv',
      '-o',
      'fallback.out.csv',
      '--timezone',
      'Europe/Berlin',
    ];
    expect(await run(args, io)).toBe(0);
    expect(await readFile(join(dir, 'fallback.out.csv'), 'utf8')).toBe(
      [
        'Time,v',
        '2024-10-27T01:30:00+02:00,1',
        '2024-10-27T02:30:00+02:00,2',
        '2024-10-27T02:59:00+02:00,3',
        '2024-10-27T02:30:00+01:00,4',
        '2024-10-27T03:30:00+01:00,5',
        '',
      ].join('\n'),
    );
    expect(out.stderr).toBe(
      `warning normalize_time_repeated_hour: ${join(dir, 'fallback.csv')}: rows 3, 4, 5 (Time) hold local times Europe/Berlin repeats when summer time ends; read in row order, as summer time until the clock goes back, then as standard time\n`,
    );
  });
});
