/** Inference as a function of a profile: cases no writer at hand produces (INT96, DATE time), and options. */
import { describe, expect, test } from 'vitest';
import { parquetChannelTypeOf as channelTypeOf } from '../../src/formats/parquet/channel-types.js';
import { draftFromProfile } from '../../src/formats/parquet/infer.js';
import type { HeadReader } from '../../src/formats/parquet/infer-findings.js';
import type { ParquetFieldProfile, ParquetProfile } from '../../src/formats/parquet/profile.js';

function field(
  name: string,
  index: number,
  extra: Partial<ParquetFieldProfile>,
): ParquetFieldProfile {
  return {
    name,
    path: name,
    index,
    physicalType: 'DOUBLE',
    repetition: 'OPTIONAL',
    statsComplete: true,
    dictionary: false,
    samples: [],
    ...extra,
  };
}

function profile(fields: ParquetFieldProfile[]): ParquetProfile {
  return {
    format: 'parquet',
    file: { path: 'dir/spark-output.parquet', size: 5000 },
    bytesRead: 1012,
    rowCount: 100,
    fields,
    issues: [],
    footerOffset: '3992',
    footerLength: 1000,
    rowGroups: 1,
    metadataKeys: [],
  };
}

const noPages: HeadReader = async () => ({ reason: 'not read in this test' });
const codes = (d: { issues: Array<{ code: string; severity: string }> }) =>
  d.issues.map((i) => `${i.severity} ${i.code}`);

describe('draftFromProfile', () => {
  test('an INT96 time column (Spark, Hive) is taken with a warning; the whole draft', async () => {
    const p = profile([
      field('event_time', 0, { physicalType: 'INT96', temporal: { kind: 'INT96' } }),
      field('speed', 1, { units: 'km/h', description: 'vehicle speed' }),
      field('gear', 2, { physicalType: 'INT32', integer: { bitWidth: 8, signed: false } }),
    ]);
    const draft = await draftFromProfile(p, { runName: 'r1' }, noPages);
    expect(draft.document).toEqual({
      parquetConfig: {
        assetName: 'spark-output',
        runName: 'r1',
        flatDataset: {
          timeColumn: { path: 'event_time', format: 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS' },
          dataColumns: [
            {
              path: 'speed',
              channelConfig: {
                name: 'speed',
                units: 'km/h',
                description: 'vehicle speed',
                dataType: 'CHANNEL_DATA_TYPE_DOUBLE',
              },
            },
            {
              path: 'gear',
              channelConfig: { name: 'gear', dataType: 'CHANNEL_DATA_TYPE_UINT_32' },
            },
          ],
        },
        footerOffset: '3992',
        footerLength: 1000,
      },
    });
    expect(codes(draft)).toEqual(['warning parquet_time_int96']);
  });

  test('a non-time INT96 column is INT_64 with a note', () => {
    expect(
      channelTypeOf(field('x', 0, { physicalType: 'INT96', temporal: { kind: 'INT96' } })),
    ).toEqual({
      dataType: 'CHANNEL_DATA_TYPE_INT_64',
      note: 'temporal',
    });
  });

  test('statistics that fit no unix unit and no unit in the name: relative seconds, guessed', async () => {
    const p = profile([
      field('time', 0, { physicalType: 'INT64', stats: { min: '5', max: '900' } }),
      field('v', 1, {}),
    ]);
    const draft = await draftFromProfile(p, {}, noPages);
    expect(draft.document.parquetConfig?.flatDataset?.timeColumn).toEqual({
      path: 'time',
      format: 'TIME_FORMAT_RELATIVE_SECONDS',
    });
    expect(codes(draft)).toEqual([
      'warning parquet_time_unit_guessed',
      'error parquet_relative_start_unknown',
    ]);
    const given = await draftFromProfile(
      p,
      { timeFormat: 'relative_milliseconds', relativeStartTime: '2024-01-01T00:00:00Z' },
      noPages,
    );
    expect(given.document.parquetConfig?.flatDataset?.timeColumn).toEqual({
      path: 'time',
      format: 'TIME_FORMAT_RELATIVE_MILLISECONDS',
      relativeStartTime: '2024-01-01T00:00:00Z',
    });
    expect(codes(given)).toEqual([]);
  });

  test('INT64 statistics too large for 1990-2100 in any unit are called out', async () => {
    const p = profile([
      field('ts', 0, {
        physicalType: 'INT64',
        stats: { min: '9000000000000000000', max: '9100000000000000000' },
      }),
    ]);
    const draft = await draftFromProfile(p, {}, noPages);
    expect(codes(draft)).toEqual([
      'warning parquet_time_out_of_range',
      'error parquet_relative_start_unknown',
      'warning parquet_no_data_columns',
    ]);
  });

  test('options that do not fit the file are errors naming the option', async () => {
    const p = profile([
      field('time', 0, {
        physicalType: 'INT64',
        temporal: { kind: 'TIMESTAMP', unit: 'NANOS', utc: true },
      }),
      field('a', 1, {}),
      field('b', 2, {}),
    ]);
    const draft = await draftFromProfile(
      p,
      {
        timeColumn: 'clock',
        timeFormat: 'fortnights',
        layout: 'multi-channel',
        complexTypes: 'maybe',
      },
      noPages,
    );
    expect(draft.issues.map((i) => i.message)).toEqual(
      [
        '`timeColumn` clock: no such column',
        '`timeFormat` fortnights: not a time format (e.g. ABSOLUTE_UNIX_NANOSECONDS)',
        '`layout` multi-channel: the file has no text column of channel names beside the time',
      ].concat(['`complexTypes` maybe: not one of IGNORE, BOTH, STRING, BYTES']),
    );
    // Falls back to what the file says.
    expect(draft.document.parquetConfig?.flatDataset?.timeColumn).toEqual({
      path: 'time',
      format: 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS',
    });
  });

  test('--layout multi-channel takes the first text and number columns when no name tells', async () => {
    const p = profile([
      field('time', 0, {
        physicalType: 'INT64',
        temporal: { kind: 'TIMESTAMP', unit: 'NANOS', utc: true },
      }),
      field('source', 1, { physicalType: 'BYTE_ARRAY', logicalType: 'STRING' }),
      field('reading', 2, {}),
      field('flags', 3, { physicalType: 'INT32' }),
    ]);
    const auto = await draftFromProfile(p, {}, noPages);
    expect(auto.document.parquetConfig?.flatDataset?.dataColumns).toHaveLength(3);
    const asked = await draftFromProfile(p, { layout: 'multi-channel' }, async () => ({
      values: ['a', 'b', 'a'],
      from: 'dictionary',
      bytes: 40,
    }));
    expect(asked.document.parquetConfig?.singleChannelPerRow).toEqual({
      timeColumn: { path: 'time', format: 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS' },
      multiChannel: { namePath: 'source', dataPath: 'reading' },
      columns: [
        { path: 'flags', columnConfig: { name: 'flags', dataType: 'CHANNEL_DATA_TYPE_INT_32' } },
      ],
    });
    expect(asked.evidence.find((e) => e.path.endsWith('/multiChannel'))?.reason).toBe(
      '2 channel names in source (dictionary of the first row group): a and b',
    );
  });

  test('a pandas index column written by pyarrow is not a channel', async () => {
    const p = profile([
      field('timestamp', 0, {
        physicalType: 'INT64',
        temporal: { kind: 'TIMESTAMP', unit: 'MICROS', utc: true },
      }),
      field('rpm', 1, {}),
      field('__index_level_0__', 2, { physicalType: 'INT64' }),
    ]);
    const draft = await draftFromProfile(p, {}, noPages);
    expect(draft.document.parquetConfig?.flatDataset?.dataColumns).toEqual([
      { path: 'rpm', channelConfig: { name: 'rpm', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' } },
    ]);
    expect(draft.evidence.find((e) => e.choice === 'left out __index_level_0__')?.path).toBe(
      '/parquetConfig/flatDataset',
    );
  });

  test('--time-column by 1-based number, and a nested column refused as time', async () => {
    const p = profile([
      field('a', 0, {}),
      field('t_ms', 1, {
        physicalType: 'INT64',
        stats: { min: '1700000000000', max: '1700000001000' },
      }),
      field('pose', 2, { physicalType: 'GROUP', nested: 'struct', leaves: ['pose.x'] }),
    ]);
    const byNumber = await draftFromProfile(p, { timeColumn: 2 }, noPages);
    expect(byNumber.document.parquetConfig?.flatDataset?.timeColumn).toEqual({
      path: 't_ms',
      format: 'TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS',
    });
    const nested = await draftFromProfile(p, { timeColumn: 'pose' }, noPages);
    expect(nested.issues[0]?.message).toBe(
      '`timeColumn` pose: pose is a nested column and cannot be the time',
    );
  });

  test('a text time column whose page cannot be read is not guessed; a readable one is sampled', async () => {
    const p = profile([
      field('timestamp', 0, { physicalType: 'BYTE_ARRAY', logicalType: 'STRING' }),
      field('v', 1, {}),
    ]);
    const unread = await draftFromProfile(p, {}, noPages);
    expect(codes(unread)).toEqual(['info parquet_page_unread', 'error parquet_no_time_column']);
    const read = await draftFromProfile(p, {}, async () => ({
      values: ['2024-05-01 10:00:00.5', '2024-05-01 10:00:01'],
      from: 'page',
      bytes: 100,
    }));
    expect(read.document.parquetConfig?.flatDataset?.timeColumn).toEqual({
      path: 'timestamp',
      format: 'TIME_FORMAT_ABSOLUTE_DATETIME',
    });
  });
});

describe("the time column the platform's CLI takes by its name", () => {
  test('a column named Timestamp (any case) is the time, before a TIMESTAMP of another name', async () => {
    const p = profile([
      field('event_time', 0, {
        physicalType: 'INT64',
        logicalType: 'TIMESTAMP(MICROS, UTC)',
        temporal: { kind: 'TIMESTAMP', unit: 'MICROS', utc: true },
      }),
      field('Timestamp', 1, {
        physicalType: 'INT64',
        stats: { min: '1709294400000000000', max: '1709294460000000000' },
      }),
      field('speed', 2, {}),
    ]);
    const draft = await draftFromProfile(p, {}, noPages);
    expect(draft.document.parquetConfig?.flatDataset?.timeColumn).toEqual({
      path: 'Timestamp',
      format: 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS',
    });
    expect(
      draft.document.parquetConfig?.flatDataset?.dataColumns?.map((c) => c.channelConfig?.name),
    ).toEqual(['event_time', 'speed']);
    expect(codes(draft)).toEqual(['info parquet_temporal_as_int64']);
    const evidence = draft.evidence.find((e) => e.path.endsWith('/timeColumn/path'));
    expect(evidence?.reason).toMatch(
      /^Timestamp is named as the platform's CLI names a time column/,
    );
    expect(evidence?.alternatives).toEqual([
      'event_time (TIMESTAMP(MICROS, UTC)): the strongest by type',
    ]);
  });
});
