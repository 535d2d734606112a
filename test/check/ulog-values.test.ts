/**
 * `check` on ULog reads values: the findings of each fixture (fixtures/check-ulog, written
 * by `npm run fixtures -- check-ulog` with the findings the generator put in the file) are
 * compared whole, with `--full` and sampled (each file's data section is under 4 MiB, so
 * the sampled check decodes all of it).
 */
import { describe, expect, test } from 'vitest';
import { body, UlogWriter } from '../../scripts/fixtures/ulog-writer.js';
import { checkConfig } from '../../src/check/index.js';
import { checkUlog } from '../../src/formats/ulog/check.js';
import { CHUNK } from '../../src/formats/ulog/reader.js';
import { countingSource, memorySource } from '../../src/inspect/byte-source.js';
import { fixtureCases } from '../helpers/fixtures.js';
import { type ValueFixture, valueFindings } from '../helpers/value-findings.js';

const fixtures = fixtureCases<ValueFixture>('check-ulog', '.ulg');

describe('ULog check: value findings', () => {
  test('the fixtures are there', () => {
    expect(fixtures.cases).toEqual(['clean', 'every-finding', 'repeated-data', 'short-messages']);
  });

  test.each(fixtures.cases)('%s', async (name) => {
    const expected = fixtures.load(name);
    const file = fixtures.file(name);
    for (const full of [true, false]) {
      const found = await checkConfig(expected.document, file, { full });
      expect(valueFindings(found)).toEqual(expected.findings);
    }
  });
});

/** Reads (offset, length) that covered the byte at `at`. */
const readsOf = (log: ReadonlyArray<[number, number]>, at: number) =>
  log.filter(([o, n]) => o <= at && at < o + n).length;

describe('what the sampled check and --full read of a larger log', () => {
  /**
   * About 6.4 MiB of sensor_accel whose logger restarted at about 2.5 MiB into the data
   * section: between the sampled head (2 MiB) and the first slice.
   */
  const accel = {
    name: 'sensor_accel',
    fields: [
      { type: 'uint64_t', name: 'timestamp' },
      { type: 'float', name: 'x' },
    ],
  };
  const w = new UlogWriter();
  w.format(accel).subscribe(0, 0, 'sensor_accel');
  const start = w.length;
  let restartAt = 0;
  let restartOffset = 0;
  for (let i = 0; w.length - start < 6.4 * 2 ** 20; i++) {
    if (restartAt === 0 && w.length - start > 2.5 * 2 ** 20) {
      restartAt = i;
      restartOffset = w.length;
    }
    const t = restartAt > 0 ? i - restartAt : i;
    w.data(0, body(12, 1_000_000n + BigInt(t) * 1000n));
  }
  const bytes = w.bytes();
  const config = {
    relativeStartTime: '2024-05-01T12:00:00Z',
    data: [
      {
        messageName: 'sensor_accel',
        instance: '0',
        fieldName: 'x',
        channelConfig: { name: 'x', dataType: 'CHANNEL_DATA_TYPE_FLOAT' as const },
      },
    ],
  };

  test('sampled: the ranges it says, one window at a time; the restart between them is not seen', async () => {
    const source = countingSource(memorySource(bytes, 'big.ulg'));
    expect(await checkUlog(config, source)).toEqual([]);
    // The header walk reads the restart's bytes; the sampled decode does not come near them.
    expect(readsOf(source.log, restartOffset)).toBe(1);
    expect(Math.max(...source.log.map(([, n]) => n))).toBeLessThanOrEqual(CHUNK);
  });

  test('--full: every message, the file read twice in windows; the restart is found', async () => {
    const source = countingSource(memorySource(bytes, 'big.ulg'));
    const found = await checkUlog(config, source, { full: true });
    expect(found.map((i) => [i.code, i.source?.row])).toEqual([['time_decreasing', restartAt]]);
    expect(readsOf(source.log, restartOffset)).toBe(2);
    expect(source.bytesRead).toBeLessThanOrEqual(2 * bytes.byteLength);
    expect(Math.max(...source.log.map(([, n]) => n))).toBeLessThanOrEqual(CHUNK);
  });
});
