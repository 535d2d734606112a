import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { inferCsv } from '../../src/formats/csv/infer.js';
import { InspectError } from '../../src/inspect/profile.js';

/**
 * Files we did not write: arbitrary bytes and arbitrary CSV-ish text must give a draft or
 * an InspectError with a one-line message, never another exception or a hang; and a time
 * column is only chosen when its values parse as times.
 */

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-csv-robust-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function outcome(bytes: Uint8Array): Promise<'draft' | 'error'> {
  const path = join(dir, 'any.csv');
  await writeFile(path, bytes);
  try {
    const draft = await inferCsv(path);
    const tc = draft.document.csvConfig?.timeColumn;
    if (tc?.columnNumber !== undefined) expect(tc.format).toBeDefined();
    return 'draft';
  } catch (err) {
    expect(err).toBeInstanceOf(InspectError);
    expect((err as InspectError).message).not.toContain('\n');
    return 'error';
  }
}

const csvish = fc
  .array(
    fc.constantFrom(
      ',',
      ';',
      '\t',
      '|',
      '"',
      '\n',
      '\r\n',
      '\r',
      ' ',
      'a',
      'time',
      'x y',
      '1',
      '-2',
      '3.5',
      '007',
      '1e9',
      'NaN',
      'true',
      '2024-01-02T03:04:05Z',
      '2024-01-02 03:04:05',
      '03/04/2024',
      '{"a":1}',
      '\ufeff',
      'é',
      '#',
      '',
    ),
    { maxLength: 300 },
  )
  .map((parts) => new TextEncoder().encode(parts.join('')));

test('CSV-ish text gives a draft or a clear error', async () => {
  await fc.assert(
    fc.asyncProperty(csvish, async (bytes) => {
      expect(['draft', 'error']).toContain(await outcome(bytes));
    }),
    { numRuns: 300 },
  );
});

test('arbitrary bytes give a draft or a clear error', async () => {
  await fc.assert(
    fc.asyncProperty(fc.uint8Array({ maxLength: 2000 }), async (bytes) => {
      expect(['draft', 'error']).toContain(await outcome(bytes));
    }),
    { numRuns: 200 },
  );
});
