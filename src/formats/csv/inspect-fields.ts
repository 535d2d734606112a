/**
 * One field profile per CSV column, from the stats of the head and of the later parts: its
 * name and units, type (and what widened it), order, stray and empty cells, text shapes;
 * trailing empty columns left out.
 */
import { type Issue, issue } from '../../model/plain.js';
import {
  type CellKind,
  type ColumnStats,
  type CsvColumnType,
  columnType,
  isWidening,
  TEXT_SHAPES,
} from './cells.js';
import { decreases, type HeadScan, type KindWhere } from './inspect-rows.js';
import type { LaterParts } from './inspect-slices.js';
import { type CsvLayout, parseJsonObject, splitHeaderUnits } from './layout.js';
import type { CsvFieldProfile, CsvProfile } from './profile.js';

/** One field per column, from the head's and the later parts' stats; duplicate names noted. */
export function fieldsOf(
  rows: string[][],
  layout: CsvLayout,
  scan: HeadScan,
  later: LaterParts,
  file: string,
  issues: Issue[],
): CsvFieldProfile[] {
  const headerRow = layout.header >= 0 ? (rows[layout.header] ?? []) : [];
  const unitsRow = layout.units >= 0 ? (rows[layout.units] ?? []) : [];
  const fields: CsvFieldProfile[] = [];
  const seenNames = new Map<string, number>();
  for (let c = 0; c < layout.columnCount; c++) {
    const s = scan.stats[c] as ColumnStats;
    const r = later.rest[c] as ColumnStats;
    const headType = scan.headTypes[c] as CsvColumnType;
    const head = {
      increasing: s.increasing,
      firstDecrease: s.firstDecrease,
      last: s.lastValue,
      strings: s.kinds.string,
    };
    s.merge(r);
    const type = columnType(s);
    const field = describeField(c, s, type, layout, headerRow, unitsRow, rows);
    if (s.hasStrays()) {
      const first = s.firstOfKind.string;
      const laterString = later.restKinds[c]?.string;
      field.stray = {
        count: s.kinds.string,
        value: (first?.value ?? '').trim(),
        where:
          head.strings > 0 && first
            ? `row ${first.index}`
            : (laterString?.where ?? 'a later part of the file'),
      };
    }
    orderOf(field, head, r, later.restWhere[c], later.mode, scan.headLimit);
    if (isWidening(headType, type)) {
      field.headType = headType;
      const by = widenedBy(later.restKinds[c] ?? {}, type);
      if (by) field.widenedBy = by;
      issues.push(
        issue(
          'csv_type_widened',
          '',
          `${file}: column ${c + 1} (${field.name}) looked ${headType} in the first rows but holds ${by ? `'${by.value}' in ${by.where}` : 'wider values later'}: typed ${type}`,
          {
            hint: 'Check the value; set the `full` option to scan every row.',
            source: { file, column: c + 1 },
          },
        ),
      );
    }
    const prev = seenNames.get(field.name);
    if (prev !== undefined && layout.header >= 0)
      issues.push(
        issue(
          'csv_duplicate_column_name',
          '',
          `${file}: columns ${prev} and ${c + 1} are both named '${field.name}'`,
          { source: { file, column: c + 1 } },
        ),
      );
    else seenNames.set(field.name, c + 1);
    fields.push(field);
  }
  dropTrailingEmpty(fields, layout, file, issues);
  return fields;
}

/** Whether a column's values only go up, and where they first go down: head, later, seam. */
function orderOf(
  field: CsvFieldProfile,
  head: { increasing: boolean; firstDecrease: number | undefined; last: string | undefined },
  rest: ColumnStats,
  restWhere: string | undefined,
  mode: CsvProfile['sampling']['mode'],
  headLimit: number,
) {
  if (!head.increasing && head.firstDecrease !== undefined) {
    field.increasing = false;
    field.firstDecrease = `row ${head.firstDecrease}`;
  } else if (restWhere !== undefined || !rest.increasing) {
    field.increasing = false;
    field.firstDecrease = restWhere ?? 'a later part of the file';
  } else if (
    mode === 'full' &&
    rest.firstValue !== undefined &&
    head.last !== undefined &&
    decreases(head.last, rest.firstValue)
  ) {
    field.increasing = false;
    field.firstDecrease = `row ${headLimit + 1}`;
  }
}

function widenedBy(
  rest: KindWhere,
  type: CsvColumnType,
): { value: string; where: string } | undefined {
  const order: CellKind[] =
    type === 'STRING'
      ? [
          'string',
          'rfc3339',
          'datetime',
          'date_dmy',
          'date_mdy',
          'date_ambiguous',
          'bool',
          'double',
          'int',
        ]
      : type === 'DOUBLE'
        ? ['double', 'int']
        : ['int'];
  for (const k of order) {
    const f = rest[k];
    if (f) return f;
  }
  return undefined;
}

function describeField(
  c: number,
  s: ColumnStats,
  type: CsvColumnType,
  layout: CsvLayout,
  headerRow: readonly string[],
  unitsRow: readonly string[],
  rows: readonly (readonly string[])[],
): CsvFieldProfile {
  let rawHeader = layout.header >= 0 ? (headerRow[c] ?? '').trim() : '';
  if (layout.commentedHeader && c === 0) rawHeader = rawHeader.replace(/^#\s*(?=[\p{L}_])/u, '');
  const split = splitHeaderUnits(rawHeader);
  const name = split.name !== '' ? split.name : `column_${c + 1}`;
  const kinds: Partial<Record<CellKind, number>> = {};
  const seen = s.kinds;
  for (const k of Object.keys(seen) as CellKind[])
    if (k !== 'empty' && seen[k] > 0) kinds[k] = seen[k];
  const field: CsvFieldProfile = {
    column: c + 1,
    name,
    physicalType: type,
    nullCount: s.empty,
    valueCount: s.values,
    kinds,
    samples: s.samples,
    increasing: s.increasing,
  };
  if (layout.header >= 0) field.header = rawHeader;
  const unitCell = (unitsRow[c] ?? '').trim();
  if (unitCell !== '') {
    field.units = unitCell;
    field.unitsFrom = 'units-row';
  } else if (split.units) {
    field.units = split.units;
    field.unitsFrom = 'header';
  }
  const timeKind = s.timeTextKind();
  if (timeKind) field.logicalType = timeKind;
  if (s.emptyAt.length > 0) field.emptyAt = s.emptyAt.map(placeText);
  for (const shape of TEXT_SHAPES) {
    const seen = s.shapes[shape];
    if (!seen) continue;
    field.textShapes ??= {};
    field.textShapes[shape] = {
      count: seen.count,
      value: seen.value,
      where: placeText(seen.index),
    };
  }
  if (s.firstValue !== undefined) field.first = s.firstValue;
  if (s.lastValue !== undefined) field.last = s.lastValue;
  if (
    s.numMinText !== undefined &&
    s.numMaxText !== undefined &&
    (type === 'DOUBLE' || type.startsWith('INT') || type === 'UINT_64')
  ) {
    field.stats = {
      min: type === 'DOUBLE' ? s.numMinText : (s.intMin ?? s.numMinText),
      max: type === 'DOUBLE' ? s.numMaxText : (s.intMax ?? s.numMaxText),
    };
    field.numericHead = s.head.slice(0, 20);
  } else if (
    timeKind &&
    s.samples.length > 0 &&
    s.firstValue !== undefined &&
    s.lastValue !== undefined
  ) {
    field.stats = { min: s.firstValue, max: s.lastValue };
  }
  for (const r of layout.embeddedRows) {
    const obj = parseJsonObject((rows[r] ?? [])[c] ?? '');
    if (obj) field.embedded = { ...(field.embedded ?? {}), ...obj };
  }
  return field;
}

function placeText(index: number): string {
  return index > 0 ? `row ${index}` : 'a later part of the file';
}

/**
 * Spreadsheet exports often end each row with delimiters: trailing columns with no name and
 * no values. They are left out of the fields (the file keeps them), with an info issue.
 */
function dropTrailingEmpty(
  fields: CsvFieldProfile[],
  layout: CsvLayout,
  file: string,
  issues: Issue[],
): void {
  let drop = 0;
  for (let c = fields.length - 1; c > 0; c--) {
    const f = fields[c] as CsvFieldProfile;
    if (f.physicalType !== 'EMPTY' || (layout.header >= 0 && (f.header ?? '') !== '')) break;
    drop += 1;
  }
  if (drop === 0) return;
  const from = fields.length - drop + 1;
  fields.splice(fields.length - drop, drop);
  issues.push(
    issue(
      'csv_trailing_empty_columns',
      '',
      `${file}: column${drop === 1 ? ` ${from} has` : `s ${from}-${from + drop - 1} have`} no name and no values (trailing delimiters): left out of the draft`,
      { hint: '`importkit normalize` drops them from the file.', source: { file, column: from } },
    ),
  );
}
