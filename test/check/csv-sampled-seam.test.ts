/**
 * A sampled CSV check reads the head (10,000 records) and the last MiB. When the last MiB
 * begins where the head ends, the tail starts with the next record, not the one after: a
 * bad value in the first row after the head is found.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { checkConfig } from '../../src/check/index.js';
import type { ImportDocument } from '../../src/model/index.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-csv-seam-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const doc = {
  csvConfig: {
    firstDataRow: 2,
    timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS' },
    dataColumns: { '2': { name: 'v', dataType: 'CHANNEL_DATA_TYPE_INT_32' } },
  },
} as ImportDocument;

test('the first row after the head is checked', async () => {
  // The header and 9,999 rows make the head's 10,000 records; data row 10,000 is file row
  // 10,001, the first after it.
  for (const bad of [10_001, 10_002, 12_000]) {
    const lines = ['time,v'];
    for (let row = 2; row <= 12_000; row++) {
      lines.push(`${1_709_294_400_000 + row},${row === bad ? 'x' : row % 100}`);
    }
    const path = join(dir, `seam-${bad}.csv`);
    writeFileSync(path, `${lines.join('\n')}\n`);
    const issues = await checkConfig(doc, path);
    const mismatch = issues.find((i) => i.code === 'value_type_mismatch');
    expect(mismatch?.message, `bad value in row ${bad}`).toMatch(/^1 value of column 2/);
  }
});
