import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { inspectUlog } from '../../src/formats/ulog/inspect.js';
import { inferConfig } from '../../src/infer/index.js';

// Copied byte for byte from the platform's examples (sift-stack/sift,
// python/examples/data_import/, MIT, Copyright (c) 2026 Sift Stack, Inc.).
const file = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'fixtures',
  'platform-examples',
  'ulog-sample.ulg',
);

const channel = (messageName: string, fieldName: string, type: string) => ({
  messageName,
  instance: '0',
  fieldName,
  channelConfig: { name: `${messageName}_0.${fieldName}`, dataType: `CHANNEL_DATA_TYPE_${type}` },
});

describe('the platform example ulog-sample.ulg', () => {
  test('infers the config its README lists: three messages, two log messages, ver_sw, BAT1_CAPACITY', async () => {
    const draft = await inferConfig(file);
    expect(draft.kind).toBe('ulog');
    expect(draft.document).toEqual({
      ulogConfig: {
        assetName: 'ulog-sample',
        // In the order the platform's client drafts them: by message name, then instance.
        data: [
          channel('battery_status', 'voltage_v', 'FLOAT'),
          channel('battery_status', 'current_a', 'FLOAT'),
          channel('battery_status', 'connected', 'BOOL'),
          channel('sensor_accel', 'x', 'FLOAT'),
          channel('sensor_accel', 'y', 'FLOAT'),
          channel('sensor_accel', 'z', 'FLOAT'),
          channel('sensor_gps', 'time_utc_usec', 'UINT_64'),
          channel('sensor_gps', 'lat', 'INT_32'),
          channel('sensor_gps', 'lon', 'INT_32'),
          channel('sensor_gps', 'alt', 'FLOAT'),
          channel('sensor_gps', 'satellites_used', 'UINT_32'),
          {
            messageName: 'log_messages',
            channelConfig: { name: 'log_messages', dataType: 'CHANNEL_DATA_TYPE_STRING' },
          },
        ],
      },
    });
    expect(draft.issues).toEqual([]);
    const byPath = new Map(draft.evidence.map((e) => [e.path, e]));
    expect(byPath.get('/ulogConfig/relativeStartTime')?.reason).toMatch(
      /^sensor_gps instance 0 has time_utc_usec \d+ \(20\d\d-/,
    );
    expect(byPath.get('/ulogConfig/infoKeys')?.alternatives).toEqual(['ver_sw']);
    expect(byPath.get('/ulogConfig/paramKeys')?.alternatives).toEqual(['BAT1_CAPACITY']);
    expect(byPath.get('/ulogConfig/data/11')?.reason).toBe(
      '2 logged text messages: one STRING channel',
    );
  });

  test('the profile: header, definitions, subscriptions with message counts, two logs', async () => {
    const p = await inspectUlog(file);
    expect({
      version: p.version,
      startTimestamp: p.startTimestamp,
      flags: p.flags,
      sections: p.sections,
      info: p.info,
      parameters: p.parameters,
      subscriptions: p.subscriptions.map((s) => [s.messageName, s.multiId, s.messages]),
      logs: p.logs,
      issues: p.issues,
    }).toEqual({
      version: 1,
      startTimestamp: '10000000',
      flags: {
        compat: [0, 0, 0, 0, 0, 0, 0, 0],
        incompat: [0, 0, 0, 0, 0, 0, 0, 0],
        appendedOffsets: ['0', '0', '0'],
        dataAppended: false,
        defaultParameters: false,
      },
      sections: { definitions: [16, 368], data: [368, 2064], appended: [] },
      info: [{ key: 'ver_sw', type: 'char[5]', value: '1.0.0' }],
      parameters: [{ name: 'BAT1_CAPACITY', type: 'int32_t', value: 5000 }],
      subscriptions: [
        ['sensor_accel', 0, 50],
        ['sensor_gps', 0, 6],
        ['battery_status', 0, 6],
      ],
      logs: { untagged: 2, tagged: [] },
      issues: [],
    });
  });
});
