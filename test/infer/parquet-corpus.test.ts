import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { inferParquet } from '../../src/formats/parquet/infer.js';
import { platformExamples as corpus } from '../helpers/paths.js';

describe('corpus Parquet files infer the configs the platform imports them with', () => {
  test('parquet-flat.parquet: flatDataset, time `timestamp`, footer 10798 / 2523', async () => {
    const file = join(corpus, 'parquet-flat.parquet');
    const draft = await inferParquet(file);
    expect(statSync(file).size - 2523 - 8).toBe(10798);
    expect(draft.document).toEqual({
      parquetConfig: {
        assetName: 'parquet-flat',
        flatDataset: {
          timeColumn: { path: 'timestamp', format: 'TIME_FORMAT_ABSOLUTE_UNIX_MICROSECONDS' },
          dataColumns: ['speed', 'rpm', 'temperature'].map((name) => ({
            path: name,
            channelConfig: { name, dataType: 'CHANNEL_DATA_TYPE_DOUBLE' },
          })),
        },
        footerOffset: '10798',
        footerLength: 2523,
      },
    });
    expect(draft.issues.map((i) => [i.code, i.severity])).toEqual([
      ['parquet_time_not_utc', 'info'],
    ]);
    const range = draft.evidence.find((e) => e.path === '/parquetConfig/flatDataset/timeColumn');
    expect(range?.choice).toBe('2024-01-01T00:00:00.000000Z to 2024-01-01T00:04:59.000000Z');
  });

  test('parquet-multi-channel-per-row.parquet: multiChannel {channel, value}, footer 11496 / 2041', async () => {
    const draft = await inferParquet(join(corpus, 'parquet-multi-channel-per-row.parquet'));
    expect(draft.document).toEqual({
      parquetConfig: {
        assetName: 'parquet-multi-channel-per-row',
        singleChannelPerRow: {
          timeColumn: { path: 'timestamp', format: 'TIME_FORMAT_ABSOLUTE_UNIX_MICROSECONDS' },
          multiChannel: { namePath: 'channel', dataPath: 'value' },
        },
        footerOffset: '11496',
        footerLength: 2041,
      },
    });
    const names = draft.evidence.find(
      (e) => e.path === '/parquetConfig/singleChannelPerRow/multiChannel',
    );
    expect(names?.reason).toBe(
      '3 channel names in channel (dictionary of the first row group): rpm, speed and temperature',
    );
  });

  test('parquet-single-channel-per-row.parquet: flat with one channel by default, singleChannel with --layout', async () => {
    const file = join(corpus, 'parquet-single-channel-per-row.parquet');
    const byDefault = await inferParquet(file);
    expect(byDefault.document.parquetConfig?.flatDataset?.dataColumns).toEqual([
      { path: 'value', channelConfig: { name: 'value', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' } },
    ]);
    const layout = byDefault.evidence.find((e) => e.path === '/parquetConfig/flatDataset');
    expect(layout?.alternatives?.[0]).toContain('(`layout`: single-channel)');
    const chosen = await inferParquet(file, { layout: 'single-channel' });
    expect(chosen.document).toEqual({
      parquetConfig: {
        assetName: 'parquet-single-channel-per-row',
        singleChannelPerRow: {
          timeColumn: { path: 'timestamp', format: 'TIME_FORMAT_ABSOLUTE_UNIX_MICROSECONDS' },
          singleChannel: {
            dataPath: 'value',
            channel: {
              name: 'parquet-single-channel-per-row',
              dataType: 'CHANNEL_DATA_TYPE_DOUBLE',
            },
          },
        },
        footerOffset: '5110',
        footerLength: 1596,
      },
    });
  });
});
