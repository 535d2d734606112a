import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { TdmsProfile } from '../../src/formats/tdms/inspect.js';
import { inferConfig } from '../../src/infer/index.js';
import { inspectFile } from '../../src/inspect/index.js';
import type { TdmsDataEntry } from '../../src/model/tdms.js';

/** The platform's own example files (see fixtures/platform-examples). */
const dir = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'fixtures',
  'platform-examples',
);
const channels = Array.from({ length: 10 }, (_, i) => `channel_${i}`);

function entry(name: string, units: string, description: string, time?: string): TdmsDataEntry {
  return {
    groupName: 'Measurements',
    channelName: name,
    channelConfig: {
      name: `Measurements.${name}`,
      units,
      description,
      dataType: 'CHANNEL_DATA_TYPE_DOUBLE',
    },
    ...(time ? { timeChannelName: time } : {}),
  };
}

describe("the platform's example TDMS files", () => {
  test('tdms-waveform.tdms: waveform channels, no time channel (as its README lists)', async () => {
    const file = join(dir, 'tdms-waveform.tdms');
    const draft = await inferConfig(file, { runName: 'tdms-example' });
    expect(draft.document).toEqual({
      tdmsConfig: {
        assetName: 'tdms-waveform',
        runName: 'tdms-example',
        data: channels.map((c, i) => entry(c, 'V', `Synthetic waveform channel ${i}`)),
        fallbackMethod: 'TDMS_FALLBACK_METHOD_FAIL_ON_ERROR',
        importFileProperties: true,
      },
    });
    expect(draft.issues).toEqual([]);
  });

  test('tdms-time-channel.tdms: every channel timed by Timestamp (as its README lists)', async () => {
    const file = join(dir, 'tdms-time-channel.tdms');
    const draft = await inferConfig(file);
    expect(draft.document).toEqual({
      tdmsConfig: {
        assetName: 'tdms-time-channel',
        data: channels.map((c, i) =>
          entry(c, 'A', `Synthetic time-channel data ${i}`, 'Timestamp'),
        ),
        fallbackMethod: 'TDMS_FALLBACK_METHOD_FAIL_ON_ERROR',
      },
    });
    expect(draft.issues.map((i) => [i.code, i.severity, i.path])).toEqual([
      ['tdms_file_properties', 'info', '/tdmsConfig/importFileProperties'],
    ]);
  });

  test('inspection reads the metadata only, never the raw data', async () => {
    const profile = (await inspectFile(join(dir, 'tdms-time-channel.tdms'))) as TdmsProfile;
    expect(profile.format).toBe('tdms');
    expect(profile.segments).toBe(1);
    // 11 channels × 100 values (f64 and 16-byte timestamps) follow the metadata unread.
    expect(profile.bytesRead).toBe(profile.file.size - 10 * 100 * 8 - 100 * 16);
    expect(profile.channels.map((c) => [c.name, c.dataType, c.valueCount])).toEqual([
      ['Timestamp', 'timestamp', 100],
      ...channels.map((c) => [c, 'f64', 100]),
    ]);
    expect(profile.properties).toEqual([
      { name: 'name', type: 'string', value: 'sample_data_time_channel' },
      { name: 'datetime', type: 'timestamp', value: '2024-10-07T17:00:00Z' },
      {
        name: 'description',
        type: 'string',
        value: 'Synthetic 50 Hz data with an explicit time channel.',
      },
    ]);
  });
});
