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
