/**
 * JSON pointer tokens (RFC 6901): any token, escaped and joined, parses back to itself, and
 * its escape is the RFC's ('~' as '~0' first, then '/' as '~1').
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { escapePointerToken, parsePointer, pointerOf } from '../../src/model/issue.js';

/** Tokens over an alphabet where '~', '/', '0' and '1' are common. */
const arbToken = fc.oneof(
  fc.string(),
  fc.array(fc.constantFrom('~', '/', '0', '1', 'a'), { maxLength: 8 }).map((c) => c.join('')),
);

test('a token escapes as RFC 6901 says, and a pointer of tokens parses back to them', () => {
  fc.assert(
    fc.property(fc.array(arbToken, { maxLength: 5 }), (tokens) => {
      for (const t of tokens) {
        expect(escapePointerToken(t)).toBe(t.replaceAll('~', '~0').replaceAll('/', '~1'));
      }
      expect(parsePointer(pointerOf(tokens))).toEqual(tokens);
    }),
    { numRuns: 500 },
  );
});

test('known escapes', () => {
  expect(escapePointerToken('a/b~c')).toBe('a~1b~0c');
  expect(escapePointerToken('~1')).toBe('~01');
  expect(escapePointerToken(3)).toBe('3');
});
