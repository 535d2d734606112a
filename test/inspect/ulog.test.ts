import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { body, UlogWriter } from '../../scripts/fixtures/ulog-writer.js';
import { draftFromUlogProfile } from '../../src/formats/ulog/infer.js';
import { inspectUlog, inspectUlogSource } from '../../src/formats/ulog/inspect.js';
import { CHUNK } from '../../src/formats/ulog/reader.js';
import { countingSource, memorySource } from '../../src/inspect/byte-source.js';
import { InspectError } from '../../src/inspect/profile.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'ulog');
const HEADER = new UlogWriter().bytes();

/** A draft, or an InspectError with a one-line message; anything else fails the test. */
async function draftOrError(bytes: Uint8Array): Promise<'draft' | string> {
  try {
    const profile = await inspectUlogSource(memorySource(bytes, 'x.ulg'));
    draftFromUlogProfile(profile);
    return 'draft';
  } catch (err) {
    expect(err).toBeInstanceOf(InspectError);
    const message = (err as InspectError).message;
    expect(message).not.toContain('\n');
    return (err as InspectError).issue.code;
  }
}

describe('robustness', () => {
  test('arbitrary bytes after the signature: a draft or a one-line error', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 3000 }), async (tail) => {
        const bytes = new Uint8Array(HEADER.byteLength + tail.byteLength);
        bytes.set(HEADER);
        bytes.set(tail, HEADER.byteLength);
        await draftOrError(bytes);
      }),
      { numRuns: 300 },
    );
  });

  test('message-shaped noise (known types, random sizes) after the signature', async () => {
    const types = [...'BFIMPQARDLCSO'].map((c) => c.charCodeAt(0));
    const msg = fc
      .tuple(fc.constantFrom(...types), fc.uint8Array({ maxLength: 60 }))
      .map(([t, p]) => Uint8Array.from([p.byteLength, 0, t, ...p]));
    await fc.assert(
      fc.asyncProperty(fc.array(msg, { maxLength: 40 }), async (msgs) => {
        const bytes = Uint8Array.from([...HEADER, ...msgs.flatMap((m) => [...m])]);
        expect(await draftOrError(bytes)).toBe('draft');
      }),
      { numRuns: 200 },
    );
  });

  test.each(['multi-instance-gps', 'appended', 'nested-arrays'])(
    '%s cut at every byte: a draft or a one-line error',
    async (name) => {
      const whole = readFileSync(join(fixtures, `${name}.ulg`));
      const codes = new Set<string>();
      for (let n = 0; n <= whole.byteLength; n++) {
        codes.add(await draftOrError(whole.subarray(0, n)));
      }
      expect([...codes].sort()).toEqual(['draft', 'file_empty', 'ulog_too_short']);
    },
  );

  test('a cyclic format and nested arrays that unroll past the limit end, with their issues', async () => {
    const w = new UlogWriter();
    w.format({ name: 'a', fields: [{ type: 'b', name: 'x' }] });
    w.format({ name: 'b', fields: [{ type: 'a', name: 'y' }] });
    w.format({ name: 'c', fields: [{ type: 'float', name: 'z', array: 60000 }] });
    w.format({ name: 'd', fields: [{ type: 'c', name: 'w', array: 60000 }] });
    w.format({
      name: 'top',
      fields: [
        { type: 'uint64_t', name: 'timestamp' },
        { type: 'a', name: 'loop' },
        { type: 'd', name: 'big' },
        { type: 'float', name: 'ok' },
      ],
    });
    w.subscribe(0, 0, 'top').data(0, body(12, 1n));
    const profile = await inspectUlogSource(memorySource(w.bytes(), 'x.ulg'));
    expect(profile.issues.map((i) => i.code)).toEqual([
      'ulog_field_unreadable',
      'ulog_fields_over_limit',
    ]);
    expect(profile.issues[0]?.message).toMatch(
      /^top: field loop(\.x\.y)+\.x nests formats deeper than 32 levels \(a cyclic definition\?\)$/,
    );
    expect(profile.issues[1]?.message).toBe(
      'the subscribed messages unroll to more than 100,000 fields (nested arrays multiply): the rest of top_0 is left out',
    );
    expect(profile.fields.length).toBeLessThanOrEqual(100_000);
  });
});

describe('definitions as pyulog reads them', () => {
  test('px4-names: keys split at the first space, values of any type, flag bits after a format', async () => {
    const p = await inspectUlog(join(fixtures, 'px4-names.ulg'));
    expect({
      info: p.info.map((i) => [i.key, i.type, i.value]),
      multiInfo: p.multiInfo,
      parameters: p.parameters,
      defaultParameters: p.defaultParameters,
      formats: p.formats.map((f) => f.name),
      flags: p.flags?.incompat,
      issues: p.issues,
    }).toEqual({
      info: [
        ['perf_counter_preflight-00', 'char[46]', 'sensors: 1012 events, 23us elapsed, 0.02us avg'],
        ['perf_counter_preflight-01', 'char[43]', 'ekf2: 988 events, 1.1ms elapsed, 1.12us avg'],
        ['perf_counter_preflight-02', 'char[18]', 'logger: 211 events'],
        ['perf_counter_preflight-03', 'char[18]', 'mavlink: 97 events'],
        ['sys/uuid', 'char[24]', '000100000000383433365109'],
        ['sys_uuid_bytes', 'uint8_t[4]', [1, 2, 3, 4]],
        // Five bytes of an int16_t[4]: the two whole elements (pyulog keeps the bytes raw).
        ['gains', 'int16_t[4]', [1, 2]],
        // A nested type: its bytes, as pyulog keeps them.
        ['esc_default', 'esc-report', [0, 0, 0, 0, 0, 0, 128, 63]],
      ],
      multiInfo: [
        { key: 'perf_top-00', type: 'char[20]', values: ['PID COMMAND CPU(ms) continued'] },
      ],
      parameters: [
        { name: 'SENS-BOARD/ROT', type: 'int32_t', value: 3 },
        { name: 'LOG_BIG', type: 'int64_t', value: '1' },
      ],
      defaultParameters: [{ name: 'SENS-BOARD/ROT', type: 'float', value: 0, defaultTypes: 1 }],
      formats: ['esc-report', 'esc_status'],
      flags: [0, 0, 0, 0, 0, 0, 0, 0],
      issues: [],
    });
  });

  test('flag bits after the definitions are skipped; their incompatible bits still refuse the log', async () => {
    const accel = {
      name: 'a',
      fields: [
        { type: 'uint64_t', name: 'timestamp' },
        { type: 'float', name: 'x' },
      ],
    };
    const late = new UlogWriter();
    late.format(accel).flagBits([], [0x02], []);
    await expect(inspectUlogSource(memorySource(late.bytes(), 'x.ulg'))).rejects.toThrow(
      /incompatible flag bits/,
    );
    const inData = new UlogWriter();
    inData.format(accel).subscribe(0, 0, 'a').data(0, body(12, 1n));
    inData.flagBits([], [0x02], []);
    const p = await inspectUlogSource(memorySource(inData.bytes(), 'x.ulg'));
    expect(p.issues).toEqual([]);
    expect(p.flags).toBeUndefined();
  });
});

describe('reading', () => {
  test('each byte is read at most once, in windows of at most 1 MiB', async () => {
    const w = new UlogWriter();
    w.flagBits();
    w.format({
      name: 'big',
      fields: [
        { type: 'uint64_t', name: 'timestamp' },
        { type: 'uint8_t', name: 'blob', array: 4000 },
      ],
    });
    w.subscribe(0, 0, 'big');
    for (let i = 0; i < 800; i++) w.data(0, body(4008, BigInt(i)));
    const bytes = w.bytes();
    const source = countingSource(memorySource(bytes, 'big.ulg'));
    const profile = await inspectUlogSource(source);
    expect(profile.subscriptions[0]?.messages).toBe(800);
    expect(source.bytesRead).toBeLessThanOrEqual(bytes.byteLength);
    expect(Math.max(...source.log.map(([, n]) => n))).toBeLessThanOrEqual(CHUNK);
    expect(source.reads).toBeLessThanOrEqual(Math.ceil(bytes.byteLength / CHUNK) + 3);
  });
});

describe('the reader package reads our fixtures the same way', () => {
  test.each(['multi-instance-gps', 'logging', 'no-gps'])('%s', async (name) => {
    const { ULog } = await import('@foxglove/ulog');
    const { FileReader } = await import('@foxglove/ulog/node.js');
    const path = join(fixtures, `${name}.ulg`);
    const file = new FileReader(path);
    const theirs = new ULog(file);
    await theirs.open();
    await file.close();
    const ours = await inspectUlog(path);
    const subs = [...theirs.subscriptions].map(([id, s]) => [id, s.name, s.multiId]);
    expect(ours.subscriptions.map((s) => [s.msgId, s.messageName, s.multiId])).toEqual(subs);
    const counts = Object.fromEntries(theirs.dataMessageCounts() ?? []);
    // It counts the msg_ids that have data; a subscription without data has 0 here.
    const withData = ours.subscriptions.filter((s) => s.messages > 0);
    expect(Object.fromEntries(withData.map((s) => [s.msgId, s.messages]))).toEqual(counts);
    expect(ours.formats.map((f) => f.name).sort()).toEqual(
      [...(theirs.header?.definitions.keys() ?? [])].sort(),
    );
    expect(ours.logs.untagged + ours.logs.tagged.reduce((n, t) => n + t.count, 0)).toBe(
      theirs.logCount(),
    );
  });

  test('where it stops and we go on: a logged message without timestamp, appended data', async () => {
    const { ULog } = await import('@foxglove/ulog');
    const { FileReader } = await import('@foxglove/ulog/node.js');
    const nestedFile = new FileReader(join(fixtures, 'nested-arrays.ulg'));
    const nested = new ULog(nestedFile);
    await expect(nested.open()).rejects.toThrow('"raw_counter" is missing a timestamp field');
    await nestedFile.close();
    expect((await inspectUlog(join(fixtures, 'nested-arrays.ulg'))).fields.length).toBe(29);
    const appendedFile = new FileReader(join(fixtures, 'appended.ulg'));
    const appended = new ULog(appendedFile);
    await appended.open();
    await appendedFile.close();
    expect([...appended.subscriptions.values()].map((s) => s.name)).toEqual(['sensor_accel']);
    const ours = await inspectUlog(join(fixtures, 'appended.ulg'));
    expect(ours.subscriptions.map((s) => s.messageName)).toEqual(['sensor_accel', 'sensor_gps']);
  });
});
