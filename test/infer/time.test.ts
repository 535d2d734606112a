import { describe, expect, test } from 'vitest';
import {
  fitsUnixFormat,
  isRelativeFormat,
  isRfc3339,
  parseTimeFormatName,
  relativeFormatFromUnit,
  relativeUnitFromSpacing,
  startTimeFromFileName,
  timeNameScore,
  unitFromName,
  unixFormatOfUnit,
  unixUnitFromMagnitude,
} from '../../src/infer/time.js';

describe('unix unit by magnitude', () => {
  test.each([
    [['1728320409', '1728320509'], 'TIME_FORMAT_ABSOLUTE_UNIX_SECONDS'],
    [['1728320409.25'], 'TIME_FORMAT_ABSOLUTE_UNIX_SECONDS'],
    [['1728320409982'], 'TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS'],
    [['1728320409982126'], 'TIME_FORMAT_ABSOLUTE_UNIX_MICROSECONDS'],
    [['1728320409982126001'], 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS'],
  ])('%j → %s', (values, format) => {
    expect(unixUnitFromMagnitude(values)?.format).toBe(format);
  });
  test('values outside 1990-2100 in every unit fit none', () => {
    expect(unixUnitFromMagnitude(['0', '100'])).toBeUndefined();
    expect(unixUnitFromMagnitude(['-1728320409'])).toBeUndefined();
    expect(unixUnitFromMagnitude([])).toBeUndefined();
  });
  test('the range is exact at its edges, also beyond 2^53', () => {
    const start1990 = String(Date.UTC(1990, 0, 1) / 1000);
    expect(unixUnitFromMagnitude([start1990])?.format).toBe('TIME_FORMAT_ABSOLUTE_UNIX_SECONDS');
    expect(unixUnitFromMagnitude([String(Number(start1990) - 1)])).toBeUndefined();
    const ns2101 = (BigInt(Date.UTC(2101, 0, 1) / 1000) * 1_000_000_000n).toString();
    expect(unixUnitFromMagnitude([ns2101])).toBeUndefined();
    expect(unixUnitFromMagnitude([(BigInt(ns2101) - 1n).toString()])?.format).toBe(
      'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS',
    );
    expect(unixUnitFromMagnitude(['631152000'], { minYear: 2000 })).toBeUndefined();
  });
});

describe('units from names', () => {
  test.each([
    ['time_s', 'TIME_FORMAT_RELATIVE_SECONDS'],
    ['elapsed_ms', 'TIME_FORMAT_RELATIVE_MILLISECONDS'],
    ['time [us]', 'TIME_FORMAT_RELATIVE_MICROSECONDS'],
    ['t (min)', 'TIME_FORMAT_RELATIVE_MINUTES'],
    ['t_ns', 'TIME_FORMAT_RELATIVE_NANOSECONDS'],
    ['duration-h', 'TIME_FORMAT_RELATIVE_HOURS'],
  ])('%s → %s', (name, format) => {
    expect(unitFromName(name)?.format).toBe(format);
  });
  test('names without a unit', () => {
    expect(unitFromName('timestamp')).toBeUndefined();
    expect(unitFromName('speed_mps')).toBeUndefined();
  });
  test('bare units and the unix format of the same unit', () => {
    expect(relativeFormatFromUnit('µs')).toBe('TIME_FORMAT_RELATIVE_MICROSECONDS');
    expect(relativeFormatFromUnit('m/s')).toBeUndefined();
    expect(unixFormatOfUnit('TIME_FORMAT_RELATIVE_MILLISECONDS')).toBe(
      'TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS',
    );
    expect(unixFormatOfUnit('TIME_FORMAT_RELATIVE_MINUTES')).toBeUndefined();
  });
});

describe('time names', () => {
  test('exact names beat words inside names, which beat nothing', () => {
    for (const n of ['time', 'Timestamp', 'ts', 't', 'datetime', 'time_s', 't [us]'])
      expect(timeNameScore(n), n).toBe(1);
    expect(timeNameScore('elapsed_ms')).toBe(0.8);
    expect(timeNameScore('gps_time')).toBe(0.8);
    expect(timeNameScore('runtime')).toBe(0.5);
    expect(timeNameScore('speed')).toBe(0);
    expect(timeNameScore('state')).toBe(0);
  });
});

describe('start time from a file name', () => {
  test.each([
    ['run_2024-10-07T17-00-09Z.csv', '2024-10-07T17:00:09Z'],
    ['log-20241007-170009.csv', '2024-10-07T17:00:09Z'],
    ['/data/2024-10-07.csv', '2024-10-07T00:00:00Z'],
    ['flight_2024-10-07T17:00:09.5+02:00.csv', '2024-10-07T17:00:09.5+02:00'],
  ])('%s → %s', (name, start) => {
    expect(startTimeFromFileName(name)).toBe(start);
  });
  test('no date, or an impossible one', () => {
    expect(startTimeFromFileName('data.csv')).toBeUndefined();
    expect(startTimeFromFileName('run_2024-13-40.csv')).toBeUndefined();
  });
});

describe('time format names', () => {
  test('full, short and lower-case names', () => {
    expect(parseTimeFormatName('TIME_FORMAT_ABSOLUTE_RFC3339')).toBe(
      'TIME_FORMAT_ABSOLUTE_RFC3339',
    );
    expect(parseTimeFormatName('absolute_unix_seconds')).toBe('TIME_FORMAT_ABSOLUTE_UNIX_SECONDS');
    expect(parseTimeFormatName('relative-milliseconds')).toBe('TIME_FORMAT_RELATIVE_MILLISECONDS');
    expect(parseTimeFormatName('UNSPECIFIED')).toBeUndefined();
    expect(parseTimeFormatName('seconds')).toBeUndefined();
    expect(isRelativeFormat('TIME_FORMAT_RELATIVE_HOURS')).toBe(true);
    expect(isRelativeFormat('TIME_FORMAT_ABSOLUTE_DATETIME')).toBe(false);
  });
  test('RFC 3339 start times', () => {
    expect(isRfc3339('2024-01-01T00:00:00Z')).toBe(true);
    expect(isRfc3339('2024-01-01T00:00:00.123456789+02:00')).toBe(true);
    expect(isRfc3339('2024-01-01 00:00:00')).toBe(false);
  });
});

describe('relative unit from spacing', () => {
  test('a guess, always low confidence', () => {
    expect(relativeUnitFromSpacing([0, 0.1, 0.2, 0.3])).toMatchObject({
      format: 'TIME_FORMAT_RELATIVE_SECONDS',
      confidence: 'low',
    });
    expect(relativeUnitFromSpacing([0, 10, 20, 30]).format).toBe(
      'TIME_FORMAT_RELATIVE_MILLISECONDS',
    );
    expect(relativeUnitFromSpacing([0, 5000, 10000]).format).toBe(
      'TIME_FORMAT_RELATIVE_MICROSECONDS',
    );
    expect(relativeUnitFromSpacing([0, 2_000_000, 4_000_000]).format).toBe(
      'TIME_FORMAT_RELATIVE_NANOSECONDS',
    );
  });
});

describe('fitsUnixFormat', () => {
  test('reads every value in the named unit, exactly past 2^53, bounds by year', () => {
    const ns = '1735689600000000001'; // 2025-01-01T00:00:00.000000001Z, past 2^53
    expect(fitsUnixFormat([ns], 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS')).toBe(true);
    expect(fitsUnixFormat([ns], 'TIME_FORMAT_ABSOLUTE_UNIX_MICROSECONDS')).toBe(false);
    const y1971 = String(Date.UTC(1971, 0, 1) / 1000);
    const y2101 = String(Date.UTC(2101, 0, 1) / 1000);
    const range = { minYear: 1971, maxYear: 2100 };
    expect(fitsUnixFormat([y1971], 'TIME_FORMAT_ABSOLUTE_UNIX_SECONDS', range)).toBe(true);
    expect(fitsUnixFormat([y2101], 'TIME_FORMAT_ABSOLUTE_UNIX_SECONDS', range)).toBe(false);
    expect(fitsUnixFormat([y1971], 'TIME_FORMAT_ABSOLUTE_UNIX_SECONDS')).toBe(false);
  });

  test('is false for formats that are not unix ones and for values that are not numbers', () => {
    expect(fitsUnixFormat(['1735689600'], 'TIME_FORMAT_RELATIVE_SECONDS')).toBe(false);
    expect(fitsUnixFormat(['soon'], 'TIME_FORMAT_ABSOLUTE_UNIX_SECONDS')).toBe(false);
  });
});
