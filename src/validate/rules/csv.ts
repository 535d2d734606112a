import { type Issue, issue } from '../../model/plain.js';
import { configsOf, join, misspelt, obj, type Rule } from './_walk.js';

/**
 * CSV: rows and columns count from 1; dataColumns keys are 1-based column numbers; the time
 * column is given (with its number) and is not also a data column; something to import
 * unless the file embeds its config.
 *
 * An absent `firstDataRow` is a warning, not an error: proto3 sends an absent uint32 as 0,
 * which is no row, but the reference documents no default and no rejection for it, so the
 * import may still run (the platform's own examples always write it). The risk is a header
 * row read as data, so the warning asks for the explicit value (2 after one header row, 1
 * without a header). It is not asked for with `useEmbeddedConfig: true`: there the rows
 * before the data hold the file's own config, how the platform counts rows then is not
 * documented, and a guessed value would be worse than none.
 */
export const csvRule: Rule = (doc) => {
  const out: Issue[] = [];
  for (const c of configsOf(doc)) {
    if (c.kind !== 'csv') continue;
    firstRowIssues(c.config, c.path, out);
    const timeNumber = timeColumnIssues(c.config, c.path, out);
    dataColumnIssues(c.config, c.path, timeNumber, out);
  }
  return out;
};

/** firstDataRow is set (unless the file carries its config) and counts from 1. */
function firstRowIssues(cfg: Record<string, unknown>, path: string, out: Issue[]): void {
  if (cfg.firstDataRow === 0) {
    out.push(
      issue(
        'first_data_row_below_one',
        join(path, 'firstDataRow'),
        'firstDataRow is 0, but rows count from 1 (the file’s first row is 1).',
        'Give the 1-based number of the first data row (2 after one header row).',
      ),
    );
  }
  const embedded = cfg.useEmbeddedConfig === true;
  if (cfg.firstDataRow === undefined && !embedded && !misspelt(cfg, 'firstDataRow')) {
    out.push(
      issue(
        'first_data_row_missing',
        path,
        'firstDataRow is not set: the platform receives 0, which is no row, and may read a header row as data.',
        'Set firstDataRow: 2 after one header row, 1 when the file has no header.',
      ),
    );
  }
}

/** The time column is there and numbered from 1; returns its number. */
function timeColumnIssues(cfg: Record<string, unknown>, path: string, out: Issue[]): unknown {
  const embedded = cfg.useEmbeddedConfig === true;
  const tc = obj(cfg.timeColumn);
  const timeNumber = tc?.columnNumber;
  if (cfg.timeColumn === undefined && !embedded && !misspelt(cfg, 'timeColumn')) {
    out.push(
      issue(
        'time_column_missing',
        path,
        'The CSV config has no timeColumn and useEmbeddedConfig is not set: the rows have no time.',
        'Add timeColumn: { columnNumber, format }, or set useEmbeddedConfig: true for a file that carries its config.',
      ),
    );
  } else if (tc && timeNumber === undefined && !embedded && !misspelt(tc, 'columnNumber')) {
    out.push(
      issue(
        'time_column_number_missing',
        join(path, 'timeColumn'),
        'timeColumn has no columnNumber: which column holds the time is not said.',
        'Add columnNumber, the 1-based number of the time column (the first column is 1).',
      ),
    );
  }
  if (timeNumber === 0) {
    out.push(
      issue(
        'column_number_below_one',
        join(path, 'timeColumn', 'columnNumber'),
        'timeColumn.columnNumber is 0, but columns count from 1.',
        'Give the 1-based column number (the first column is 1).',
      ),
    );
  }
  return timeNumber;
}

/** Data columns are keyed by column number, are not the time column, and exist. */
function dataColumnIssues(
  cfg: Record<string, unknown>,
  path: string,
  timeNumber: unknown,
  out: Issue[],
): void {
  const columns = obj(cfg.dataColumns);
  for (const key of Object.keys(columns ?? {})) {
    if (!/^[1-9][0-9]*$/.test(key)) {
      out.push(
        issue(
          'data_column_key_invalid',
          join(path, 'dataColumns', key),
          `dataColumns key ${JSON.stringify(key)} is not a column number (1, 2, 3, ...).`,
          'Key each data column by its 1-based column number, for example "2".',
        ),
      );
    } else if (typeof timeNumber === 'number' && Number(key) === timeNumber) {
      out.push(
        issue(
          'time_column_is_data_column',
          join(path, 'dataColumns', key),
          `Column ${key} is the time column and also a data column.`,
          'Remove it from dataColumns, or fix timeColumn.columnNumber.',
        ),
      );
    }
  }
  const none = columns === undefined || Object.keys(columns).length === 0;
  if (none && cfg.useEmbeddedConfig !== true) {
    out.push(
      issue(
        'data_columns_missing',
        columns === undefined ? path : join(path, 'dataColumns'),
        'No data columns are listed and useEmbeddedConfig is not set: nothing would be imported.',
        'List the data columns (column number → channel), or set useEmbeddedConfig: true.',
      ),
    );
  }
}
