/**
 * Checks a CsvConfig against a CSV file: the columns it names exist (and carry the names
 * the channels have), `firstDataRow` is the first row of values, the time column parses
 * in the declared format, goes forward and lands in a plausible date range, and every
 * value fits its channel's type. Samples the head and the tail of the file by default;
 * `full` streams every row with bounded memory.
 */

import { type ByteSource, wholeFileOf } from '../../inspect/shared.js';
import type { ChannelDataType, CsvConfig, TimeFormat } from '../../model/index.js';
import {
  type Issue,
  type IssueSource,
  issue,
  pointer,
  pushAll,
  unixUnitThatFits,
} from '../../model/plain.js';
import { suggestClosest as closest, listSome } from '../../validate/index.js';
import {
  MAX_PLAUSIBLE_MS,
  MIN_PLAUSIBLE_MS,
  PLAUSIBLE_WORDS,
  plausibleUnix,
  quoteValue,
  shortName,
  unitThatFits,
} from '../../values/index.js';
import { classifyCell } from './cells.js';
import { nextLineStart } from './check-head.js';
import { scanFull } from './check-parallel.js';
import {
  type ColumnTally,
  MAX_OFFENDERS,
  mergeTally,
  type Place,
  type Tally,
  type TallySpec,
  type TimeTally,
  tallyRecords,
} from './check-tally.js';
import type { CsvHeadRows } from './head.js';
import { inspectCsvSource } from './inspect.js';
import type { CsvProfile } from './profile.js';
import { scanCsvFile } from './scan.js';

export interface CsvCheckOptions {
  /** Stream every row instead of sampling the head and the tail. */
  full?: boolean;
  /** Bytes done of total (full scans). */
  onProgress?: (done: number, total: number) => void;
  /**
   * Threads of a full scan: this one and `jobs - 1` workers. Default: the cores; 1 reads in
   * this thread alone.
   */
  jobs?: number;
  /**
   * The largest range of a full scan on several threads, in bytes (default 64 MiB); ranges
   * shrink to 4 MiB towards the end.
   */
  rangeBytes?: number;
  /** Rows read from the head when sampling. Default 10,000. */
  sampleRows?: number;
  /** Bytes read from the head (and the tail) when sampling. Default 4 MiB (tail 1 MiB). */
  sampleBytes?: number;
  /** The config's key in the document (for pointers). Default `csvConfig`. */
  key?: string;
  /** The delimiter (`,` `;` `\t` `|`), instead of detecting it (as `infer --delimiter`). */
  delimiter?: string;
  /** The 1-based header row (0: none), instead of detecting it (as `infer --header-row`). */
  headerRow?: number;
}

/** What the file's structure says, from the same inspection `infer` makes (both modes). */
const STRUCTURE_CODES = new Set(['csv_no_data_rows', 'csv_last_row_incomplete']);

const HEAD_RECORDS = 64;

/** A checked column: where it is and what the config declares. */
interface ColumnMeta {
  column: number;
  name: string | undefined;
  dataType: ChannelDataType;
  path: string;
  /** ENUM channels: the keys and names a cell may hold. */
  enumTypes: string[] | undefined;
}

const UNIX_PER_MS: Partial<Record<TimeFormat, number>> = {
  TIME_FORMAT_ABSOLUTE_UNIX_SECONDS: 1e-3,
  TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS: 1,
  TIME_FORMAT_ABSOLUTE_UNIX_MICROSECONDS: 1e3,
  TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS: 1e6,
};

type At = (...tokens: Array<string | number>) => string;

/** Checks a CsvConfig against the CSV read through `source` (issues name `source.name`). */
export async function checkCsv(
  config: CsvConfig,
  source: ByteSource,
  options: CsvCheckOptions = {},
): Promise<Issue[]> {
  const key = options.key ?? 'csvConfig';
  const at: At = (...tokens) => pointer(key, ...tokens);
  const dataPath = source.name;
  const read = await readThrough(source, config, options);
  const { profile, structureIssues, columns, timeCol, timeSpec, useEmbedded } = read;
  const { rows, tally, totalRows } = read;
  const width = fileWidth(tally.fieldCounts, rows.header);
  const names = rows.header.map((h) => h.trim());

  const issues: Issue[] = [...structureIssues];
  const noDataRows = structureIssues.some((i) => i.code === 'csv_no_data_rows');
  pushAll(
    issues,
    firstDataRowIssues(config.firstDataRow, totalRows, noDataRows, rows, at, dataPath),
  );
  if (tally.again.count > 0) issues.push(repeatedHeaderIssue(tally.again, dataPath));
  pushAll(issues, timeColumnPlaceIssues(timeCol, width, names, profile.fields, at, dataPath));
  pushAll(issues, columnPlaceIssues(columns, width, names, dataPath));
  if (timeSpec && tally.time && timeSpec.column <= width)
    pushAll(
      issues,
      timeIssues({ ...tally.time, ...timeSpec }, at, dataPath, options.full === true),
    );
  columns.forEach((col, c) => {
    if (col.column <= width)
      pushAll(issues, valueIssues({ ...col, ...(tally.columns[c] as ColumnTally) }, dataPath));
  });
  if (!useEmbedded)
    pushAll(issues, unconfiguredColumnIssues(width, timeCol, columns, names, at, dataPath));
  if (options.full) pushAll(issues, numRowsIssues(config.numRows, tally.dataRows, at, dataPath));
  return issues;
}

/**
 * Every read of the file, through one open byte source: the inspector's profile, then the
 * tally of the values (sampled, or every row: in worker threads, which open the file
 * themselves, when the source is a file on disk; else in this thread through the source).
 */
async function readThrough(source: ByteSource, config: CsvConfig, options: CsvCheckOptions) {
  const at: At = (...tokens) => pointer(options.key ?? 'csvConfig', ...tokens);
  const { profile, structureIssues } = await readStructure(source, options);
  const { delimiter, gzip: gz } = profile.dialect;
  const size = profile.file.size;
  const { columns, timeCol, timeSpec, useEmbedded } = resolveColumns(config, at);
  const rows = locateRows(config.firstDataRow, profile);
  const spec = tallySpecOf(columns, timeSpec, rows.header);
  const { tally, totalRows } = options.full
    ? await fullTally(
        wholeFileOf(source) ?? source,
        size,
        spec,
        delimiter,
        rows.checkFrom,
        gz,
        options,
      )
    : await sampledTally(source, size, spec, delimiter, rows.checkFrom, gz, options);
  return {
    profile,
    structureIssues,
    columns,
    timeCol,
    timeSpec,
    useEmbedded,
    rows,
    tally,
    totalRows,
  };
}

/**
 * The inspector's profile, the one reading of the file's head that the check builds on:
 * encoding (UTF-16 and binary refused there), gzip, delimiter, header, units and first
 * data row, the first rows with their kinds, and the structure verdicts (line ends, width,
 * data rows, a cut last row) that `inspect` and `infer` give, whatever the mode, so sampled
 * and full checks agree with them.
 */
async function readStructure(source: ByteSource, options: CsvCheckOptions) {
  const profile = await inspectCsvSource(source, {
    headRecords: HEAD_RECORDS,
    ...(options.delimiter !== undefined ? { delimiter: options.delimiter } : {}),
    ...(options.headerRow !== undefined ? { headerRow: options.headerRow } : {}),
  });
  const structureIssues = profile.issues.filter((i) => STRUCTURE_CODES.has(i.code));
  return { profile, structureIssues };
}

/** The columns the config declares (sorted by column) and its time column. */
function resolveColumns(config: CsvConfig, at: At) {
  const useEmbedded = config.useEmbeddedConfig === true;
  const timeCol = useEmbedded ? undefined : config.timeColumn?.columnNumber;
  const timeFormat = config.timeColumn?.format;
  const dataColumns = useEmbedded ? {} : (config.dataColumns ?? {});
  const columns: ColumnMeta[] = [];
  for (const [k, channel] of Object.entries(dataColumns)) {
    const n = Number(k);
    if (!Number.isInteger(n) || n < 1) continue;
    const dataType = channel.dataType ?? 'CHANNEL_DATA_TYPE_UNSPECIFIED';
    columns.push({
      column: n,
      name: channel.name,
      dataType,
      path: at('dataColumns', k),
      enumTypes:
        dataType === 'CHANNEL_DATA_TYPE_ENUM'
          ? (channel.enumTypes ?? []).flatMap((e) => [String(e.key), e.name])
          : undefined,
    });
  }
  columns.sort((a, b) => a.column - b.column);
  const timeSpec =
    timeCol !== undefined && timeCol >= 1 && timeFormat && timeFormat !== 'TIME_FORMAT_UNSPECIFIED'
      ? { column: timeCol, format: timeFormat }
      : undefined;
  return { columns, timeCol, timeSpec, useEmbedded };
}

/** Where the header and the values are, as the inspector's layout and head rows say. */
interface RowLayout {
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

function locateRows(firstDataRow: number | undefined, profile: CsvProfile): RowLayout {
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

function tallySpecOf(
  columns: ColumnMeta[],
  timeSpec: { column: number; format: TimeFormat } | undefined,
  header: string[],
): TallySpec {
  return {
    columns: columns.map((c) => ({
      column: c.column,
      dataType: c.dataType,
      ...(c.enumTypes ? { enumTypes: c.enumTypes } : {}),
    })),
    ...(timeSpec ? { time: timeSpec } : {}),
    header,
  };
}

/**
 * firstDataRow past the end, on the header, or skipping rows of values. Past the end of a
 * file with no data rows at all says nothing `csv_no_data_rows` does not: only that is told.
 */
function firstDataRowIssues(
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

/** The file's width: the most common field count of the data rows (else the header's). */
function fileWidth(fieldCounts: Tally['fieldCounts'], header: string[]): number {
  let width = 0;
  let best = -1;
  for (let n = 1; n < fieldCounts.length; n++) {
    const c = fieldCounts[n] as number;
    if (c === 0) continue;
    if (c > best || (c === best && n > width)) {
      width = n;
      best = c;
    }
  }
  return width === 0 ? header.length : width;
}

/** The time column past the file's last column. */
function timeColumnPlaceIssues(
  timeCol: number | undefined,
  width: number,
  names: string[],
  fields: CsvProfile['fields'],
  at: At,
  dataPath: string,
): Issue[] {
  if (timeCol === undefined || !(timeCol > width && width > 0)) return [];
  return [
    issue(
      'column_not_in_file',
      at('timeColumn', 'columnNumber'),
      `time column ${timeCol} is past the last column: the file has ${width} column${width === 1 ? '' : 's'}`,
      {
        hint: suggestTimeColumn(names, fields),
        source: { file: dataPath, column: timeCol },
      },
    ),
  ];
}

/** Data columns past the file's last column, or whose header names another channel. */
function columnPlaceIssues(
  columns: ColumnMeta[],
  width: number,
  names: string[],
  dataPath: string,
): Issue[] {
  const issues: Issue[] = [];
  const nameIndex = indexNames(names);
  for (const col of columns) {
    const nameAt = findName(nameIndex, col.name);
    if (col.column > width && width > 0) {
      issues.push(
        issue(
          'column_not_in_file',
          col.path,
          `column ${col.column}${col.name ? ` ('${col.name}')` : ''} is past the last column: the file has ${width} column${width === 1 ? '' : 's'}`,
          {
            hint: pastEndHint(col.name, nameAt, names, width),
            source: { file: dataPath, column: col.column },
          },
        ),
      );
      continue;
    }
    const here = names[col.column - 1];
    if (
      col.name &&
      here &&
      nameAt !== undefined &&
      nameAt !== col.column - 1 &&
      !sameName(here, col.name)
    ) {
      issues.push(
        issue(
          'column_name_mismatch',
          col.path,
          `column ${col.column} is '${here}' in the file, but the channel is named '${col.name}', which is column ${nameAt + 1}`,
          {
            hint: `Did you mean column ${nameAt + 1}?`,
            source: { file: dataPath, column: col.column },
          },
        ),
      );
    }
  }
  return issues;
}

/**
 * The hint for a column past the end: the column whose header is the channel's name (or
 * nearly: a misspelling, by the one `closest` of the did-you-mean hints), with its number,
 * since the config names columns by number; else the columns' range.
 */
function pastEndHint(
  name: string | undefined,
  nameAt: number | undefined,
  names: string[],
  width: number,
): string {
  const near = nameAt ?? (name ? nearestName(name, names) : undefined);
  return near !== undefined
    ? `Did you mean column ${near + 1} ('${names[near]}')?`
    : `Column numbers count from 1 and go up to ${width}.`;
}

/** The 0-based column whose header is nearest to `name` (a likely misspelling), if any. */
function nearestName(name: string, names: string[]): number | undefined {
  const near = closest(
    name,
    names.filter((n) => n !== ''),
  );
  return near === undefined ? undefined : names.indexOf(near);
}

/** Columns of the file not in the config. */
function unconfiguredColumnIssues(
  width: number,
  timeCol: number | undefined,
  columns: ColumnMeta[],
  names: string[],
  at: At,
  dataPath: string,
): Issue[] {
  const referenced = new Set<number>(columns.map((c) => c.column));
  if (timeCol !== undefined) referenced.add(timeCol);
  const issues: Issue[] = [];
  for (let c = 1; c <= width; c++) {
    if (referenced.has(c)) continue;
    const name = names[c - 1];
    issues.push(
      issue(
        'column_not_in_config',
        at('dataColumns'),
        `column ${c}${name ? ` ('${name}')` : ''} is in the file but not in the config: it will not be imported`,
        { source: { file: dataPath, column: c } },
      ),
    );
  }
  return issues;
}

/** numRows against the data rows a full scan counted. */
function numRowsIssues(
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

/**
 * Every row of the file: a file on disk (its path) in worker threads unless one job is asked
 * for, any other source (an archive's member) in this thread.
 */
async function fullTally(
  data: string | ByteSource,
  size: number,
  spec: TallySpec,
  delimiter: string,
  checkFrom: number,
  gzip: boolean,
  options: CsvCheckOptions,
): Promise<{ tally: Tally; totalRows: number }> {
  const scan = await scanFull(data, size, {
    delimiter,
    spec,
    checkFrom,
    gzip,
    ...(options.jobs !== undefined ? { jobs: options.jobs } : {}),
    ...(options.rangeBytes !== undefined ? { rangeBytes: options.rangeBytes } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  return { tally: scan.tally, totalRows: scan.rows };
}

/**
 * The read size of a sampled check. The scanner holds three times its read size (a buffer
 * of two reads and one read ahead): 256 KiB reads hold 0.75 MiB a scan instead of 3 MiB
 * for the default 1 MiB, and a sample is a few MiB, so the extra reads cost nothing seen.
 */
const SAMPLE_CHUNK = 256 * 1024;

/** The head of the file and a slice from its end (whose rows' numbers are not known). */
async function sampledTally(
  source: ByteSource,
  size: number,
  spec: TallySpec,
  delimiter: string,
  checkFrom: number,
  gz: boolean,
  options: CsvCheckOptions,
): Promise<{ tally: Tally; totalRows: number | undefined }> {
  const sampleBytes = options.sampleBytes ?? 4 * 1024 * 1024;
  const head = tallyRecords(spec, { skipBefore: checkFrom });
  const headScan = await scanCsvFile(source, head.onRecord, {
    delimiter,
    end: sampleBytes,
    maxRows: options.sampleRows ?? 10_000,
    chunkSize: SAMPLE_CHUNK,
  });
  if (headScan.atEnd) return { tally: head.tally, totalRows: headScan.rows };
  if (gz) return { tally: head.tally, totalRows: undefined };
  const tailBytes = Math.min(1024 * 1024, Math.floor(sampleBytes / 4));
  const from = Math.max(headScan.endOffset, size - tailBytes);
  if (from < size) {
    const lineStart = await nextLineStart(source, from, size);
    if (lineStart < size) {
      const tail = tallyRecords(spec, { rowsKnown: false });
      await scanCsvFile(source, tail.onRecord, {
        delimiter,
        start: lineStart,
        chunkSize: SAMPLE_CHUNK,
      });
      mergeTally(head.tally, tail.tally, 0, 0);
    }
  }
  return { tally: head.tally, totalRows: undefined };
}

/** The time column's findings: empty cells, unparsable values, backward steps, range. */
function timeIssues(
  t: TimeTally & { column: number; format: TimeFormat },
  at: At,
  file: string,
  full: boolean,
): Issue[] {
  const out: Issue[] = [];
  const fmt = shortName(t.format);
  if (t.empty > 0 && t.nonEmpty > 0) {
    const first = t.emptyAt[0] as Place;
    out.push(
      issue(
        'csv_time_empty',
        at('timeColumn', 'columnNumber'),
        `${t.empty} ${full ? '' : 'sampled '}time cell${t.empty === 1 ? ' is' : 's are'} empty (first: ${t.emptyAt.map(placeText).join(', ')}): the import fails on those rows`,
        {
          hint: 'Fill in or remove those rows, or choose another time column.',
          source: sourceOf(file, first, t.column),
        },
      ),
    );
  }
  if (t.bad > 0) {
    const first = t.offenders[0] as Place;
    const suggestion = suggestFormat(t.offenders.map((o) => o.value));
    const why =
      t.withZone > 0 && t.format === 'TIME_FORMAT_ABSOLUTE_DATETIME'
        ? ' (they carry a zone)'
        : t.withoutZone > 0 && t.format === 'TIME_FORMAT_ABSOLUTE_RFC3339'
          ? ' (they have no zone)'
          : '';
    out.push(
      issue(
        'time_not_parseable',
        at('timeColumn', 'format'),
        `${t.bad} of ${t.nonEmpty} ${full ? '' : 'sampled '}time values do not parse as ${fmt}${why}: ${listOffenders(t.offenders, t.bad)}`,
        {
          hint:
            suggestion && suggestion !== t.format
              ? `The values look like ${shortName(suggestion)}.`
              : undefined,
          source: sourceOf(file, first, t.column),
        },
      ),
    );
  }
  if (t.decreases > 0 && t.firstDecrease) {
    out.push(
      issue(
        'time_decreasing',
        at('timeColumn', 'columnNumber'),
        `time goes backwards ${t.decreases} time${t.decreases === 1 ? '' : 's'}; first at ${placeText(t.firstDecrease)}: ${quoteValue(t.firstDecrease.value)}`,
        { source: sourceOf(file, t.firstDecrease, t.column) },
      ),
    );
  }
  if (t.nonEmpty > t.bad && Number.isFinite(t.min)) pushAll(out, timeRangeIssues(t, at, file));
  return out;
}

/** Times outside the plausible dates: a wrong unix unit, out of range, or absolute read as relative. */
function timeRangeIssues(
  t: TimeTally & { column: number; format: TimeFormat },
  at: At,
  file: string,
): Issue[] {
  const out: Issue[] = [];
  const fmt = shortName(t.format);
  const perMs = UNIX_PER_MS[t.format];
  if (perMs !== undefined) {
    const lo = t.min / perMs;
    const hi = t.max / perMs;
    if (!plausibleUnix([t.min, t.max], t.format)) {
      const fits = unitThatFits([t.min, t.max]);
      const landed = describeDate(lo < MIN_PLAUSIBLE_MS ? lo : hi);
      if (fits && fits !== t.format) {
        out.push(
          issue(
            'time_wrong_unit',
            at('timeColumn', 'format'),
            `read as ${fmt}, the times land in ${landed}; as ${shortName(fits)} they fall between ${describeDate(t.min / (UNIX_PER_MS[fits] ?? 1))} and ${describeDate(t.max / (UNIX_PER_MS[fits] ?? 1))}`,
            { hint: `Use format: ${fits}.`, source: { file, column: t.column } },
          ),
        );
      } else {
        out.push(
          issue(
            'time_out_of_range',
            at('timeColumn', 'format'),
            `read as ${fmt}, the times land in ${landed}, and no other unix unit gives plausible dates`,
            { source: { file, column: t.column } },
          ),
        );
      }
    }
  } else if (t.format.startsWith('TIME_FORMAT_ABSOLUTE_')) {
    if (t.min < MIN_PLAUSIBLE_MS || t.max >= MAX_PLAUSIBLE_MS) {
      out.push(
        issue(
          'time_out_of_range',
          at('timeColumn', 'format'),
          `the times fall between ${describeDate(t.min)} and ${describeDate(t.max)}: outside ${PLAUSIBLE_WORDS}`,
          { source: { file, column: t.column } },
        ),
      );
    }
  } else if (t.min > 1e8) {
    const fits = unixUnitThatFits([t.min, t.max]);
    if (fits) {
      out.push(
        issue(
          'time_looks_absolute',
          at('timeColumn', 'format'),
          `the times (${t.min} to ${t.max}) look like ${shortName(fits)}, not ${fmt}`,
          {
            hint: `Use format: ${fits} and leave out relativeStartTime.`,
            source: { file, column: t.column },
          },
        ),
      );
    }
  }
  return out;
}

function valueIssues(col: ColumnMeta & ColumnTally, file: string): Issue[] {
  const out: Issue[] = [];
  const type = shortName(col.dataType);
  const label = `column ${col.column}${col.name ? ` ('${col.name}')` : ''}`;
  if (col.bad > 0) {
    const first = col.offenders[0] as Place;
    const fits = widerType(
      col.dataType,
      col.offenders.map((o) => o.value),
      col.bad === col.nonEmpty,
    );
    out.push(
      issue(
        'value_type_mismatch',
        `${col.path}/dataType`,
        `${col.bad} value${col.bad === 1 ? ' of' : 's of'} ${label} ${col.bad === 1 ? 'does' : 'do'} not fit ${type}: ${listOffenders(col.offenders, col.bad)}`,
        {
          hint: fits ? `Use dataType: ${fits}, or fix the values.` : undefined,
          source: sourceOf(file, first, col.column),
        },
      ),
    );
  }
  if (
    col.dataType === 'CHANNEL_DATA_TYPE_DOUBLE' &&
    col.bad === 0 &&
    col.nonEmpty > 0 &&
    col.allSmallInts
  ) {
    out.push(
      issue(
        'type_too_wide',
        `${col.path}/dataType`,
        `${label} is DOUBLE but every value is a small integer`,
        {
          hint: 'Use dataType: CHANNEL_DATA_TYPE_INT_32 unless other files need decimals here.',
          source: { file, column: col.column },
        },
      ),
    );
  }
  if (col.lossy > 0 && col.firstLossy) {
    out.push(
      issue(
        'type_too_narrow',
        `${col.path}/dataType`,
        `${col.lossy} value${col.lossy === 1 ? '' : 's'} of ${label} have more than 7 significant digits and lose precision as FLOAT; first at ${placeText(col.firstLossy)}: ${quoteValue(col.firstLossy.value)}`,
        {
          hint: 'Use dataType: CHANNEL_DATA_TYPE_DOUBLE.',
          source: sourceOf(file, col.firstLossy, col.column),
        },
      ),
    );
  }
  return out;
}

/** The channel type that would take the declared type's values and the offenders. */
function widerType(
  declared: ChannelDataType,
  values: string[],
  allBad: boolean,
): ChannelDataType | undefined {
  let need: 'BOOL' | 'INT_32' | 'INT_64' | 'UINT_64' | 'DOUBLE' | 'STRING' | undefined;
  const rank = { BOOL: 0, INT_32: 1, INT_64: 2, UINT_64: 3, DOUBLE: 4, STRING: 5 } as const;
  const raise = (t: keyof typeof rank) => {
    if (need === undefined || rank[t] > rank[need]) need = t;
  };
  for (const v of values) {
    const k = classifyCell(v);
    if (k === 'int') {
      const n = BigInt(v.trim().replace(/^\+/, ''));
      if (n >= -2147483648n && n <= 2147483647n) raise('INT_32');
      else if (n >= -9223372036854775808n && n <= 9223372036854775807n) raise('INT_64');
      else if (n >= 0n && n <= 18446744073709551615n) raise('UINT_64');
      else raise('DOUBLE');
    } else if (k === 'double') raise('DOUBLE');
    // Booleans in a numeric column: BOOL when they are all it holds, else only text fits.
    else if (k === 'bool')
      raise(declared === 'CHANNEL_DATA_TYPE_BOOL' || allBad ? 'BOOL' : 'STRING');
    else raise('STRING');
  }
  if (need === undefined) return undefined;
  const full = `CHANNEL_DATA_TYPE_${need}` as ChannelDataType;
  return full === declared ? undefined : full;
}

function suggestFormat(values: string[]): TimeFormat | undefined {
  const kinds = values.map((v) => classifyCell(v));
  if (kinds.every((k) => k === 'rfc3339')) return 'TIME_FORMAT_ABSOLUTE_RFC3339';
  if (kinds.every((k) => k === 'datetime')) return 'TIME_FORMAT_ABSOLUTE_DATETIME';
  if (kinds.every((k) => k === 'int' || k === 'double')) return unixUnitThatFits(values);
  return undefined;
}

function listOffenders(offenders: Place[], count: number): string {
  return listSome(
    offenders.map((o) => `${quoteValue(o.value)} at ${placeText(o)}`),
    MAX_OFFENDERS,
    count,
  );
}

function placeText(p: Place): string {
  return p.row !== undefined ? `row ${p.row} (line ${p.line})` : `byte ${p.offset}`;
}

function sourceOf(file: string, p: Place, column: number): IssueSource {
  const s: IssueSource = { file, column };
  if (p.row !== undefined) s.row = p.row;
  if (p.line !== undefined) s.line = p.line;
  if (p.row === undefined) s.offset = p.offset;
  return s;
}

function describeDate(ms: number): string {
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15)
    return ms > 0 ? 'a year past 275000' : 'a year before -271000';
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  return y < 0 || y > 9999 ? `the year ${y}` : d.toISOString().slice(0, 10);
}

// ---------------------------------------------------------------------------------------
// Header, units and data rows

function rowPreview(cells: string[]): string {
  const text = cells.slice(0, 4).join(', ');
  return `${cells.length > 4 ? `${text}, ...` : text}`.slice(0, 60);
}

function normalizeName(s: string): string {
  return s
    .toLowerCase()
    .replace(/\s*[[(].*[\])]\s*$/, '')
    .replace(/[^a-z0-9]/g, '');
}

function sameName(a: string, b: string): boolean {
  return normalizeName(a) === normalizeName(b);
}

interface NameIndex {
  exact: Map<string, number>;
  normalized: Map<string, number>;
}

/** The header names indexed once (first column of each name wins): lookups are then O(1). */
function indexNames(names: string[]): NameIndex {
  const exact = new Map<string, number>();
  const normalized = new Map<string, number>();
  names.forEach((h, i) => {
    if (!exact.has(h)) exact.set(h, i);
    const n = normalizeName(h);
    if (!normalized.has(n)) normalized.set(n, i);
  });
  return { exact, normalized };
}

/** The 0-based column whose header is this name (exactly, or up to case and punctuation). */
function findName(index: NameIndex, name: string | undefined): number | undefined {
  if (!name) return undefined;
  const exact = index.exact.get(name);
  if (exact !== undefined) return exact;
  const n = normalizeName(name);
  if (n === '') return undefined;
  return index.normalized.get(n);
}

function repeatedHeaderIssue(again: Tally['again'], file: string): Issue {
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

function suggestTimeColumn(names: string[], fields: CsvProfile['fields']): string {
  const i = fields.findIndex((f) => f.logicalType !== undefined && f.logicalType !== 'mixed');
  if (i !== -1) return `Did you mean column ${i + 1}${names[i] ? ` ('${names[i]}')` : ''}?`;
  const byName = names.findIndex((n) => /^(time|timestamp|ts|t|datetime)\b/i.test(n.trim()));
  if (byName !== -1) return `Did you mean column ${byName + 1} ('${names[byName]}')?`;
  return 'Column numbers count from 1.';
}
