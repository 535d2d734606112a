import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { checkConfig } from '../../src/check/index.js';
import type { ChannelDataType } from '../../src/model/enums.js';
import type { UlogConfig } from '../../src/model/ulog.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'ulog');
const file = (name: string) => join(fixtures, `${name}.ulg`);

async function check(name: string, ulogConfig: UlogConfig) {
  const issues = await checkConfig({ ulogConfig }, file(name));
  return issues.map(({ code, severity, path, message, hint }) => ({
    code,
    severity,
    path,
    message,
    ...(hint ? { hint } : {}),
  }));
}

const accel = (instance: string, fieldName: string, type = 'FLOAT') => ({
  messageName: 'sensor_accel',
  instance,
  fieldName,
  channelConfig: {
    name: `a${instance}.${fieldName}`,
    dataType: `CHANNEL_DATA_TYPE_${type}` as ChannelDataType,
  },
});

describe('checkUlog', () => {
  test('a config that fits its log has no issue', async () => {
    expect(
      await check('multi-instance-gps', {
        data: [accel('0', 'x'), accel('2', 'z')],
        infoKeys: ['sys_name', 'perf_counter_preflight'],
        paramKeys: ['MC_ROLL_P'],
      }),
    ).toEqual([]);
  });

  test('messages, instances, fields, types and keys the log lacks, with did-you-mean', async () => {
    expect(
      await check('multi-instance-gps', {
        data: [
          { messageName: 'sensor_acel', instance: '0', fieldName: 'x' },
          accel('5', 'x'),
          accel('1', 'xx'),
          accel('0', 'y', 'STRING'),
          accel('0', 'z', 'DOUBLE'),
          {
            messageName: 'vehicle_gps_position',
            instance: '0',
            fieldName: 'lat',
            channelConfig: { name: 'lat', dataType: 'CHANNEL_DATA_TYPE_FLOAT' },
          },
          {
            messageName: 'log_messages',
            channelConfig: { name: 'log', dataType: 'CHANNEL_DATA_TYPE_STRING' },
          },
        ],
        infoKeys: ['sys_nam'],
        paramKeys: ['NOPE'],
      }),
    ).toEqual([
      {
        code: 'ulog_message_not_in_file',
        severity: 'error',
        path: '/ulogConfig/data/0/messageName',
        message: 'sensor_acel is not a message of the log',
        hint: "Did you mean 'sensor_accel'?",
      },
      {
        code: 'ulog_instance_not_in_file',
        severity: 'error',
        path: '/ulogConfig/data/1/instance',
        message: 'sensor_accel has no instance 5; the log has instance(s) 0, 1 and 2',
        hint: 'Use one of 0, 1 and 2.',
      },
      {
        code: 'ulog_field_not_in_file',
        severity: 'error',
        path: '/ulogConfig/data/2/fieldName',
        message: "sensor_accel has no field 'xx'",
        hint: "Did you mean 'x'?",
      },
      {
        code: 'value_type_mismatch',
        severity: 'error',
        path: '/ulogConfig/data/3/channelConfig/dataType',
        message: 'sensor_accel_0.y is float (FLOAT); declared STRING does not fit it',
        hint: 'Use dataType: CHANNEL_DATA_TYPE_FLOAT.',
      },
      {
        code: 'type_too_wide',
        severity: 'warning',
        path: '/ulogConfig/data/4/channelConfig/dataType',
        message: 'sensor_accel_0.z is float (FLOAT); declared DOUBLE is wider than it needs',
        hint: 'Use dataType: CHANNEL_DATA_TYPE_FLOAT.',
      },
      {
        code: 'type_too_narrow',
        severity: 'warning',
        path: '/ulogConfig/data/5/channelConfig/dataType',
        message: 'vehicle_gps_position_0.lat is int32_t (INT_32); declared FLOAT loses precision',
        hint: 'Use dataType: CHANNEL_DATA_TYPE_INT_32.',
      },
      {
        code: 'ulog_message_not_in_file',
        severity: 'error',
        path: '/ulogConfig/data/6/messageName',
        message: 'log_messages: the log has no such logged text; it has none',
      },
      {
        code: 'ulog_key_not_in_file',
        severity: 'warning',
        path: '/ulogConfig/infoKeys/0',
        message: "the log has no info key 'sys_nam'",
        hint: "Did you mean 'sys_name'?",
      },
      {
        code: 'ulog_key_not_in_file',
        severity: 'warning',
        path: '/ulogConfig/paramKeys/0',
        message: "the log has no parameter 'NOPE'",
        hint: "The log's parameters: BAT1_CAPACITY and MC_ROLL_P.",
      },
    ]);
  });

  test('keys and names PX4 writes that are not C identifiers fit (pyulog reads them)', async () => {
    expect(
      await check('px4-names', {
        relativeStartTime: '2024-05-01T12:00:00Z',
        data: [
          {
            messageName: 'esc_status',
            instance: '0',
            fieldName: 'esc[1].rate-hz',
            channelConfig: { name: 'rate', dataType: 'CHANNEL_DATA_TYPE_FLOAT' },
          },
        ],
        infoKeys: [
          'perf_counter_preflight-03',
          'sys/uuid',
          'perf_top-00',
          'sys_uuid_bytes',
          'esc_default',
        ],
        paramKeys: ['SENS-BOARD/ROT', 'LOG_BIG'],
      }),
    ).toEqual([]);
    // An appended-data offset at the end of the file: nothing appended, nothing wrong.
    expect(
      await check('appended-empty', {
        relativeStartTime: '2024-05-01T12:00:00Z',
        data: [accel('0', 'x')],
      }),
    ).toEqual([]);
  });

  test('no GPS and no relativeStartTime: the import would fail', async () => {
    expect(await check('no-gps', { data: [accel('0', 'x')] })).toEqual([
      {
        code: 'ulog_start_time_missing',
        severity: 'error',
        path: '/ulogConfig',
        message:
          'the log has no GPS message with a UTC time and the config gives no relativeStartTime: the import fails',
        hint: 'Add relativeStartTime (RFC 3339, when the vehicle booted).',
      },
    ]);
  });

  test('damage fails under FAIL_ON_ERROR, is a warning under IGNORE_ERROR; tagged logs are found', async () => {
    const base: UlogConfig = { relativeStartTime: '2024-05-01T12:00:00Z' };
    const strict = await check('damaged-truncated', base);
    expect(strict.map((i) => [i.code, i.severity, i.path])).toEqual([
      ['ulog_damage_fails_import', 'error', '/ulogConfig/parseErrorPolicy'],
      ['ulog_truncated', 'warning', '/ulogConfig'],
    ]);
    const lenient = await check('damaged-truncated', {
      ...base,
      parseErrorPolicy: 'ULOG_PARSE_ERROR_POLICY_IGNORE_ERROR',
    });
    expect(lenient.map((i) => [i.code, i.severity])).toEqual([
      ['ulog_damaged', 'warning'],
      ['ulog_truncated', 'warning'],
    ]);
    const logs = await check('logging', {
      ...base,
      data: [{ messageName: 'log_messages_7' }, { messageName: 'log_messages_3' }],
    });
    expect(logs).toEqual([
      {
        code: 'ulog_message_not_in_file',
        severity: 'error',
        path: '/ulogConfig/data/1/messageName',
        message:
          'log_messages_3: the log has no such logged text; it has log_messages, log_messages_7 and log_messages_1',
      },
      {
        // The fixture logs both tag-7 lines at the same time: the platform keeps one of them.
        code: 'time_repeated',
        severity: 'warning',
        path: '/ulogConfig/data/0',
        message:
          '1 message repeats the time of the message before; first at message 1 of log_messages_7 (offset 274, timestamp 2001000 µs)',
      },
    ]);
  });
});
