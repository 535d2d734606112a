/**
 * ENUM names looked up by their bytes (nextUnknownUtf8) find the rows a lookup of each
 * row's text in the set of names finds: names of any length (none, under four bytes, four,
 * longer), in any script, beside rows that share a name's length or first bytes.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { knownNamesOf, nextUnknownUtf8 } from '../../src/values/known-names.js';

const nameArb = fc.oneof(
  fc.constantFrom(
    '',
    'A',
    'ON',
    'RUN',
    'IDLE',
    'STOP',
    'IDLEX',
    'IDLEY',
    'RUNNING',
    'RUNNINH',
    'é',
    'Ωmega',
    '停止',
  ),
  fc.string({ maxLength: 9 }),
);

test('the first unknown row, from any row, with the bytes anywhere in their buffer', () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(nameArb, { maxLength: 6 }),
      fc.array(nameArb, { maxLength: 40 }),
      fc.nat({ max: 7 }),
      fc.nat(),
      (names, rows, lead, from) => {
        const encoder = new TextEncoder();
        const encoded = rows.map((r) => encoder.encode(r));
        // The rows' bytes start `lead` bytes into a larger buffer, as a view into wasm memory does.
        const total = encoded.reduce((n, b) => n + b.length, 0);
        const buffer = new Uint8Array(lead + total + 3).fill(0x41);
        const offsets = new Int32Array(rows.length + 1);
        let at = 0;
        encoded.forEach((b, i) => {
          offsets[i] = at;
          buffer.set(b, lead + at);
          at += b.length;
        });
        offsets[rows.length] = at;
        const bytes = buffer.subarray(lead, lead + total);
        const start = rows.length === 0 ? 0 : from % rows.length;
        const set = new Set(names);
        const expected = rows.findIndex((r, i) => i >= start && !set.has(r));
        expect(nextUnknownUtf8(bytes, offsets, start, rows.length, knownNamesOf(names))).toBe(
          expected,
        );
      },
    ),
    { numRuns: 500 },
  );
});
