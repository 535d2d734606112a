import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ENUMS } from '../../src/model/enum-values.js';
import {
  enumName,
  isRfc3339,
  parseTimeFormatName,
  RFC3339_TEXT,
  toCamelPath,
  toSnakePath,
} from '../../src/model/vocabulary.js';

const infos = Object.values(ENUMS);

/** A value written the ways users write it: any case, `-` or spaces for `_`, short or full. */
const written = fc
  .record({
    info: fc.constantFrom(...infos),
    index: fc.nat(),
    short: fc.boolean(),
    sep: fc.constantFrom('_', '-', ' ', '  ', ' - '),
    casing: fc.constantFrom('upper', 'lower', 'title'),
    pad: fc.constantFrom('', ' ', '\t'),
  })
  .map(({ info, index, short, sep, casing, pad }) => {
    const value = info.values[index % info.values.length] as string;
    let text = short ? value.slice(info.prefix.length) : value;
    text = text.split('_').join(sep);
    if (casing === 'lower') text = text.toLowerCase();
    if (casing === 'title')
      text = text.toLowerCase().replace(/(^|[\s_-])\w/g, (c) => c.toUpperCase());
    return { info, value, text: `${pad}${text}${pad}` };
  });

describe('enumName', () => {
  test('reads a value written in any case, with -, _ or spaces, short or full', () => {
    fc.assert(
      fc.property(written, ({ info, value, text }) => {
        expect(enumName(text, info.prefix, info.values)).toBe(value);
      }),
    );
  });

  test('a name it returns is always one of the values, and reading it again gives itself', () => {
    fc.assert(
      fc.property(fc.constantFrom(...infos), fc.string(), (info, text) => {
        const found = enumName(text, info.prefix, info.values);
        if (found === undefined) return;
        expect(info.values).toContain(found);
        expect(enumName(found, info.prefix, info.values)).toBe(found);
      }),
    );
  });

  test('empty and unknown names name nothing', () => {
    expect(enumName('', 'TIME_FORMAT_', ['TIME_FORMAT_ABSOLUTE_RFC3339'])).toBeUndefined();
    expect(enumName('  ', 'TIME_FORMAT_', ['TIME_FORMAT_ABSOLUTE_RFC3339'])).toBeUndefined();
    expect(enumName('rfc', 'TIME_FORMAT_', ['TIME_FORMAT_ABSOLUTE_RFC3339'])).toBeUndefined();
  });

  test('a time format name never reads as UNSPECIFIED', () => {
    expect(parseTimeFormatName('unspecified')).toBeUndefined();
    expect(parseTimeFormatName('absolute unix seconds')).toBe('TIME_FORMAT_ABSOLUTE_UNIX_SECONDS');
  });
});

describe('date-time patterns', () => {
  test('a config timestamp needs T and a zone with a colon; data text is read more widely', () => {
    expect(isRfc3339('2024-10-07T17:00:09Z')).toBe(true);
    expect(isRfc3339('2024-10-07T17:00:09.123456789+02:00')).toBe(true);
    expect(isRfc3339('2024-10-07 17:00:09Z')).toBe(false);
    expect(isRfc3339('2024-13-07T17:00:09Z')).toBe(false);
    expect(RFC3339_TEXT.test('2024-10-07 17:00:09+0200')).toBe(true);
    expect(RFC3339_TEXT.test('2024-10-07 17:00:09')).toBe(false);
  });
});

describe('field-mask paths', () => {
  test('camelCase and snake_case paths convert both ways', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.array(fc.stringMatching(/^[a-z][a-z0-9]{0,5}$/), { minLength: 1, maxLength: 3 }),
          {
            minLength: 1,
            maxLength: 3,
          },
        ),
        (parts) => {
          const snake = parts.map((words) => words.join('_')).join('.');
          expect(toSnakePath(toCamelPath(snake))).toBe(snake);
        },
      ),
    );
  });
});
