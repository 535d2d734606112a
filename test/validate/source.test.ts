/**
 * Reading config text: positions, several documents, strict JSON, hostile input; the
 * canonical value; the throwing variant; the rendering.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import {
  assertValidConfig,
  ConfigValidationError,
  formatIssues,
  parseConfigSource,
  validateConfig,
  validateConfigText,
} from '../../src/validate/index.js';
import { doublingApart } from '../helpers/doubling-apart.js';
import { RATIO_BOUND } from '../security/_helpers.js';
import { aliasBomb, cases as hostile } from './_hostile-work.js';

const rows = (text: string, filename?: string) =>
  validateConfigText(text, filename === undefined ? {} : { filename }).issues.map((i) => [
    i.code,
    i.path,
    i.line,
    i.column,
  ]);

describe('positions', () => {
  test('a pointer finds keys and values, also when written in snake_case', () => {
    const text = 'csv_config:\n  time_column:\n    column_number: 3\n';
    const [doc] = parseConfigSource(text).documents;
    expect(doc?.locate('/csvConfig/timeColumn/columnNumber')).toEqual({
      line: 3,
      column: 20,
      offset: 46,
    });
    expect(doc?.locate('/csvConfig/timeColumn/columnNumber', { key: true })).toEqual({
      line: 3,
      column: 5,
      offset: 31,
    });
    // A key whose value is a mapping: the key itself, not the first line inside.
    expect(doc?.locate('/csvConfig/timeColumn')).toEqual({ line: 2, column: 3, offset: 14 });
    expect(doc?.locate('/csvConfig')).toEqual({ line: 1, column: 1, offset: 0 });
    // Past what exists: the key of the mapping that lacks the member.
    expect(doc?.locate('/csvConfig/timeColumn/format')).toEqual({ line: 2, column: 3, offset: 14 });
    expect(doc?.locate('/csvConfig/dataColumns/2')).toEqual({ line: 1, column: 1, offset: 0 });
  });

  test('several documents: issues of each with their own lines, a value for each', () => {
    const text = 'ch10Config: {}\n---\nch10Config: { scaleValue: true }\n---\nulogConfig: {}\n';
    const r = validateConfigText(text);
    expect(r.documents.map((d) => d.ok)).toEqual([true, false, true]);
    expect(r.values).toEqual([
      { ch10Config: {} },
      { ch10Config: { scaleValue: true } },
      { ulogConfig: {} },
    ]);
    expect(r.value).toBeUndefined();
    expect(r.ok).toBe(false);
    expect(rows(text)).toEqual([['unknown_key', '/ch10Config/scaleValue', 3, 15]]);
  });

  test('an empty file and an empty document', () => {
    expect(rows('')).toEqual([['document_empty', '', 1, 1]]);
    expect(rows('ch10Config: {}\n---\n# nothing\n')).toEqual([['document_empty', '', 2, 4]]);
  });
});

describe('JSON', () => {
  test('strict syntax for .json files, with the position of the mistake', () => {
    expect(rows('{"ch10Config": {},}', 'a.json')).toEqual([['json_syntax_error', '', 1, 19]]);
    // The same text is a YAML flow mapping.
    expect(rows('{"ch10Config": {},}', 'a.yaml')).toEqual([]);
  });

  test('tab-indented JSON is read, with positions', () => {
    const text = '{\n\t"ch10Config": {\n\t\t"scale": true\n\t}\n}\n';
    expect(rows(text, 'a.json')).toEqual([['unknown_key', '/ch10Config/scale', 3, 3]]);
  });
});

describe('hostile input ends in one clear issue, fast', () => {
  const cases: Array<[string, string, string]> = [
    ['deep brackets', `a: ${'['.repeat(100_000)}`, 'nesting_too_deep'],
    ['deep flow maps', `a: ${'{a: '.repeat(5000)}1${'}'.repeat(5000)}`, 'nesting_too_deep'],
    ['too large', `a: "${'x'.repeat(17 * 1024 * 1024)}"\n`, 'input_too_large'],
    ['alias bomb', aliasBomb(4), 'too_many_aliases'],
  ];
  for (const [name, text, code] of cases) {
    test(name, () => {
      const r = validateConfigText(text);
      expect(r.issues.map((i) => i.code)).toEqual([code]);
      expect(r.issues[0]?.line).toBeGreaterThan(0);
    });
  }

  // Fast: timed in a Node process of its own (the test processes are kept between files, and
  // a time taken here would count other files' leftover work too), as the ratio of a text
  // eight times as large: linear at most, where a scan that restarts, a parse that recurses
  // or an expansion of aliases grows far faster.
  const apart = doublingApart(new URL('./_hostile-work.ts', import.meta.url), Object.keys(hostile));
  beforeAll(apart.measure, 240_000);
  test.each(['deep brackets', 'deep flow maps', 'alias bomb'])('%s: linear in the text', (name) => {
    expect(apart.ratio(name)).toBeLessThan(RATIO_BOUND);
  });
  // 0.3 here; 6.6 when the text was parsed before the limit was looked at.
  test('too large: refused before it is read (20 MiB refused in less than twice the time 2.5 MiB is read)', () => {
    expect(apart.ratio('too large')).toBeLessThan(2);
  });

  test('deep block nesting inside an unknown key', () => {
    let text = 'ch10Config: {}\nx:\n';
    for (let i = 1; i < 100; i++) text += `${'  '.repeat(i)}k:\n`;
    const codes = validateConfigText(text).issues.map((i) => i.code);
    expect(codes).toEqual(['unknown_key', 'nesting_too_deep']);
  });
});

describe('the canonical value', () => {
  test('snake_case keys, numbers for 64-bit fields, enum numbers; model order; nothing dropped', () => {
    const r = validateConfigText(
      'tdms_config:\n  time_format: 10\n  file_size: 12345678901234567890\n  asset_name: a\n  extra: 1\n',
    );
    expect(r.value).toEqual({
      tdmsConfig: {
        assetName: 'a',
        fileSize: '12345678901234567890',
        timeFormat: 'TIME_FORMAT_ABSOLUTE_RFC3339',
        extra: 1,
      },
    });
    expect(Object.keys(r.value?.tdmsConfig ?? {})).toEqual([
      'assetName',
      'fileSize',
      'timeFormat',
      'extra',
    ]);
    expect(r.issues.map((i) => i.code)).toEqual(['unknown_key']);
  });

  test('data given as values: bigints and numbers for 64-bit fields', () => {
    const r = validateConfig({ ulogConfig: { data: [{ instance: 3n }, { instance: -4 }] } });
    expect(r).toEqual({
      ok: true,
      issues: [],
      value: { ulogConfig: { data: [{ instance: '3' }, { instance: '-4' }] } },
    });
  });

  test('not an object', () => {
    expect(validateConfig([1]).issues.map((i) => i.code)).toEqual(['document_not_object']);
    expect(validateConfig(null).issues.map((i) => i.code)).toEqual(['document_empty']);
  });
});

describe('assertValidConfig', () => {
  test('returns the canonical value', () => {
    expect(assertValidConfig({ ch10_config: { scale_values: true } })).toEqual({
      ch10Config: { scaleValues: true },
    });
  });
  test('throws ConfigValidationError with the issues', () => {
    let caught: unknown;
    try {
      assertValidConfig({ ch10Config: { scale: true } });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ConfigValidationError);
    expect((caught as ConfigValidationError).issues.map((i) => [i.code, i.path])).toEqual([
      ['unknown_key', '/ch10Config/scale'],
    ]);
    expect((caught as Error).message).toBe(
      'Invalid config: Unknown key "scale". (at /ch10Config/scale)',
    );
  });
});

test('formatIssues renders the message, the place and a code frame', () => {
  const text = 'ch10Config:\n  scaleValue: true\n';
  const r = validateConfigText(text, { filename: 'c.yaml' });
  expect(formatIssues(r.issues, { text })).toBe(
    [
      '✖ Unknown key "scaleValue". [unknown_key]',
      '  → at /ch10Config/scaleValue (c.yaml:2:3)',
      '    1 | ch10Config:',
      '  > 2 |   scaleValue: true',
      '      |   ^',
      '  hint: Did you mean "scaleValues"?',
    ].join('\n'),
  );
});

describe('the fast path for valid JSON reads what the YAML reader reads', () => {
  test('generated documents: the same result as the reading with positions', async () => {
    const fc = (await import('fast-check')).default;
    const { arbDocument } = await import('../helpers/arbitraries.js');
    fc.assert(
      fc.property(arbDocument, (doc) => {
        const text = JSON.stringify(doc, null, 2);
        const fast = validateConfigText(text, { filename: 'a.json' });
        const [slowDoc] = parseConfigSource(text).documents;
        const slow = validateConfig(slowDoc?.value);
        expect(fast.value).toEqual(slow.value);
        expect(fast.ok).toBe(slow.ok);
      }),
      { numRuns: 30 },
    );
  });

  test('duplicate keys and long integers take the slow path', () => {
    expect(rows('{"ch10Config": {}, "ch10Config": {}}', 'a.json')).toEqual([
      ['duplicate_key', '', 1, 20],
    ]);
    const r = validateConfigText('{"tdmsConfig": {"fileSize": 12345678901234567891}}');
    expect(r.value).toEqual({ tdmsConfig: { fileSize: '12345678901234567891' } });
  });
});
