/**
 * isoMillis, the reader of RFC 3339 and date-time cells in a CSV check: any run of cells,
 * of one day or of many, reads each as Date.UTC reads its fields, and a valid timestamp as
 * Date.parse reads it. It keeps the day it read last (most cells are of the day before), so
 * the cells come in runs that share days and runs that do not.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { isoMillis } from '../../src/values/iso-time.js';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A cell's fields: a date (some not in the calendar, as 02-31), a time, a fraction, a zone. */
const cell = fc.record({
  day: fc.oneof(
    fc.constantFrom([2024, 3, 1], [2024, 3, 2], [2024, 2, 29], [1999, 12, 31]),
    fc.tuple(
      fc.integer({ min: 0, max: 9999 }),
      fc.integer({ min: 1, max: 12 }),
      fc.integer({ min: 1, max: 31 }),
    ),
  ),
  h: fc.integer({ min: 0, max: 23 }),
  mi: fc.integer({ min: 0, max: 59 }),
  sec: fc.option(fc.integer({ min: 0, max: 60 })),
  frac: fc.option(fc.stringMatching(/^[0-9]{1,6}$/)),
  zone: fc.constantFrom('', 'Z', '+02:00', '-05:30', '+0100'),
  sep: fc.constantFrom('T', ' '),
});

type Cell = typeof cell extends fc.Arbitrary<infer T> ? T : never;

function textOf(c: Cell): string {
  const [y, mo, d] = c.day as [number, number, number];
  const seconds = c.sec === null ? '' : `:${pad(c.sec)}${c.frac === null ? '' : `.${c.frac}`}`;
  return `${pad(y, 4)}-${pad(mo)}-${pad(d)}${c.sep}${pad(c.h)}:${pad(c.mi)}${seconds}${c.zone}`;
}

/** What the cell reads as: its fields through Date.UTC, less the zone's offset. */
function expected(c: Cell): number {
  const [y, mo, d] = c.day as [number, number, number];
  const sec = c.sec ?? 0;
  const frac = c.sec === null || c.frac === null ? 0 : Number(`0.${c.frac}`) * 1000;
  const m = /^([+-])(\d\d):?(\d\d)$/.exec(c.zone);
  const offset = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  return Date.UTC(y, mo - 1, d, c.h, c.mi, sec) + frac - offset * 60_000;
}

test('property: each cell of a run reads as Date.UTC reads its fields', () => {
  fc.assert(
    fc.property(fc.array(cell, { minLength: 1, maxLength: 30 }), (cells) => {
      for (const c of cells) {
        const b = new TextEncoder().encode(textOf(c));
        const r = isoMillis(b, 0, b.length);
        expect(r, textOf(c)).toBeDefined();
        // Fractions are summed digit by digit: within a microsecond of Number's reading.
        expect(Math.abs((r?.ms as number) - expected(c)), textOf(c)).toBeLessThan(1e-3);
        expect(r?.zone).toBe(c.zone !== '');
        expect(r?.seconds).toBe(c.sec !== null);
      }
    }),
    { numRuns: 300 },
  );
});

test('a valid timestamp reads as Date.parse reads it, after a cell of another day', () => {
  const read = (t: string) => {
    const b = new TextEncoder().encode(t);
    return isoMillis(b, 0, b.length)?.ms;
  };
  const texts = [
    '2024-03-01T23:59:59.500Z',
    '2024-03-02T00:00:00Z',
    '2024-03-02T10:15:00+02:00',
    '2023-12-31T23:00:00-05:30',
    '2024-03-02T00:00:01Z',
  ];
  expect(texts.map(read)).toEqual(texts.map((t) => Date.parse(t)));
});
