import { describe, expect, test } from 'vitest';
import type { TimeFormat } from '../../src/model/enums.js';
import { TimeStats } from '../../src/preview/stats.js';
import { timeFindings } from '../../src/preview/time.js';

/** Time stats of one batch of times (ms since 1970). */
function statsOf(times: number[]): TimeStats {
  const stats = new TimeStats();
  stats.add({
    axis: 0,
    channels: [],
    length: times.length,
    times: Float64Array.from(times),
    columns: [],
    gap: false,
  });
  return stats;
}

const bad = (times: number[], format: TimeFormat = 'TIME_FORMAT_ABSOLUTE_UNIX_SECONDS') =>
  timeFindings(statsOf(times), format, undefined, [])
    .findings.filter((f) => f.bad)
    .map((f) => f.text);

describe('timeFindings', () => {
  const may2024 = Date.UTC(2024, 4, 1);

  test('times in range with a plausible step: nothing bad', () => {
    expect(bad([may2024, may2024 + 100, may2024 + 200])).toEqual([]);
  });

  test('a median step of a day or more does not fit the unit', () => {
    const day = 86_400_000;
    expect(bad([may2024, may2024 + 2 * day, may2024 + 4 * day])).toEqual([
      'the median step is 2 d: it does not fit ABSOLUTE_UNIX_SECONDS samples; is the unit right?',
    ]);
  });

  test('a median step under a nanosecond does not fit the unit', () => {
    // Unix seconds at 10 Hz declared as nanoseconds: 1.7 s after 1970, steps of 0.1 ns.
    const times = [0, 1, 2].map((i) => (1_714_557_600 + i / 10) * 1e-6);
    expect(bad(times, 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS')).toEqual([
      'the earliest time, 1970-01-01T00:00:01.714Z, is before 1990',
      expect.stringMatching(
        /^the median step is .*: it does not fit ABSOLUTE_UNIX_NANOSECONDS samples; is the unit right\?$/,
      ),
    ]);
  });

  test('before 1990 and after 2100 are marked, and the first/last flags follow', () => {
    const early = Date.UTC(1989, 11, 31);
    const late = Date.UTC(2100, 0, 1);
    const view = timeFindings(statsOf([early, late]), undefined, undefined, []);
    expect(view.findings.filter((f) => f.bad).map((f) => f.text)).toEqual([
      'the earliest time, 1989-12-31T00:00:00.000Z, is before 1990',
      'the latest time, 2100-01-01T00:00:00.000Z, is after 2100',
      expect.stringMatching(/^the median step is .*: it does not fit not declared samples/),
    ]);
    expect([view.firstBad, view.lastBad]).toEqual([true, true]);
  });
});
