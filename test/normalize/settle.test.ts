import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test, vi } from 'vitest';
import type { CsvRecord } from '../../src/inspect/index.js';

/** Records handed to the callback of each scan normalize makes through the inspect stage. */
const scans: number[] = [];
vi.mock('../../src/inspect/index.js', async (original) => {
  const inspect = await original<typeof import('../../src/inspect/index.js')>();
  return {
    ...inspect,
    scanCsvFile: (
      path: Parameters<typeof inspect.scanCsvFile>[0],
      onRecord: (rec: CsvRecord) => boolean | undefined,
      options: Parameters<typeof inspect.scanCsvFile>[2],
    ) => {
      const at = scans.push(0) - 1;
      return inspect.scanCsvFile(
        path,
        (rec) => {
          scans[at] = (scans[at] ?? 0) + 1;
          return onRecord(rec);
        },
        options,
      );
    },
  };
});

const { normalizeCsv } = await import('../../src/normalize/index.js');

const dir = mkdtempSync(join(tmpdir(), 'importkit-normalize-settle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('the date order is read from the rows only until one decides it, not through the whole file', async () => {
  // Days and months up to 12 (the sample does not decide); the dots decide on the first row.
  const rows = Array.from(
    { length: 2000 },
    (_, i) => `0${1 + (i % 9)}.0${1 + (i % 7)}.2024 10:00:00;${i}`,
  );
  const input = join(dir, 'dots.csv');
  writeFileSync(input, `time;v\n${rows.join('\n')}\n`);
  const report = await normalizeCsv(input, join(dir, 'out.csv'));
  expect(report.counts.timesRewritten).toBe(2000);
  // The date-order pass (the header and the first data row), then the rewrite (every row).
  expect(scans).toEqual([2, 2001]);
});
