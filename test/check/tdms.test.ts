/**
 * TDMS checks: every fixture's expected draft fits its file; deliberately wrong configs
 * (a misspelt group, channel or time channel, a channel with no timing, a wrong type, a
 * complex component on a real channel) give exactly their issues: whole lists, pinned.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { checkConfig } from '../../src/check/index.js';
import type { ImportDocument } from '../../src/model/document.js';
import type { Issue } from '../../src/model/issue.js';
import type { TdmsConfig } from '../../src/model/tdms.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'tdms');
const valid = readdirSync(dir)
  .filter((f) => f.endsWith('.expected.json') && !f.startsWith('error-'))
  .map((f) => f.replace(/\.expected\.json$/, ''))
  .sort();

function draft(name: string): ImportDocument & { tdmsConfig: TdmsConfig } {
  const expected = JSON.parse(readFileSync(join(dir, `${name}.expected.json`), 'utf8')) as {
    document: ImportDocument & { tdmsConfig: TdmsConfig };
  };
  return structuredClone(expected.document);
}

const pin = (issues: Issue[]) =>
  issues.map((i) => ({ code: i.code, severity: i.severity, path: i.path, hint: i.hint }));
const entry = (doc: { tdmsConfig: TdmsConfig }, i: number) => {
  const e = doc.tdmsConfig.data?.[i];
  if (!e) throw new Error(`no entry ${i}`);
  return e;
};

describe('TDMS fixture drafts fit their files, sampled and with full', () => {
  // DAQmx raw data is not decoded: the check says its values were not read. A waveform
  // marked relative is imported at 1904 without startTimeOverride, which the draft leaves
  // for its user to set (infer warns of it too).
  const expected = (name: string) =>
    name === 'daqmx'
      ? ['tdms_values_not_read', 'tdms_values_not_read']
      : name === 'untimed-and-relative-waveform'
        ? ['tdms_waveform_start_relative']
        : [];
  test.each(valid)('%s', async (name) => {
    for (const full of [false, true]) {
      const issues = await checkConfig(draft(name), join(dir, `${name}.tdms`), { full });
      expect(issues.filter((i) => i.severity !== 'info').map((i) => i.code)).toEqual(
        expected(name),
      );
    }
  });
});

describe('wrong TDMS configs', () => {
  test('misspelt group, channel and time channel: did you mean', async () => {
    const doc = draft('time-channel');
    entry(doc, 0).groupName = 'log';
    entry(doc, 1).channelName = 'vlid';
    entry(doc, 2).timeChannelName = 'Tme';
    entry(doc, 3).channelName = 'nothing-like-it';
    const issues = await checkConfig(doc, join(dir, 'time-channel.tdms'));
    expect(pin(issues)).toEqual([
      {
        code: 'tdms_group_not_in_file',
        severity: 'error',
        path: '/tdmsConfig/data/0/groupName',
        hint: "Did you mean 'Log'?",
      },
      {
        code: 'tdms_channel_not_in_file',
        severity: 'error',
        path: '/tdmsConfig/data/1/channelName',
        hint: "Did you mean 'valid'?",
      },
      {
        code: 'tdms_time_channel_not_in_file',
        severity: 'error',
        path: '/tdmsConfig/data/2/timeChannelName',
        hint: "Did you mean 'Time'?",
      },
      {
        code: 'tdms_channel_not_in_file',
        severity: 'error',
        path: '/tdmsConfig/data/3/channelName',
        hint: "The group's channels: Time, state, valid, note, ticks, offset and seen.",
      },
      ...['state', 'valid', 'ticks'].map(() => ({
        code: 'column_not_in_config',
        severity: 'info',
        path: '/tdmsConfig/data',
        hint: undefined,
      })),
    ]);
    expect(issues[1]?.message).toBe("channel 'vlid' is not in group 'Log'");
  });

  test('a channel with no timing, a string time channel, a wrong type, a stray complex component', async () => {
    const doc = draft('time-channel');
    delete entry(doc, 0).timeChannelName;
    entry(doc, 1).timeChannelName = 'note';
    const ticks = entry(doc, 3).channelConfig;
    if (ticks) ticks.dataType = 'CHANNEL_DATA_TYPE_STRING';
    entry(doc, 4).complexComponent = 'TDMS_COMPLEX_COMPONENT_IMAGINARY';
    const offset = entry(doc, 4).channelConfig;
    if (offset) offset.dataType = 'CHANNEL_DATA_TYPE_DOUBLE';
    const issues = await checkConfig(doc, join(dir, 'time-channel.tdms'));
    expect(pin(issues)).toEqual([
      {
        code: 'tdms_waveform_missing',
        severity: 'error',
        path: '/tdmsConfig/data/0',
        hint: "Group 'Log' has the timestamp channel 'Time'.",
      },
      {
        code: 'tdms_time_channel_not_time',
        severity: 'error',
        path: '/tdmsConfig/data/1/timeChannelName',
        hint: "Group 'Log' has the timestamp channel 'Time'.",
      },
      {
        code: 'value_type_mismatch',
        severity: 'error',
        path: '/tdmsConfig/data/3/channelConfig/dataType',
        hint: 'Declare CHANNEL_DATA_TYPE_UINT_64.',
      },
      {
        code: 'tdms_complex_component_unexpected',
        severity: 'warning',
        path: '/tdmsConfig/data/4/complexComponent',
        hint: undefined,
      },
      {
        code: 'type_too_narrow',
        severity: 'warning',
        path: '/tdmsConfig/data/4/channelConfig/dataType',
        hint: 'Declare CHANNEL_DATA_TYPE_INT_64.',
      },
    ]);
  });

  test('untimed channels: an error, a warning with IGNORE_ERROR, and for an empty data list', async () => {
    const file = join(dir, 'untimed-and-relative-waveform.tdms');
    const listed: ImportDocument = {
      tdmsConfig: {
        assetName: 'x',
        data: [{ groupName: 'Raw', channelName: 'a' }],
        fallbackMethod: 'TDMS_FALLBACK_METHOD_IGNORE_ERROR',
      },
    };
    expect(pin((await checkConfig(listed, file)).filter((i) => i.severity !== 'info'))).toEqual([
      {
        code: 'tdms_channel_will_be_skipped',
        severity: 'warning',
        path: '/tdmsConfig/data/0',
        hint: "Group 'Raw' has no timestamp channel; give a numeric time channel with timeFormat, or drop the entry.",
      },
    ]);
    const everything: ImportDocument = { tdmsConfig: { assetName: 'x' } };
    const issues = await checkConfig(everything, file);
    expect(pin(issues)).toEqual([
      {
        code: 'tdms_waveform_missing',
        severity: 'error',
        path: '/tdmsConfig/data',
        hint: 'Set fallbackMethod: TDMS_FALLBACK_METHOD_IGNORE_ERROR to skip them, or list the channels to import.',
      },
      // The file's waveform, marked relative, imported too.
      {
        code: 'tdms_waveform_start_relative',
        severity: 'warning',
        path: '/tdmsConfig/startTimeOverride',
        hint: "Set startTimeOverride: 2024-10-07T17:00:00Z (the file property 'datetime') if the acquisition started then.",
      },
    ]);
    expect(issues[0]?.message).toContain("'Raw/a' and 'Raw/b' have no time channel");
    // Set, the start is the config's: nothing to say.
    const started = { tdmsConfig: { assetName: 'x', startTimeOverride: '2024-01-01T00:00:00Z' } };
    expect((await checkConfig(started, file)).map((i) => i.code)).not.toContain(
      'tdms_waveform_start_relative',
    );
  });

  test('a numeric time channel needs timeFormat', async () => {
    const doc = draft('relative-time');
    delete doc.tdmsConfig.timeFormat;
    delete doc.tdmsConfig.relativeStartTime;
    const issues = await checkConfig(doc, join(dir, 'relative-time.tdms'));
    expect(pin(issues)).toEqual([
      {
        code: 'tdms_time_channel_not_time',
        severity: 'error',
        path: '/tdmsConfig/data/0/timeChannelName',
        hint: 'Set timeFormat (RELATIVE_SECONDS ...) and relativeStartTime.',
      },
    ]);
  });
});
