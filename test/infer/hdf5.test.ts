import fs, { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { writeHdf5 } from '../../scripts/fixtures/hdf5.js';
import { run } from '../../src/cli/run.js';
import { hdf5ChannelTypeOf as channelTypeOf } from '../../src/formats/hdf5/channel-types.js';
import { draftFromHdf5Profile, inferHdf5 } from '../../src/formats/hdf5/infer.js';
import { comparePaths, pathChannelName } from '../../src/formats/hdf5/infer-datasets.js';
import { cfDate } from '../../src/formats/hdf5/infer-time.js';
import type { Hdf5Dataset, Hdf5Profile, Hdf5Type } from '../../src/formats/hdf5/inspect.js';
import { inferConfig } from '../../src/infer/index.js';
import { InspectError } from '../../src/inspect/profile.js';
import { platformExamples as corpus } from '../helpers/paths.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const tmp = mkdtempSync(join(tmpdir(), 'importkit-hdf5-infer-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const ns = 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS';

describe('the platform examples infer the configs the corpus README lists', () => {
  test('hdf5-one-d.h5: each channel pairs /timestamp with its value dataset', async () => {
    const draft = await inferConfig(join(corpus, 'hdf5-one-d.h5'));
    expect(draft.kind).toBe('hdf5');
    expect(draft.document).toEqual({
      hdf5Config: {
        assetName: 'hdf5-one-d',
        data: [0, 1, 2].map((i) => ({
          timeDataset: '/timestamp',
          valueDataset: `/channel_${i}`,
          channelConfig: { name: `channel_${i}`, units: 'V', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' },
        })),
        timeFormat: ns,
      },
    });
    expect(draft.issues).toEqual([]);
  });

  test("hdf5-two-d.h5: time and value dataset the same, timeIndex 0, valueIndex 1; each channel named as the platform's CLI names a column, not by its Name attribute", async () => {
    const draft = await inferConfig(join(corpus, 'hdf5-two-d.h5'));
    expect(draft.document).toEqual({
      hdf5Config: {
        assetName: 'hdf5-two-d',
        data: [0, 1, 2].map((i) => ({
          timeDataset: `/sensor_${i}`,
          timeIndex: '0',
          valueDataset: `/sensor_${i}`,
          valueIndex: '1',
          channelConfig: {
            name: `sensor_${i}.1`,
            units: 'm/s',
            dataType: 'CHANNEL_DATA_TYPE_DOUBLE',
          },
        })),
        timeFormat: ns,
      },
    });
    expect(draft.issues).toEqual([]);
  });

  test('hdf5-compound.h5: timeField timestamp, one channel per other member', async () => {
    const draft = await inferConfig(join(corpus, 'hdf5-compound.h5'));
    const member = (field: string, dataType: string) => ({
      timeDataset: '/sensors',
      timeField: 'timestamp',
      valueDataset: '/sensors',
      valueField: field,
      channelConfig: { name: `sensors.${field}`, dataType },
    });
    expect(draft.document).toEqual({
      hdf5Config: {
        assetName: 'hdf5-compound',
        data: [
          member('voltage', 'CHANNEL_DATA_TYPE_DOUBLE'),
          member('current', 'CHANNEL_DATA_TYPE_DOUBLE'),
          member('temperature', 'CHANNEL_DATA_TYPE_FLOAT'),
        ],
        timeFormat: ns,
      },
    });
    expect(draft.issues).toEqual([]);
    const paths = draft.evidence.map((e) => e.path);
    expect(paths).toContain('/hdf5Config/timeFormat');
    expect(draft.evidence.find((e) => e.path === '/hdf5Config/data/0')?.choice).toBe(
      'COMPOUND: /sensors member timestamp → /sensors member voltage',
    );
  });

  test('HDF5 content with another extension (.nc, .dat) is inferred by its signature', async () => {
    for (const ext of ['nc', 'dat']) {
      const copy = join(tmp, `copy.${ext}`);
      fs.copyFileSync(join(corpus, 'hdf5-compound.h5'), copy);
      const draft = await inferConfig(copy);
      expect(draft.kind).toBe('hdf5');
      expect(draft.document.hdf5Config?.data).toHaveLength(3);
    }
  });
});

describe('an [N, k] dataset is a time table only when a column can be time', () => {
  test('a 64 x 64 image of zeros is left out with the reason, not 63 channels', async () => {
    const file = join(tmp, 'zeros.h5');
    await writeHdf5(file, [
      { path: '/image', kind: 'float64', shape: [64, 64], values: new Array(64 * 64).fill(0) },
    ]);
    const draft = await inferConfig(file);
    expect(draft.document.hdf5Config?.data).toEqual([]);
    expect(draft.issues.map((i) => [i.severity, i.code, i.message])).toEqual([
      [
        'info',
        'hdf5_dataset_skipped',
        '/image: left out: shape [64, 64]: column 0 is constant (0, 0, 0 …): not a time column (an image or a matrix?); name the time column in a `columns` attribute to import it',
      ],
      [
        'error',
        'hdf5_no_channels',
        'no dataset fits a layout the platform imports (1 datasets, 1 left out)',
      ],
    ]);
  });

  test('a constant column 0 is fine when another column is named as time; one that rises is time', async () => {
    const file = join(tmp, 'named.h5');
    const t0 = 1_735_689_600;
    await writeHdf5(file, [
      {
        path: '/named',
        kind: 'float64',
        shape: [6, 3],
        values: Array.from({ length: 18 }, (_, i) => (i % 3 === 0 ? 1 : i % 3 === 1 ? t0 + i : i)),
        attrs: { columns: ['id', 'time', 'v'] },
      },
      {
        path: '/rising',
        kind: 'float64',
        shape: [6, 2],
        values: Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? t0 + i : i)),
      },
    ]);
    const data = (await inferConfig(file)).document.hdf5Config?.data ?? [];
    expect(data.map((e) => [e.valueDataset, e.timeIndex, e.valueIndex])).toEqual([
      ['/named', '1', '0'],
      ['/named', '1', '2'],
      ['/rising', '0', '1'],
    ]);
  });
});

describe('importkit infer on HDF5', () => {
  function io() {
    const out: string[] = [];
    const err: string[] = [];
    return {
      out,
      err,
      io: {
        stdout: { write: (s: string) => void out.push(s) },
        stderr: { write: (s: string) => void err.push(s) },
        env: {},
        cwd: repoRoot,
      },
    };
  }

  test('--time-dataset, --time-format, --relative-start and --explain are honoured', async () => {
    const file = join(tmp, 'cli.h5');
    await writeHdf5(file, [
      { path: '/clock', kind: 'int32', values: [0, 1, 2, 3] },
      { path: '/g/v', kind: 'float32', values: [1, 2, 3, 4], attrs: { Name: 'volts' } },
    ]);
    const a = io();
    const code = await run(
      [
        'infer',
        file,
        '--time-dataset',
        '/clock',
        '--time-format',
        'RELATIVE_MILLISECONDS',
        '--relative-start',
        '2024-01-01T00:00:00Z',
        '--explain',
        '--format',
        'json',
      ],
      a.io,
    );
    expect(code).toBe(0);
    expect(JSON.parse(a.out.join(''))).toEqual({
      hdf5Config: {
        assetName: 'cli',
        data: [
          {
            timeDataset: '/clock',
            valueDataset: '/g/v',
            channelConfig: { name: 'g.v', dataType: 'CHANNEL_DATA_TYPE_FLOAT' },
          },
        ],
        timeFormat: 'TIME_FORMAT_RELATIVE_MILLISECONDS',
        relativeStartTime: '2024-01-01T00:00:00Z',
      },
    });
    const explained = a.err.join('');
    expect(explained).toContain('given as an option (--time-dataset)');
    expect(explained).toContain('given as an option (--time-format)');
    expect(explained).toContain('given as an option (--relative-start)');
    // The Name attribute is offered, not used: the platform's CLI names channels by path.
    expect(explained).toContain(
      "the dataset path /g/v with / as ., as the platform's CLI names it",
    );
    expect(explained).toContain(
      "volts: attribute Name of /g/v (as the platform's Python client names it)",
    );
  });

  test('without options the same file has no time for /g/v: an empty draft, exit 1', async () => {
    const a = io();
    const code = await run(['infer', join(tmp, 'cli.h5'), '--format', 'json'], a.io);
    // No channel: one error saying so (the missing timeFormat it implies is not said twice).
    expect(code).toBe(1);
    expect(JSON.parse(a.out.join('')).hdf5Config.data).toEqual([]);
    expect(a.err.join('')).toContain('error hdf5_no_channels');
    expect(a.err.join('')).not.toContain('time_format_missing');
  });

  test('an unknown --time-dataset is an error draft (exit 1); a truncated file exits 1', async () => {
    const a = io();
    const code = await run(
      ['infer', join(corpus, 'hdf5-one-d.h5'), '--time-dataset', 'nope', '--format', 'json'],
      a.io,
    );
    expect(code).toBe(1);
    expect(a.err.join('')).toContain(
      [
        'error hdf5_time_dataset_not_found: --time-dataset /nope: no such dataset',
        '  at /hdf5Config',
        "  hint: The file's datasets: /channel_0, /channel_1, /channel_2 and /timestamp.",
      ].join('\n'),
    );
    const cut = join(tmp, 'cut.h5');
    fs.writeFileSync(cut, fs.readFileSync(join(corpus, 'hdf5-one-d.h5')).subarray(0, 3000));
    const b = io();
    expect(await run(['infer', cut], b.io)).toBe(1);
    expect(b.err.join('')).toContain(
      `${cut}: truncated HDF5 file: 3000 bytes, but its superblock says it ends at byte 9792`,
    );
    expect(b.out.join('')).toBe('');
  });
});

describe('the type mapping', () => {
  const int = (size: number, signed: boolean): Hdf5Type => ({ class: 'integer', size, signed });
  test('integers, floats, strings, opaque', () => {
    const cases: Array<[Hdf5Type, string]> = [
      [int(1, true), 'CHANNEL_DATA_TYPE_INT_32'],
      [int(2, true), 'CHANNEL_DATA_TYPE_INT_32'],
      [int(4, true), 'CHANNEL_DATA_TYPE_INT_32'],
      [int(8, true), 'CHANNEL_DATA_TYPE_INT_64'],
      [int(1, false), 'CHANNEL_DATA_TYPE_UINT_32'],
      [int(2, false), 'CHANNEL_DATA_TYPE_UINT_32'],
      [int(4, false), 'CHANNEL_DATA_TYPE_UINT_32'],
      [int(8, false), 'CHANNEL_DATA_TYPE_UINT_64'],
      [{ class: 'float', size: 2 }, 'CHANNEL_DATA_TYPE_FLOAT'],
      [{ class: 'float', size: 4 }, 'CHANNEL_DATA_TYPE_FLOAT'],
      [{ class: 'float', size: 8 }, 'CHANNEL_DATA_TYPE_DOUBLE'],
      [{ class: 'string', size: 4, variableLength: true }, 'CHANNEL_DATA_TYPE_STRING'],
      [{ class: 'string', size: 12, variableLength: false }, 'CHANNEL_DATA_TYPE_STRING'],
      [{ class: 'opaque', size: 16 }, 'CHANNEL_DATA_TYPE_BYTES'],
    ];
    expect(cases.map(([t]) => channelTypeOf(t))).toEqual(cases.map(([, d]) => ({ dataType: d })));
  });

  test('h5py booleans are BOOL; other enums are ENUM with their own mapping', () => {
    const e = (members: Array<[string, number]>): Hdf5Type => ({
      class: 'enum',
      size: 1,
      enumMembers: members.map(([name, value]) => ({ name, value })),
    });
    expect(
      channelTypeOf(
        e([
          ['FALSE', 0],
          ['TRUE', 1],
        ]),
      ),
    ).toEqual({
      dataType: 'CHANNEL_DATA_TYPE_BOOL',
    });
    expect(
      channelTypeOf(
        e([
          ['OFF', 0],
          ['ON', 1],
        ]),
      ),
    ).toEqual({
      dataType: 'CHANNEL_DATA_TYPE_ENUM',
      enumTypes: [
        { name: 'OFF', key: 0 },
        { name: 'ON', key: 1 },
      ],
    });
    expect(
      channelTypeOf(
        e([
          ['NEG', -2],
          ['POS', 3],
        ]),
      ),
    ).toEqual({
      dataType: 'CHANNEL_DATA_TYPE_ENUM',
      enumTypes: [
        { name: 'NEG', key: 4294967294, isSigned: true },
        { name: 'POS', key: 3, isSigned: true },
      ],
    });
  });

  test('others are skipped with the reason', () => {
    expect(channelTypeOf({ class: 'bitfield', size: 1 })).toEqual({
      skip: 'bitfield8: a bitfield type names no bit layout (BIT_FIELD needs bitFieldElements)',
    });
    expect(channelTypeOf({ class: 'reference', size: 8 })).toEqual({
      skip: 'reference: no channel type for HDF5 reference data',
    });
    expect(channelTypeOf({ class: 'float', size: 16 })).toEqual({
      skip: 'float128: floats wider than 64 bits have no channel type',
    });
    expect(channelTypeOf(int(16, true))).toEqual({
      skip: 'int128: integers wider than 64 bits have no channel type',
    });
  });
});

describe('names, units and time facts', () => {
  test('path names and path order', () => {
    expect(pathChannelName('/a/b/c')).toBe('a.b.c');
    expect(['/a.b', '/a/x', '/a', '/B'].sort(comparePaths)).toEqual(['/B', '/a', '/a/x', '/a.b']);
  });

  test('CF dates become RFC 3339 (UTC when no zone is given)', () => {
    expect(cfDate('1970-01-01 00:00:00')).toEqual({
      rfc3339: '1970-01-01T00:00:00Z',
      zoneGiven: false,
    });
    expect(cfDate('2024-3-1 6:5:4.25 +02:00')).toEqual({
      rfc3339: '2024-03-01T06:05:04.25+02:00',
      zoneGiven: true,
    });
    expect(cfDate('2024-03-01')).toEqual({ rfc3339: '2024-03-01T00:00:00Z', zoneGiven: false });
    expect(cfDate('2024-03-01T00:00:00 UTC')?.rfc3339).toBe('2024-03-01T00:00:00Z');
    expect(cfDate('yesterday')).toBeUndefined();
    expect(cfDate('2024-13-01')).toBeUndefined();
  });

  function profileOf(time: Partial<Hdf5Dataset>): Hdf5Profile {
    const base = (path: string, extra: Partial<Hdf5Dataset>): Hdf5Dataset => ({
      path,
      name: path.slice(1),
      type: { class: 'float', size: 8 },
      shape: [3],
      maxshape: [3],
      chunks: null,
      filters: [],
      attributes: [],
      isDimensionScale: false,
      ...extra,
    });
    return {
      format: 'hdf5',
      file: { path: '/data/run.h5', size: 100 },
      bytesRead: 0,
      fields: [],
      issues: [],
      superblock: { offset: 0, version: 0, sizeOfOffsets: 8, baseAddress: 0 },
      groups: [{ path: '/', attributes: [] }],
      datasets: [base('/time', time), base('/v', {})],
      links: [],
    };
  }
  const units = (value: string) => ({
    attributes: [{ name: 'units', type: { class: 'string' as const, size: 4 }, shape: [], value }],
  });
  const rows = (...values: string[]) => ({ head: values.map((v) => [v]) });

  test.each([
    ['seconds since 1970-01-01 00:00:00', ['0'], 'TIME_FORMAT_ABSOLUTE_UNIX_SECONDS', undefined],
    ['ms since 1970-01-01T00:00:00Z', ['0'], 'TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS', undefined],
    ['minutes since 1970-01-01', ['0'], 'TIME_FORMAT_RELATIVE_MINUTES', '1970-01-01T00:00:00Z'],
    [
      'seconds since 2024-05-01 08:00',
      ['0'],
      'TIME_FORMAT_RELATIVE_SECONDS',
      '2024-05-01T08:00:00Z',
    ],
    ['ns', ['1735689600000000000'], 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS', undefined],
    ['ns', ['0', '5'], 'TIME_FORMAT_RELATIVE_NANOSECONDS', undefined],
    ['us', ['12'], 'TIME_FORMAT_RELATIVE_MICROSECONDS', undefined],
  ])('units %s with values %j → %s', (u, values, format, start) => {
    const draft = draftFromHdf5Profile(profileOf({ ...units(u), ...rows(...values) }));
    expect(draft.document.hdf5Config?.timeFormat).toBe(format);
    expect(draft.document.hdf5Config?.relativeStartTime).toBe(start);
  });

  test.each([
    [['1735689600'], 'TIME_FORMAT_ABSOLUTE_UNIX_SECONDS'],
    [['1735689600000'], 'TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS'],
    [['1735689600000000'], 'TIME_FORMAT_ABSOLUTE_UNIX_MICROSECONDS'],
    [['1735689600000000000', '1735689601000000000'], ns],
    [['2024-05-01T10:00:00Z'], 'TIME_FORMAT_ABSOLUTE_RFC3339'],
    [['2024-05-01 10:00:00.5'], 'TIME_FORMAT_ABSOLUTE_DATETIME'],
  ])('no units: values %j → %s', (values, format) => {
    const text = values[0]?.includes('-');
    const draft = draftFromHdf5Profile(
      profileOf({ ...rows(...values), ...(text ? { type: { class: 'string', size: 4 } } : {}) }),
    );
    expect(draft.document.hdf5Config?.timeFormat).toBe(format);
    expect(draft.issues).toEqual([]);
  });

  test('no units and small values: relative seconds guessed, with a warning', () => {
    const draft = draftFromHdf5Profile(profileOf(rows('0', '0.5', '1')));
    expect(draft.document.hdf5Config?.timeFormat).toBe('TIME_FORMAT_RELATIVE_SECONDS');
    expect(draft.issues.map((i) => [i.code, i.severity, i.path])).toEqual([
      ['hdf5_time_format_guessed', 'warning', '/hdf5Config/timeFormat'],
    ]);
  });

  test('days since …: no time format, a warning', () => {
    const draft = draftFromHdf5Profile(
      profileOf({ ...units('days since 2000-01-01'), ...rows('1') }),
    );
    expect(draft.document.hdf5Config?.timeFormat).toBeUndefined();
    expect(draft.issues.map((i) => i.code)).toEqual(['hdf5_time_unit_unsupported']);
  });

  test('bad options are error issues in the draft', () => {
    const draft = draftFromHdf5Profile(profileOf(rows('0')), {
      timeFormat: 'SOMETIMES',
      relativeStartTime: 'noon',
    });
    expect(draft.issues.map((i) => [i.code, i.path])).toEqual([
      ['hdf5_time_format_invalid', '/hdf5Config/timeFormat'],
      ['hdf5_relative_start_invalid', '/hdf5Config/relativeStartTime'],
      ['hdf5_time_format_guessed', '/hdf5Config/timeFormat'],
    ]);
  });
});

describe('errors reach the caller as InspectError', () => {
  test('a CSV file named .h5 is not inferred as HDF5', async () => {
    const csv = join(tmp, 'fake.h5');
    fs.writeFileSync(csv, 'a,b\n1,2\n');
    const err = await inferHdf5(csv).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InspectError);
    expect((err as InspectError).issue.code).toBe('hdf5_signature_missing');
  });
});
