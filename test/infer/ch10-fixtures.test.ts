import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Expected, ExpectedError } from '../../scripts/fixtures/ch10.js';
import { inferCh10 } from '../../src/formats/ch10/infer.js';
import { inspectCh10 } from '../../src/formats/ch10/inspect.js';
import { inferConfig } from '../../src/infer/index.js';
import { InspectError } from '../../src/inspect/profile.js';
import { fixtureCases } from '../helpers/fixtures.js';

const {
  dir,
  cases,
  load,
  file: dataFile,
} = fixtureCases<Expected | ExpectedError>('ch10', '.ch10');

describe('CH10 fixtures', () => {
  test('there are fixtures of every kind', () => {
    expect(cases).toHaveLength(10);
  });

  test.each(cases)('%s', async (name) => {
    const expected = load(name);
    const file = dataFile(name);
    if ('error' in expected) {
      const err = await inferConfig(file).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(InspectError);
      expect((err as InspectError).issue.code).toBe(expected.error.code);
      expect((err as InspectError).message).toContain(file);
      return;
    }
    const draft = await inferConfig(file, expected.options);
    const profile = await inspectCh10(file);
    expect({
      document: draft.document,
      issues: draft.issues.map((i) => ({ code: i.code, severity: i.severity })),
      programName: profile.tmats.programName,
      channels: profile.channels.map((c) => ({
        channelId: c.channelId,
        name: c.name,
        dataType: c.dataType,
      })),
      packets: profile.inventory.map((c) => ({
        channelId: c.channelId,
        packets: c.packets,
        dataTypes: c.dataTypes.map((t) => t.dataType),
      })),
      start: profile.packets.start,
      stop: profile.packets.stop,
    }).toEqual({ start: undefined, stop: undefined, ...expected, options: undefined });
    expect(profile.packets.read).toBe('all');
    expect(profile.bytesRead).toBe(profile.file.size); // the head read once, headers from it
  });

  test('the explain evidence names what scaleValues was decided from', async () => {
    const draft = await inferCh10(join(dir, 'recorder.ch10'));
    expect(draft.evidence.map((e) => [e.path, e.choice, e.reason])).toEqual([
      ['/ch10Config/assetName', 'recorder', "default: the file's base name"],
      [
        '/ch10Config/scaleValues',
        'true',
        'the TMATS record defines 1 data conversion (C-x\\DCN) for 4 channels (TIMIN, PCMIN, 1553IN, ANAIN)',
      ],
    ]);
  });

  test('the inventory of a recording where most listed channels are idle', async () => {
    const profile = await inspectCh10(join(dir, 'idle-channels.ch10'));
    expect(
      profile.issues.map((i) => [i.code, i.severity, i.message.replace(/^.*?: /, '')]),
    ).toEqual([
      [
        'ch10_channel_without_packets',
        'info',
        "4 of the 6 channels the TMATS record lists carry no packets (2 of them disabled): 3 'PCM-MAIN', 5 'ANALOG-1', 6 'VIDEO-1' and 7 'DISCRETE-1'",
      ],
      [
        'ch10_channel_not_in_tmats',
        'warning',
        'packets on 1 channel ID the TMATS record does not list: 9 (1 packet of 0x19 1553 F1)',
      ],
    ]);
    expect(profile.fields.map((f) => [f.name, f.logicalType ?? '', f.samples.join(' | ')])).toEqual(
      [
        ['IRIG-TIME', '0x11 time F1', '2 packets | 72 bytes | 0.000 s to 1.000 s'],
        ['PCM-MAIN', '', 'no packets'],
        ['BUS-A', '0x19 1553 F1', '2 packets | 120 bytes | 0.200 s to 1.200 s'],
        ['ANALOG-1', '', 'no packets'],
        ['VIDEO-1', '', 'no packets'],
        ['DISCRETE-1', '', 'no packets'],
        ['channel 9 (not in TMATS)', '0x19 1553 F1', '1 packet | 60 bytes | 0.300 s to 0.300 s'],
      ],
    );
  });

  test('a time packet in the day-of-year format gives no date: no absolute time range', async () => {
    const profile = await inspectCh10(join(dir, 'no-conversions.ch10'));
    expect(profile.packets.firstTime?.time).toEqual({
      format: 'day',
      text: 'day 061 12:00:00.000',
      source: 1,
    });
    expect([profile.packets.start, profile.packets.stop]).toEqual([undefined, undefined]);
  });
});
