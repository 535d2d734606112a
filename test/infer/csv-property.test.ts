import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { inferCsv } from '../../src/formats/csv/infer.js';
import { TABLE_START, tableSpec, writeTable } from '../helpers/csv-tables.js';

/**
 * Generated tables (column types, time formats and units, delimiters, quoting with embedded
 * delimiters and line ends, BOM, CRLF, units rows, empty cells, header or not) are written,
 * inferred, and the draft must be the one the generator knows it wrote.
 */

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-csv-prop-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('inference recovers the columns, types, time column and format that generated a table', async () => {
  await fc.assert(
    fc.asyncProperty(tableSpec, async (s) => {
      const table = writeTable(s);
      const path = join(dir, 'gen.csv');
      await writeFile(path, table.text);

      const draft = await inferCsv(path, table.relative ? { relativeStartTime: TABLE_START } : {});

      const dataColumns: Record<string, unknown> = {};
      table.columns.forEach((c, i) => {
        if (c.type === 'TIME') return;
        dataColumns[String(i + 1)] = {
          name: table.header ? c.header : `column_${i + 1}`,
          ...(table.unitsRow ? { units: c.units } : {}),
          dataType: `CHANNEL_DATA_TYPE_${c.type}`,
        };
      });
      expect(draft.document).toEqual({
        csvConfig: {
          assetName: 'gen',
          firstDataRow: 1 + (table.header ? 1 : 0) + (table.unitsRow ? 1 : 0),
          timeColumn: {
            columnNumber: table.timeColumn + 1,
            format: table.format,
            ...(table.relative ? { relativeStartTime: TABLE_START } : {}),
          },
          dataColumns,
        },
      });
      expect(draft.issues.filter((i) => i.severity === 'error')).toEqual([]);
    }),
    { numRuns: 150 },
  );
});
