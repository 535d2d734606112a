/**
 * A CsvConfig's rows against the file: where the header and the values are (from the
 * inspector's head rows), firstDataRow past the end, on the header or skipping values,
 * header lines repeated in the data, and numRows against a full count.
 */
import { type Issue, type IssueSource, issue } from '../../model/plain.js';
import type { At } from './check-columns.js';
import type { Place, Tally } from './check-tally.js';
import { placeText } from './check-values.js';
import type { CsvHeadRows } from './head.js';
import type { CsvProfile } from './profile.js';

/** Where the header and the values are, as the inspector's layout and head rows say. */
export interface RowLayout {
  head: CsvHeadRows;
  /** True when some column holds numbers, times or booleans (so a header can be told apart). */
  informative: boolean;
  /** The 1-based row the values start at, when the head holds values. */
  dataStart: number | undefined;
  header: string[];
  /** firstDataRow points at a header, units or other non-data row. */
  onHeader: boolean;
  /** The 1-based row values are checked from. */
  checkFrom: number;
}

export function locateRows(firstDataRow: number | undefined, profile: CsvProfile): RowLayout {
  const head = profile.head ?? { rows: [], kinds: [] };
  const { layout } = profile;
  const informative = profile.fields.some(
    (f) => f.logicalType !== undefined || NON_TEXT.has(f.physicalType),
  );
  const dataStart = head.kinds.includes('data') ? layout.firstDataRow : undefined;
  const header = layout.headerRow > 0 ? (head.rows[layout.headerRow - 1] ?? []) : [];
  const onHeader =
    firstDataRow !== undefined &&
    informative &&
    dataStart !== undefined &&
    firstDataRow < dataStart &&
    firstDataRow - 1 < head.rows.length;
  // Values are checked from firstDataRow; when it points at the header, from where the
  // values really start (the header's text is reported once, as the firstDataRow error).
  const checkFrom = onHeader ? (dataStart as number) : (firstDataRow ?? dataStart ?? 1);
  return { head, informative, dataStart, header, onHeader, checkFrom };
}

/** Column types that are not text: a column of these tells a header from the values. */
const NON_TEXT = new Set(['BOOL', 'INT_32', 'INT_64', 'UINT_64', 'DOUBLE']);

/**
 * firstDataRow past the end, on the header, or skipping rows of values. Past the end of a
 * file with no data rows at all says nothing `csv_no_data_rows` does not: only that is told.
 */
export function firstDataRowIssues(
  firstDataRow: number | undefined,
  totalRows: number | undefined,
  noDataRows: boolean,
  rows: RowLayout,
  at: At,
  dataPath: string,
): Issue[] {
  const { head, informative, dataStart, onHeader } = rows;
  if (firstDataRow !== undefined && totalRows !== undefined && firstDataRow > totalRows) {
    if (noDataRows) return [];
    return [
      issue(
        'first_data_row_past_end',
        at('firstDataRow'),
        `firstDataRow is ${firstDataRow} but the file has ${totalRows} row${totalRows === 1 ? '' : 's'}`,
        {
          hint: dataStart !== undefined ? `The values start at row ${dataStart}.` : undefined,
          source: { file: dataPath },
        },
      ),
    ];
  }
  if (firstDataRow === undefined || !informative || dataStart === undefined) return [];
  const idx = firstDataRow - 1;
  if (onHeader) {
    const kind = head.kinds[idx];
    const what =
      kind === 'header'
        ? 'the header row'
        : kind === 'units'
          ? 'a units row'
          : 'a row that is not data';
    return [
      issue(
        'first_data_row_on_header',
        at('firstDataRow'),
        `firstDataRow ${firstDataRow} is ${what} (${rowPreview(head.rows[idx] ?? [])}); the values start at row ${dataStart}`,
        {
          hint: `Set firstDataRow: ${dataStart}.`,
          source: { file: dataPath, row: firstDataRow },
        },
      ),
    ];
  }
  if (firstDataRow > dataStart && head.kinds[firstDataRow - 2] === 'data') {
    return [
      issue(
        'first_data_row_skips_data',
        at('firstDataRow'),
        `row ${firstDataRow - 1} (${rowPreview(head.rows[firstDataRow - 2] ?? [])}) looks like data but firstDataRow is ${firstDataRow}: ${firstDataRow - dataStart} row${firstDataRow - dataStart === 1 ? '' : 's'} of values would be skipped`,
        {
          hint: `Set firstDataRow: ${dataStart}.`,
          source: { file: dataPath, row: firstDataRow - 1 },
        },
      ),
    ];
  }
  return [];
}

/** numRows against the data rows a full scan counted. */
export function numRowsIssues(
  numRows: string | undefined,
  dataRows: number,
  at: At,
  dataPath: string,
): Issue[] {
  if (numRows === undefined || String(dataRows) === numRows) return [];
  return [
    issue(
      'num_rows_mismatch',
      at('numRows'),
      `numRows is ${numRows} but the file has ${dataRows} data row${dataRows === 1 ? '' : 's'}`,
      { hint: 'Leave numRows out: the platform counts the rows.', source: { file: dataPath } },
    ),
  ];
}

export function repeatedHeaderIssue(again: Tally['again'], file: string): Issue {
  const first = again.first[0] as Place;
  const s: IssueSource = { file };
  if (first.row !== undefined) s.row = first.row;
  if (first.line !== undefined) s.line = first.line;
  if (first.row === undefined) s.offset = first.offset;
  return issue(
    'csv_header_repeated',
    '',
    `the header line is repeated inside the data ${again.count} time${again.count === 1 ? '' : 's'} (first: ${again.first.map(placeText).join(', ')}): the import fails there unless the line is removed`,
    {
      hint: 'Remove the repeated header lines (`importkit normalize` does), or import each log on its own.',
      source: s,
    },
  );
}

function rowPreview(cells: string[]): string {
  const text = cells.slice(0, 4).join(', ');
  return `${cells.length > 4 ? `${text}, ...` : text}`.slice(0, 60);
}
