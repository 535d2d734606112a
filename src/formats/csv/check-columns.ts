/**
 * A CsvConfig's columns against the file's header: the columns it declares (and what the
 * tally counts of them), the file's width, columns past the last one or named for another
 * channel, and the file's columns the config leaves out.
 */
import type { ChannelDataType, CsvConfig, TimeFormat } from '../../model/index.js';
import { type Issue, issue } from '../../model/plain.js';
import { suggestClosest as closest } from '../../validate/index.js';
import type { Tally, TallySpec } from './check-tally.js';
import type { CsvProfile } from './profile.js';

export type At = (...tokens: Array<string | number>) => string;

/** A checked column: where it is and what the config declares. */
export interface ColumnMeta {
  column: number;
  name: string | undefined;
  dataType: ChannelDataType;
  path: string;
  /** ENUM channels: the keys and names a cell may hold. */
  enumTypes: string[] | undefined;
}

/** The columns the config declares (sorted by column) and its time column. */
export function resolveColumns(config: CsvConfig, at: At) {
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

export function tallySpecOf(
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
 * The file's width: the most common field count of the data rows (else the header's). A
 * last row cut short (`cutFields`, its fields: the file is still being written, or was cut)
 * does not count: alone, it made a file of a 2-column header and one cut row "1 column".
 */
export function fileWidth(
  fieldCounts: Tally['fieldCounts'],
  header: string[],
  cutFields?: number,
): number {
  let width = 0;
  let best = -1;
  for (let n = 1; n < fieldCounts.length; n++) {
    const c = (fieldCounts[n] as number) - (n === cutFields ? 1 : 0);
    if (c <= 0) continue;
    if (c > best || (c === best && n > width)) {
      width = n;
      best = c;
    }
  }
  return width === 0 ? header.length : width;
}

/** The time column past the file's last column. */
export function timeColumnPlaceIssues(
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
export function columnPlaceIssues(
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
export function unconfiguredColumnIssues(
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

function suggestTimeColumn(names: string[], fields: CsvProfile['fields']): string {
  const i = fields.findIndex((f) => f.logicalType !== undefined && f.logicalType !== 'mixed');
  if (i !== -1) return `Did you mean column ${i + 1}${names[i] ? ` ('${names[i]}')` : ''}?`;
  const byName = names.findIndex((n) => /^(time|timestamp|ts|t|datetime)\b/i.test(n.trim()));
  if (byName !== -1) return `Did you mean column ${byName + 1} ('${names[byName]}')?`;
  return 'Column numbers count from 1.';
}
