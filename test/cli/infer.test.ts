import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { inferOptionsFromArgs } from '../../src/cli/commands/infer.js';
import type { Io } from '../../src/cli/io.js';
import { createProgress } from '../../src/cli/progress.js';
import { run } from '../../src/cli/run.js';
import { platformExamples } from '../helpers/paths.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const corpusCsv = join(platformExamples, 'csv-absolute-datetime.csv');
const fixtures = join(repoRoot, 'fixtures', 'csv');

function fakeIo(cwd = repoRoot, env: Record<string, string> = {}, tty = false) {
  const out = { stdout: '', stderr: '' };
  const io: Io = {
    stdout: {
      write: (s) => {
        out.stdout += s;
      },
      isTTY: tty,
    },
    stderr: {
      write: (s) => {
        out.stderr += s;
      },
      isTTY: tty,
      columns: 100,
    },
    env,
    cwd,
  };
  return { io, out };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-cli-infer-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('importkit infer', () => {
  test('YAML with a comment naming the file; the same document as JSON', async () => {
    const yaml = fakeIo();
    expect(await run(['infer', corpusCsv], yaml.io)).toBe(0);
    expect(yaml.out.stdout.split('\n')[0]).toBe(
      '# Draft CsvConfig inferred by importkit from csv-absolute-datetime.csv.',
    );
    const json = fakeIo();
    expect(await run(['infer', corpusCsv, '--format', 'json'], json.io)).toBe(0);
    const doc = JSON.parse(json.out.stdout) as Record<string, unknown>;
    expect(parse(yaml.out.stdout)).toEqual(doc);
    expect(doc).toMatchObject({
      csvConfig: {
        firstDataRow: 2,
        timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_DATETIME' },
      },
    });
    // Issues go to stderr only.
    expect(json.out.stderr).toContain('info infer_time_zone_assumed_utc');
    expect(json.out.stdout).not.toContain('infer_time_zone_assumed_utc');
  });

  test('--explain prints the evidence as a table on stderr', async () => {
    const { io, out } = fakeIo();
    expect(await run(['infer', corpusCsv, '--explain', '--format', 'json'], io)).toBe(0);
    const lines = out.stderr.split('\n');
    expect(lines[0]).toMatch(/^path\s+choice\s+confidence\s+reason$/);
    expect(
      lines.some((l) =>
        /^\/csvConfig\/timeColumn\/columnNumber\s+1 \(timestamp\)\s+high\s+score/.test(l),
      ),
    ).toBe(true);
    expect(() => JSON.parse(out.stdout)).not.toThrow();
  });

  test('a draft with errors is printed and exits 1', async () => {
    const { io, out } = fakeIo();
    expect(await run(['infer', join(fixtures, 'no-time.csv')], io)).toBe(1);
    expect(parse(out.stdout)).toMatchObject({ csvConfig: { dataColumns: { '1': { name: 'a' } } } });
    expect(out.stdout).toContain('It still has');
    expect(out.stderr).toContain('error infer_time_column_not_found');
  });

  test('a Parquet file with no time column: the error names the file', async () => {
    const { io, out } = fakeIo();
    const file = join(repoRoot, 'fixtures', 'parquet', 'no-time.parquet');
    expect(await run(['infer', file], io)).toBe(1);
    expect(out.stderr).toBe(
      [
        `error parquet_no_time_column: ${file}: no column looks like time (no TIMESTAMP column, no time-named integer column, no date-time text)`,
        '  at /parquetConfig',
        '  hint: Name it with the --time-column option and give its format with --time-format.',
        'no-time.parquet: 1 error(s), 0 warning(s), 0 info',
        '',
      ].join('\n'),
    );
  });

  test('options are applied (time column by name, start time, asset, run)', async () => {
    const { io, out } = fakeIo();
    const code = await run(
      [
        'infer',
        join(fixtures, 'relative-ms-no-start.csv'),
        '--time-column',
        'elapsed_ms',
        '--relative-start',
        '2024-05-01T00:00:00Z',
        '--asset',
        'rig',
        '--run',
        'r1',
        '--format',
        'json',
      ],
      io,
    );
    expect(code).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({
      csvConfig: {
        assetName: 'rig',
        runName: 'r1',
        timeColumn: {
          columnNumber: 1,
          format: 'TIME_FORMAT_RELATIVE_MILLISECONDS',
          relativeStartTime: '2024-05-01T00:00:00Z',
        },
      },
    });
  });

  test('-o writes the file and nothing to stdout', async () => {
    const { io, out } = fakeIo(dir);
    expect(await run(['infer', corpusCsv, '-o', 'draft.yaml'], io)).toBe(0);
    expect(out.stdout).toBe('');
    expect(out.stderr).toContain('wrote draft.yaml');
    expect(parse(await readFile(join(dir, 'draft.yaml'), 'utf8'))).toHaveProperty(
      'csvConfig.firstDataRow',
      2,
    );
  });

  test('-o draft.json writes JSON, which lint reads back; --format yaml for a .json file is refused', async () => {
    const { io, out } = fakeIo(dir);
    expect(await run(['infer', corpusCsv, '-o', 'named.json'], io)).toBe(0);
    const text = await readFile(join(dir, 'named.json'), 'utf8');
    const yaml = fakeIo(dir);
    expect(await run(['infer', corpusCsv], yaml.io)).toBe(0);
    expect(JSON.parse(text)).toEqual(parse(yaml.out.stdout));
    const lint = fakeIo(dir);
    expect(await run(['lint', 'named.json'], lint.io)).toBe(0);
    expect(out.stdout).toBe('');

    const clash = fakeIo(dir);
    expect(await run(['infer', corpusCsv, '-o', 'clash.json', '--format', 'yaml'], clash.io)).toBe(
      2,
    );
    expect(clash.out.stderr).toContain(
      "--format yaml writes YAML, and -o 'clash.json' names a JSON",
    );
    // JSON is YAML: asked for, it goes into a .yaml file.
    const json = fakeIo(dir);
    expect(await run(['infer', corpusCsv, '-o', 'asked.yaml', '--format', 'json'], json.io)).toBe(
      0,
    );
    expect(JSON.parse(await readFile(join(dir, 'asked.yaml'), 'utf8'))).toEqual(JSON.parse(text));
    const other = fakeIo(dir);
    expect(await run(['infer', corpusCsv, '-o', 'draft.txt'], other.io)).toBe(0);
    expect((await readFile(join(dir, 'draft.txt'), 'utf8')).startsWith('# Draft CsvConfig')).toBe(
      true,
    );
    await rm(join(dir, 'named.json'));
    await rm(join(dir, 'asked.yaml'));
    await rm(join(dir, 'draft.txt'));
  });

  test('a missing file: exit 2 (as in every command); unknown or corrupt input: one clear line, exit 1', async () => {
    const missing = fakeIo();
    expect(await run(['infer', join(dir, 'nope.csv')], missing.io)).toBe(2);
    expect(missing.out.stderr.trim().split('\n')[0]).toMatch(
      /^importkit infer: error file_not_found: .*no such file$/,
    );
    const junkPath = join(dir, 'junk.csv');
    await writeFile(
      junkPath,
      new Uint8Array(3000).map((_, i) => (i * 131) % 256),
    );
    const junk = fakeIo();
    expect(await run(['infer', junkPath], junk.io)).toBe(1);
    expect(junk.out.stderr).toMatch(/^importkit infer: error (unknown_format|csv_not_text): /);
    expect(junk.out.stderr).not.toContain('    at ');
    const empty = join(dir, 'empty.csv');
    await writeFile(empty, '');
    const e = fakeIo();
    expect(await run(['infer', empty], e.io)).toBe(1);
    expect(e.out.stderr).toContain('error file_empty');
    expect(e.out.stdout).toBe('');
  });

  test.each([
    [[]],
    [['a.csv', 'b.csv']],
    [['x.csv', '--format', 'xml']],
    [['x.csv', '--time-format', 'weekly']],
    [['x.csv', '--relative-start', 'yesterday']],
    [['x.csv', '--layout', 'wide']],
    [['x.csv', '--complex-types', 'ALL']],
    [['x.tdms', '--tdms-names', 'short']],
    [['x.csv', '--header-row', 'first']],
    [['x.csv', '--delimiter', 'x']],
    [['x.csv', '--time-column', '0']],
    [['x.csv', '--no-such-flag']],
  ])('usage error %j exits 2', async (args) => {
    const { io, out } = fakeIo();
    expect(await run(['infer', ...args], io)).toBe(2);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(/^importkit infer: /);
  });

  test('--help lists every flag', async () => {
    const { io, out } = fakeIo();
    expect(await run(['infer', '--help'], io)).toBe(0);
    for (const flag of [
      '--asset',
      '--run',
      '--time-column',
      '--time-format',
      '--relative-start',
      '--full',
      '--explain',
      '--format',
      '--output',
      '--layout',
      '--complex-types',
      '--time-dataset',
      '--tdms-names',
      '--delimiter',
      '--header-row',
    ])
      expect(out.stdout).toContain(flag);
  });
});

describe('TDMS channel names', () => {
  const file = join(repoRoot, 'fixtures', 'tdms', 'complex-and-strings.tdms');
  const names = (stdout: string) =>
    (
      parse(stdout) as { tdmsConfig: { data: Array<{ channelConfig: { name: string } }> } }
    ).tdmsConfig.data.map((e) => e.channelConfig.name);

  test('as the platform names them by default; plain with --tdms-names plain; the evidence says which', async () => {
    const qualified = fakeIo();
    expect(await run(['infer', file, '--explain'], qualified.io)).toBe(0);
    expect(names(qualified.out.stdout)).toEqual([
      'C.impedance.real',
      'C.impedance.imag',
      'C.phasor.real',
      'C.phasor.imag',
      'C.label',
    ]);
    expect(qualified.out.stderr).toMatch(
      /\/tdmsConfig\/data\/0\/channelConfig\/name +<group>\.<channel> +high +as the platform's own command line and Python client name TDMS channels/,
    );
    expect(qualified.out.stderr).toContain(
      '    - --tdms-names plain: the channel name, the group added only where names clash\n',
    );
    const plain = fakeIo();
    expect(await run(['infer', file, '--explain', '--tdms-names', 'plain'], plain.io)).toBe(0);
    expect(names(plain.out.stdout)).toEqual([
      'impedance.real',
      'impedance.imaginary',
      'phasor.real',
      'phasor.imaginary',
      'label',
    ]);
    expect(plain.out.stderr).toMatch(
      /channelConfig\/name +the channel name +high +given as an option \(plain\)/,
    );
  });
});

describe('flags → InferOptions', () => {
  test('every flag maps to its option', () => {
    expect(
      inferOptionsFromArgs({
        asset: 'a',
        run: 'r',
        'time-column': '3',
        'time-format': 'relative_seconds',
        'relative-start': '2024-01-01T00:00:00Z',
        delimiter: 'tab',
        'header-row': '0',
        layout: 'multi-channel',
        'complex-types': 'string',
        'time-dataset': '/g/time',
        'tdms-names': 'plain',
        full: true,
      }),
    ).toEqual({
      assetName: 'a',
      runName: 'r',
      timeColumn: 3,
      timeFormat: 'TIME_FORMAT_RELATIVE_SECONDS',
      relativeStartTime: '2024-01-01T00:00:00Z',
      delimiter: '\t',
      headerRow: 0,
      layout: 'multi-channel',
      complexTypes: 'PARQUET_COMPLEX_TYPES_IMPORT_MODE_STRING',
      timeDataset: '/g/time',
      tdmsNames: 'plain',
      full: true,
    });
    expect(inferOptionsFromArgs({ 'time-column': 'clock' })).toEqual({ timeColumn: 'clock' });
    expect(inferOptionsFromArgs({})).toEqual({});
  });
});

describe('progress', () => {
  test('quiet when not a terminal or in CI', () => {
    const plain = fakeIo();
    const p = createProgress(plain.io, 'reading', 100);
    p.update(50);
    p.done();
    expect(p.active).toBe(false);
    expect(plain.out.stderr).toBe('');
    const ci = fakeIo(repoRoot, { CI: 'true' }, true);
    createProgress(ci.io, 'reading', 100).update(10);
    expect(ci.out.stderr).toBe('');
  });
  test('draws a bar on a terminal and clears it at the end', () => {
    const tty = fakeIo(repoRoot, {}, true);
    let now = 0;
    const p = createProgress(tty.io, 'reading', 4 * 1024 * 1024, { now: () => now });
    p.update(1024 * 1024);
    now += 50;
    p.update(2 * 1024 * 1024); // throttled
    now += 100;
    p.update(2 * 1024 * 1024);
    p.done();
    const frames = tty.out.stderr.split('\r').filter((f) => f.startsWith('reading'));
    expect(frames).toHaveLength(2);
    expect(frames[0]).toContain(' 25% 1.0 MiB/4.0 MiB');
    expect(frames[1]).toContain(' 50% 2.0 MiB/4.0 MiB');
    expect(tty.out.stderr.endsWith('\r\x1b[K')).toBe(true);
  });
});
