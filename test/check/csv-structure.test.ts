import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkConfig } from '../../src/check/index.js';
import { inferCsv } from '../../src/formats/csv/infer.js';
import { inspectCsv } from '../../src/formats/csv/inspect.js';
import { InspectError } from '../../src/inspect/index.js';
import type { ImportDocument } from '../../src/model/document.js';
import { doublingApart } from '../helpers/doubling-apart.js';
import { RATIO_BOUND } from '../security/_helpers.js';
import { doc } from './_wide-work.js';

/**
 * Sampled check, full check, inspect and infer give one verdict on a file's structure:
 * no line end, too many columns, no data rows, a last row cut short; a repeated header line
 * and empty time cells are named the same way by inference and by the check.
 */

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-check-structure-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const times = (n: number) =>
  Array.from({ length: n }, (_, i) => new Date(Date.UTC(2024, 2, 1) + i * 1000).toISOString());

async function codeThrown(fn: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await fn();
    return undefined;
  } catch (err) {
    return err instanceof InspectError ? err.issue.code : String(err);
  }
}

/** Errors and warnings (codes) of the sampled check, the full check and inference. */
async function verdicts(path: string, document = doc()) {
  const codes = (issues: Array<{ code: string; severity: string }>) =>
    issues.filter((i) => i.severity !== 'info').map((i) => i.code);
  return {
    sampled: codes(await checkConfig(document, path)),
    full: codes(await checkConfig(document, path, { full: true })),
    infer: codes((await inferCsv(path)).issues),
  };
}

describe('one verdict on structure', () => {
  test('5 MB with no line end: refused by inspect, check and check --full alike', async () => {
    const path = join(dir, 'no-newline.csv');
    await writeFile(path, 'a,'.repeat(2.5 * 1024 * 1024));
    const codes = await Promise.all([
      codeThrown(() => inspectCsv(path)),
      codeThrown(() => checkConfig(doc(), path)),
      codeThrown(() => checkConfig(doc(), path, { full: true })),
    ]);
    expect(codes).toEqual(['csv_line_too_long', 'csv_line_too_long', 'csv_line_too_long']);
  });

  test('more columns than a table has: refused by inspect, check and check --full alike', async () => {
    const path = join(dir, 'wide.csv');
    await writeFile(path, `${'1,'.repeat(150_000)}1\n`.repeat(2));
    const codes = await Promise.all([
      codeThrown(() => inspectCsv(path)),
      codeThrown(() => checkConfig(doc(), path)),
      codeThrown(() => checkConfig(doc(), path, { full: true })),
    ]);
    expect(codes).toEqual(['csv_too_many_columns', 'csv_too_many_columns', 'csv_too_many_columns']);
  });

  test('a header followed by empty lines: zero data rows is an error in every mode', async () => {
    const path = join(dir, 'header-only.csv');
    await writeFile(path, 'time,v2\n\n\n\n');
    const v = await verdicts(path);
    expect(v.sampled).toEqual(['csv_no_data_rows']);
    expect(v.full).toEqual(['csv_no_data_rows']);
    expect(v.infer).toContain('csv_no_data_rows');
  });

  test('a header and no rows, firstDataRow past it: csv_no_data_rows alone says what is wrong', async () => {
    const path = join(dir, 'header-line.csv');
    await writeFile(path, 'time,v2\n');
    const noRows = {
      code: 'csv_no_data_rows',
      severity: 'error',
      path: '',
      message: `${path}: no data rows after row 1`,
      source: { file: path },
    };
    for (const firstDataRow of [2, 5]) {
      const document = { csvConfig: { ...doc().csvConfig, firstDataRow } } as ImportDocument;
      expect(await checkConfig(document, path)).toEqual([noRows]);
      expect(await checkConfig(document, path, { full: true })).toEqual([noRows]);
    }
  });

  test('rows of data, firstDataRow past them: first_data_row_past_end', async () => {
    const path = join(dir, 'past-end.csv');
    await writeFile(
      path,
      `time,v2\n${times(2)
        .map((t, i) => `${t},${i}`)
        .join('\n')}\n`,
    );
    const document = { csvConfig: { ...doc().csvConfig, firstDataRow: 9 } } as ImportDocument;
    const pastEnd = {
      code: 'first_data_row_past_end',
      severity: 'error',
      path: '/csvConfig/firstDataRow',
      message: 'firstDataRow is 9 but the file has 3 rows',
      hint: 'The values start at row 2.',
      source: { file: path },
    };
    expect(await checkConfig(document, path)).toEqual([pastEnd]);
    expect(await checkConfig(document, path, { full: true })).toEqual([pastEnd]);
  });

  test("a cut last row alone does not set the width: its columns are still the header's", async () => {
    const path = join(dir, 'cut-only.csv');
    await writeFile(path, 'elapsed (min),volts_1\n0.0');
    const draft = await inferCsv(path, { relativeStartTime: '2024-03-01T12:00:00Z' });
    expect(Object.keys(draft.document.csvConfig?.dataColumns ?? {})).toEqual(['2']);
    const errors = async (full: boolean) =>
      (await checkConfig(draft.document, path, { full }))
        .filter((i) => i.severity === 'error')
        .map((i) => i.code);
    expect(await errors(false)).toEqual([]);
    expect(await errors(true)).toEqual([]);
    // Whole rows of one field still make a file of one column.
    const whole = join(dir, 'one-field.csv');
    await writeFile(whole, 'elapsed (min),volts_1\n0.0\n0.5\n1.0');
    expect(
      (await checkConfig(draft.document, whole))
        .filter((i) => i.severity === 'error')
        .map((i) => i.code),
    ).toEqual(['column_not_in_file']);
  });

  test('a file still being written (last row short, no line end): a warning everywhere', async () => {
    const path = join(dir, 'cut.csv');
    const rows = times(3000).map((t, i) => `${t},${i},${i},${i},${i}`);
    await writeFile(path, `time,v2,v3,v4,v5\n${rows.join('\n')}\n2024-03-01T01:00:00.000Z,7`);
    const v = await verdicts(path, doc(4));
    expect(v.sampled).toEqual(['csv_last_row_incomplete']);
    expect(v.full).toEqual(['csv_last_row_incomplete']);
    expect(v.infer).toContain('csv_last_row_incomplete');
    // The tail is read even when the head does not reach it.
    const big = join(dir, 'cut-big.csv');
    const many = times(200_000).map((t, i) => `${t},${i},${i},${i},${i}`);
    await writeFile(big, `time,v2,v3,v4,v5\n${many.join('\n')}\n2024-03-01T01:00:00.000Z,7`);
    const p = await inspectCsv(big);
    expect(p.sampling.mode).toBe('head+slices');
    expect(p.issues.map((i) => i.code)).toContain('csv_last_row_incomplete');
  });

  test('a repeated header line and empty time cells: named alike by infer and check', async () => {
    const path = join(dir, 'odd.csv');
    const rows = times(40).map((t, i) => `${i === 9 ? '' : t},${i}`);
    rows.splice(20, 0, 'time,v2');
    await writeFile(path, `time,v2\n${rows.join('\n')}\n`);
    const v = await verdicts(path);
    expect(v.sampled.sort()).toEqual(['csv_header_repeated', 'csv_time_empty']);
    expect(v.full.sort()).toEqual(['csv_header_repeated', 'csv_time_empty']);
    expect(v.infer.sort()).toEqual(['csv_header_repeated', 'csv_time_empty']);
    const found = await checkConfig(doc(), path, { full: true });
    expect(found.filter((i) => i.severity !== 'info').map((i) => [i.code, i.source?.row])).toEqual([
      ['csv_header_repeated', 22],
      ['csv_time_empty', 11],
    ]);
  });
});

describe('check takes the dialect infer takes', () => {
  test('--delimiter and --header-row reach the CSV check', async () => {
    const path = join(dir, 'semi.csv');
    // Row 1 is a title; with the header at row 2 and `;` given, the file fits.
    await writeFile(
      path,
      `log of rig 7\ntime;v2\n${times(20)
        .map((t, i) => `${t};${i}`)
        .join('\n')}\n`,
    );
    const document: ImportDocument = {
      csvConfig: { ...doc().csvConfig, firstDataRow: 3 },
    };
    const found = await checkConfig(document, path, { delimiter: ';', headerRow: 2 });
    expect(found.filter((i) => i.severity !== 'info')).toEqual([]);
    const wrong = await checkConfig(document, path, { delimiter: ',', headerRow: 2 });
    expect(wrong.some((i) => i.severity === 'error')).toBe(true);
  });
});

describe('many columns stay linear', () => {
  // Timed in a Node process of its own: the test processes are kept between files, and a
  // time taken here would count other files' leftover work too.
  const apart = doublingApart(new URL('./_wide-work.ts', import.meta.url), ['columns']);
  beforeAll(apart.measure, 240_000);

  test('eight times the columns take less than 24 times as long (quadratic: 64)', () => {
    expect(apart.ratio('columns')).toBeLessThan(RATIO_BOUND);
  });
});
