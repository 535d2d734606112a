/**
 * A column's count of each kind of cell (ColumnStats.kinds) is the number of its cells
 * classifyCell gives that kind, and the kinds seen come most common first.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import {
  type CellKind,
  ColumnStats,
  classifyCell,
  KIND_LIST,
} from '../../src/formats/csv/cells.js';

/** Cells of every kind: empty, bool, int, double, times and dates, text. */
const CELLS = [
  '',
  ' ',
  'true',
  'FALSE',
  '42',
  '-7',
  '3.25',
  '1e3',
  '2024-01-01T00:00:00Z',
  '2024-01-01 00:00:00',
  '31/12/2024',
  '12/31/2024',
  '01/02/2024',
  'idle',
  '1,5',
];

test('kinds counts each kind classifyCell gives; kindsSeen orders them by count', () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...CELLS), { maxLength: 60 }), (cells) => {
      const s = new ColumnStats();
      const expected = new Map<CellKind, number>();
      for (const c of cells) {
        s.add(c);
        const k = classifyCell(c);
        expected.set(k, (expected.get(k) ?? 0) + 1);
      }
      const kinds = s.kinds;
      for (const [k, n] of Object.entries(kinds)) expect(n).toBe(expected.get(k as CellKind) ?? 0);
      // Every kind, in KIND_LIST's order (kindsSeen keeps it among kinds of equal counts).
      expect(Object.keys(kinds)).toEqual([...KIND_LIST]);
      const seen = s.kindsSeen();
      expect(new Set(seen)).toEqual(new Set([...expected.keys()].filter((k) => k !== 'empty')));
      for (let i = 1; i < seen.length; i++)
        expect(kinds[seen[i - 1] as CellKind]).toBeGreaterThanOrEqual(kinds[seen[i] as CellKind]);
    }),
    { numRuns: 300 },
  );
});

/**
 * A column goes forward while each cell is at or after the one before it of the same
 * family (numbers by value, RFC 3339 times by the time they say, zones and all, date-times
 * by their text); a cell of another kind between them is compared with neither.
 */
test('property: the first decrease is the first cell before the cell just before it, of its family', () => {
  const cell = fc.oneof(
    fc.integer({ min: 0, max: 9 }).map(String),
    fc
      .tuple(fc.integer({ min: 0, max: 9 }), fc.constantFrom('Z', '+01:00', '-01:00'))
      .map(([m, zone]) => `2024-01-01T10:0${m}:00${zone}`),
    fc.integer({ min: 0, max: 9 }).map((m) => `2024-01-01 10:0${m}:00`),
    fc.constantFrom('idle', ''),
  );
  const family = (c: string) =>
    /^\d$/.test(c)
      ? 'n'
      : /[Z+-]\d{0,2}:?\d{0,2}$/.test(c) && c.includes('T')
        ? 't'
        : c.includes(' ')
          ? 'd'
          : 'x';
  const value = (c: string) => (family(c) === 'n' ? Number(c) : Date.parse(c));
  fc.assert(
    fc.property(fc.array(cell, { maxLength: 40 }), (cells) => {
      const s = new ColumnStats();
      for (const [i, c] of cells.entries()) s.add(c, i);
      let want: number | undefined;
      let prev: string | undefined;
      cells.forEach((c, i) => {
        if (c === '') return;
        const f = family(c);
        if (want === undefined && prev !== undefined && family(prev) === f && f !== 'x') {
          const back = f === 'd' ? c < prev : value(c) < value(prev);
          if (back) want = i;
        }
        prev = c;
      });
      expect(s.firstDecrease).toBe(want);
      expect(s.increasing).toBe(want === undefined);
    }),
    { numRuns: 300 },
  );
});
