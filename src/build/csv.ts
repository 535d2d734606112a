import type { ChannelConfig, CsvConfig, CsvTimeColumn } from '../model/index.js';
import {
  finish,
  type Int64Input,
  int64,
  knownKeys,
  put,
  RUN_KEYS,
  type RunInput,
  runFields,
  TIME_KEYS,
  type TimeSpec,
  timeFields,
} from './_common.js';
import { type ChannelInput, channelOf } from './channel.js';

/** The time column: its 1-based number, its format, and the start of a relative format. */
export type CsvTimeInput = { column: number } & TimeSpec;

interface CsvCommon {
  /** The first row read as data; the file's first row is 1 (2 skips a header row). */
  firstDataRow?: number;
  /** The number of data rows, read from the file when unset. */
  numRows?: Int64Input;
}

/** Time and data columns given here. */
interface CsvColumnsInput extends CsvCommon {
  time: CsvTimeInput;
  /** Data columns by 1-based column number: `{ 2: { name: 'speed', type: 'double' } }`. */
  columns: Readonly<Record<number, ChannelInput>>;
  useEmbeddedConfig?: false;
}

/** Time and data columns taken from the config embedded in the file. */
interface CsvEmbeddedInput extends CsvCommon {
  useEmbeddedConfig: true;
  time?: never;
  columns?: never;
}

export type CsvConfigInput = RunInput & (CsvColumnsInput | CsvEmbeddedInput);

/**
 * The input for `useEmbeddedConfig: E`: one shape, not a union of both, so that TypeScript
 * checks an object literal against the shape meant and reports a misspelled key where it is
 * (`colums`: "Did you mean to write 'columns'?"), not deep inside another key.
 */
type CsvConfigInputOf<E extends boolean> = RunInput &
  (E extends true ? CsvEmbeddedInput : CsvColumnsInput);

export type CsvDocument = { csvConfig: CsvConfig };

/** What `csvConfig()` returns when the time and data columns are given: both are there. */
export type CsvColumnsDocument = {
  csvConfig: CsvConfig & {
    timeColumn: CsvTimeColumn & {
      columnNumber: number;
      format: NonNullable<CsvTimeColumn['format']>;
    };
    dataColumns: Record<string, ChannelConfig>;
  };
};

/**
 * A CSV import config: `csvConfig({ asset: 'car', time: { column: 1, format:
 * 'absolute_datetime' }, columns: { 2: { name: 'speed', type: 'double', units: 'm/s' } } })`
 * → `{ csvConfig: { assetName: 'car', timeColumn: {...}, dataColumns: { '2': {...} } } }`.
 * Throws ConfigBuildError when the result is not a valid config (a column number below 1,
 * the time column listed as a data column, ...). Given time and columns, the result's type
 * has `timeColumn` and `dataColumns` (no `undefined` to rule out).
 */
export function csvConfig<E extends boolean = false>(
  input: CsvConfigInputOf<E> & { useEmbeddedConfig?: E },
): E extends true ? CsvDocument : CsvColumnsDocument;
export function csvConfig(input: CsvConfigInput): CsvDocument {
  const b = 'csvConfig()';
  knownKeys(b, input, [
    ...RUN_KEYS,
    'firstDataRow',
    'time',
    'columns',
    'numRows',
    'useEmbeddedConfig',
  ]);
  const out: CsvConfig = runFields(input);
  put(out, 'firstDataRow', input.firstDataRow);
  if (input.time !== undefined) {
    knownKeys(b, input.time, ['column', ...TIME_KEYS], '/time');
    const timeColumn: CsvTimeColumn = {
      columnNumber: input.time.column,
      ...timeFields(input.time),
    };
    out.timeColumn = timeColumn;
  }
  if (input.columns !== undefined) {
    const dataColumns: Record<string, ChannelConfig> = {};
    for (const [column, spec] of Object.entries(input.columns as Record<string, ChannelInput>)) {
      dataColumns[column] = channelOf(b, spec, `/columns/${column}`);
    }
    out.dataColumns = dataColumns;
  }
  if (input.numRows !== undefined) {
    out.numRows = int64('csvConfig()', '/csvConfig/numRows', input.numRows);
  }
  put(out, 'useEmbeddedConfig', input.useEmbeddedConfig);
  return finish('csv', { csvConfig: out });
}
