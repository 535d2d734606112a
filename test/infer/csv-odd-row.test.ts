import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { inferCsv } from '../../src/formats/csv/infer.js';

/**
 * One odd row never vetoes a decision: a table (an RFC 3339 time column and columns of
 * doubles, integers and booleans) gets one injected odd row (the header line repeated, an
 * empty time cell, a stray text cell in any column). The draft keeps its header, its time
 * column and format, and every column's type, and the odd row is reported by its row.
 */

type Kind = 'DOUBLE' | 'INT_32' | 'BOOL';
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-odd-row-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function cell(kind: Kind, i: number, seed: number): string {
  const v = (i * 7919 + seed * 104729) % 2001;
  if (kind === 'DOUBLE') return ((v - 1000) / 8).toFixed(3);
  if (kind === 'INT_32') return String(v - 1000);
  return v % 2 === 0 ? 'true' : 'false';
}

const odd = fc.oneof(
  fc.record({ kind: fc.constant('header' as const) }),
  fc.record({ kind: fc.constant('empty-time' as const) }),
  fc.record({
    kind: fc.constant('stray' as const),
    column: fc.nat(),
    text: fc.constantFrom('n/a', 'ERR', '--', '?', 'null', 'overflow'),
  }),
);

test('one odd row: header, time column and types hold, and the row is reported', async () => {
  let n = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.constantFrom<Kind>('DOUBLE', 'INT_32', 'BOOL'), { minLength: 1, maxLength: 4 }),
      fc.integer({ min: 10, max: 80 }),
      fc.nat(),
      fc.nat(),
      odd,
      async (kinds, rows, seed, where, injected) => {
        const header = ['time', ...kinds.map((_, c) => `c${c + 2}`)];
        const lines = Array.from({ length: rows }, (_, i) => [
          new Date(Date.UTC(2024, 2, 1) + i * 1000).toISOString(),
          ...kinds.map((k, c) => cell(k, i, seed + c)),
        ]);
        const at = where % rows; // 0-based data row of the odd row
        const column = injected.kind === 'stray' ? injected.column % header.length : 0;
        if (injected.kind === 'header') lines.splice(at, 0, [...header]);
        else if (injected.kind === 'empty-time') (lines[at] as string[])[0] = '';
        else (lines[at] as string[])[column] = injected.text;
        const path = join(dir, `odd-${n++}.csv`);
        await writeFile(path, `${[header, ...lines].map((l) => l.join(',')).join('\n')}\n`);

        const draft = await inferCsv(path);
        const cfg = draft.document.csvConfig;
        expect(cfg?.firstDataRow).toBe(2);
        expect(cfg?.timeColumn).toEqual({
          columnNumber: 1,
          format: 'TIME_FORMAT_ABSOLUTE_RFC3339',
        });
        expect(cfg?.dataColumns).toEqual(
          Object.fromEntries(
            kinds.map((k, c) => [
              String(c + 2),
              { name: `c${c + 2}`, dataType: `CHANNEL_DATA_TYPE_${k}` },
            ]),
          ),
        );
        const row = at + 2; // the header is row 1
        const code =
          injected.kind === 'header'
            ? 'csv_header_repeated'
            : injected.kind === 'empty-time'
              ? 'csv_time_empty'
              : column === 0
                ? 'csv_time_unparsable'
                : 'csv_value_stray';
        const reported = draft.issues.filter((i) => i.code === code);
        expect(reported.map((i) => i.source?.row)).toEqual([row]);
        // Nothing else is wrong with the table.
        expect(draft.issues.filter((i) => i.code !== code && i.severity !== 'info')).toEqual([]);
      },
    ),
    { numRuns: 60 },
  );
});
