/**
 * What a CSV file's head says before its rows are typed, for every reader of CSV (the
 * inspector, and check's scans through inspect's index): whether its bytes can be read as
 * text at all (one refusal, one wording), and what each of its first rows is.
 */
import { InspectError } from '../../inspect/shared.js';
import { encodingProblem } from './dialect.js';
import { type CsvLayout, isBlank, sameRow } from './layout.js';

/**
 * Throws the one refusal of a CSV head that is not UTF-8 text: `csv_encoding_utf16` for
 * UTF-16 (with or without BOM), `csv_not_text` for binary bytes.
 */
export function refuseUnreadableCsv(file: string, head: Uint8Array): void {
  const problem = encodingProblem(head);
  if (problem === 'utf16')
    throw new InspectError({
      code: 'csv_encoding_utf16',
      severity: 'error',
      path: '',
      message: `${file}: the file is UTF-16 encoded; the platform reads UTF-8 CSV`,
      hint: 'Re-save it as UTF-8, e.g. `iconv -f UTF-16 -t UTF-8 in.csv > out.csv`.',
      source: { file },
    });
  if (problem === 'binary')
    throw new InspectError({
      code: 'csv_not_text',
      severity: 'error',
      path: '',
      message: `${file}: the file is not text (binary bytes): not a CSV file`,
      hint: 'Check that this is the data file you meant.',
      source: { file },
    });
}

/**
 * What a row of the head is, by the layout: before the table (`preamble`, `config` for the
 * platform's embedded config, `header`, `units`), or in it (`data`, `blank`, or `header`
 * again: a repeated header line).
 */
export type CsvRowKind = 'preamble' | 'config' | 'header' | 'units' | 'data' | 'blank';

/** The first rows of the head as text, and what each is (what `check` judges `firstDataRow` by). */
export interface CsvHeadRows {
  rows: string[][];
  kinds: CsvRowKind[];
}

/** The first `count` rows of the head with their kinds, from the layout already found. */
export function headRowsOf(
  rows: readonly (readonly string[])[],
  layout: CsvLayout,
  count: number,
): CsvHeadRows {
  const head = rows.slice(0, count).map((r) => [...r]);
  const header = layout.header >= 0 ? rows[layout.header] : undefined;
  const kinds = head.map((row, i): CsvRowKind => {
    if (i === layout.header) return 'header';
    if (i === layout.units) return 'units';
    if (layout.embeddedRows.includes(i)) return 'config';
    if (i < layout.firstData) return isBlank(row) ? 'blank' : 'preamble';
    if (isBlank(row)) return 'blank';
    return header && sameRow(row, header) ? 'header' : 'data';
  });
  return { rows: head, kinds };
}
