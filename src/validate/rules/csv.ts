import type { Issue } from '../../model/issue.js';
import { issue } from '../_issue.js';
import { configsOf, join, obj, type Rule } from './_walk.js';

/**
 * CSV: rows and columns count from 1; dataColumns keys are 1-based column numbers; the time
 * column is not also a data column; something to import unless the file embeds its config.
 */
export const csvRule: Rule = (doc) => {
  const out: Issue[] = [];
  for (const c of configsOf(doc)) {
    if (c.kind !== 'csv') continue;
    const cfg = c.config;
    if (cfg.firstDataRow === 0) {
      out.push(
        issue(
          'first_data_row_below_one',
          join(c.path, 'firstDataRow'),
          'firstDataRow is 0, but rows count from 1 (the file’s first row is 1).',
          'Give the 1-based number of the first data row (2 after one header row).',
        ),
      );
    }
    const tc = obj(cfg.timeColumn);
    const timeNumber = tc?.columnNumber;
    if (timeNumber === 0) {
      out.push(
        issue(
          'column_number_below_one',
          join(c.path, 'timeColumn', 'columnNumber'),
          'timeColumn.columnNumber is 0, but columns count from 1.',
          'Give the 1-based column number (the first column is 1).',
        ),
      );
    }
    const columns = obj(cfg.dataColumns);
    for (const key of Object.keys(columns ?? {})) {
      if (!/^[1-9][0-9]*$/.test(key)) {
        out.push(
          issue(
            'data_column_key_invalid',
            join(c.path, 'dataColumns', key),
            `dataColumns key ${JSON.stringify(key)} is not a column number (1, 2, 3, ...).`,
            'Key each data column by its 1-based column number, for example "2".',
          ),
        );
      } else if (typeof timeNumber === 'number' && Number(key) === timeNumber) {
        out.push(
          issue(
            'time_column_is_data_column',
            join(c.path, 'dataColumns', key),
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
          columns === undefined ? c.path : join(c.path, 'dataColumns'),
          'No data columns are listed and useEmbeddedConfig is not set: nothing would be imported.',
          'List the data columns (column number → channel), or set useEmbeddedConfig: true.',
        ),
      );
    }
  }
  return out;
};
