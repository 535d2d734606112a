/**
 * One data column's channel in a CSV draft: its name, units and data type, each with its
 * evidence; numbers written with a decimal comma or thousands separators, stray values and
 * empty columns told.
 */
import { basename } from 'node:path';
import type { Confidence } from '../../infer/shared.js';
import type { ChannelConfig, ChannelDataType } from '../../model/index.js';
import { type Issue, issue, pointer } from '../../model/plain.js';
import { type NumberStyle, numberStyleOf } from './cells.js';
import { CSV, normalizedName, type RecordEvidence, rowOf, rowSource } from './infer-evidence.js';
import type { CsvFieldProfile, CsvProfile } from './profile.js';

/** One data column's channel: name, units and data type, each with its evidence and issues. */
export function channelFor(
  f: CsvFieldProfile,
  profile: CsvProfile,
  file: string,
  ev: RecordEvidence,
  issues: Issue[],
): ChannelConfig {
  const key = String(f.column);
  const channel: ChannelConfig = { name: f.name };
  if (f.units !== undefined) channel.units = f.units;
  const style = numberStyle(f, profile.dialect.delimiter);
  const type = style ? 'DOUBLE' : f.physicalType === 'EMPTY' ? 'STRING' : f.physicalType;
  channel.dataType = `CHANNEL_DATA_TYPE_${type}` as ChannelDataType;
  if (style)
    issues.push(numberStyleIssue(f, style, file, pointer(CSV, 'dataColumns', key, 'dataType')));
  if (f.stray) issues.push(strayIssue(f, file, pointer(CSV, 'dataColumns', key, 'dataType')));
  ev(
    pointer(CSV, 'dataColumns', key, 'name'),
    f.name,
    f.header !== undefined && f.header !== ''
      ? `header of column ${f.column}${f.unitsFrom === 'header' ? ' without its units' : ''}`
      : `no header: named by column number`,
    f.header !== undefined && f.header !== '' ? 'high' : 'low',
  );
  if (f.units !== undefined)
    ev(
      pointer(CSV, 'dataColumns', key, 'units'),
      f.units,
      f.unitsFrom === 'units-row'
        ? `row ${profile.layout.unitsRow} (units row)`
        : `written in the header '${f.header ?? ''}'`,
      'high',
    );
  ev(
    pointer(CSV, 'dataColumns', key, 'dataType'),
    channel.dataType,
    style
      ? `numbers written with ${style === 'decimal_comma' ? 'a decimal comma' : 'thousands separators'}: ${typeReason(f)}`
      : typeReason(f),
    style ? 'medium' : typeConfidence(f),
  );
  if (f.physicalType === 'EMPTY')
    issues.push(
      issue(
        'csv_column_empty',
        pointer(CSV, 'dataColumns', key, 'dataType'),
        `${file}: column ${f.column} (${f.name}) has no values in the rows read; typed STRING`,
        { hint: 'Set dataType yourself, or set the `full` option to scan every row.' },
      ),
    );
  return channel;
}

function typeReason(f: CsvFieldProfile): string {
  const kinds = Object.entries(f.kinds)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  const empty = f.nullCount > 0 ? `; ${f.nullCount} empty cell(s) not counted` : '';
  const range =
    f.stats && f.physicalType !== 'STRING' ? ` from ${f.stats.min} to ${f.stats.max}` : '';
  const widened = f.headType ? `; widened from ${f.headType} by '${f.widenedBy?.value ?? ''}'` : '';
  if (f.physicalType === 'EMPTY') return 'no values seen';
  return `${f.valueCount} value(s): ${kinds}${range}${empty}${widened}`;
}

function typeConfidence(f: CsvFieldProfile): Confidence {
  if (f.physicalType === 'EMPTY') return 'low';
  if (f.headType) return 'medium';
  return f.valueCount >= 3 ? 'high' : 'medium';
}

/** The number style of a column written as text the platform cannot read (`20,1`, `1,234.5`). */
function numberStyle(f: CsvFieldProfile, delimiter: string): NumberStyle | undefined {
  if (f.physicalType !== 'STRING' || !f.textShapes) return undefined;
  const numbers = (f.kinds.int ?? 0) + (f.kinds.double ?? 0);
  return numberStyleOf(f.textShapes, f.valueCount, numbers, delimiter);
}

function numberStyleIssue(
  f: CsvFieldProfile,
  style: NumberStyle,
  file: string,
  path: string,
): Issue {
  const shapes = f.textShapes ?? {};
  const first = [
    shapes.decimal_comma,
    shapes.decimal_comma_grouped,
    shapes.thousands,
    shapes.comma_ambiguous,
  ]
    .filter((x) => x !== undefined)
    .sort((a, b) => rowOf(a.where) - rowOf(b.where))[0];
  const example = first ? `'${first.value}' at ${first.where}` : '';
  return style === 'decimal_comma'
    ? issue(
        'csv_decimal_comma',
        path,
        `${file}: column ${f.column} (${f.name}) writes numbers with a decimal comma (${example}); the platform reads a decimal point`,
        {
          hint: `Convert the file: importkit normalize ${basename(file)} -o ${normalizedName(file)}`,
          source: { file, column: f.column, ...rowSource(first?.where) },
        },
      )
    : issue(
        'csv_thousands_separator',
        path,
        `${file}: column ${f.column} (${f.name}) writes numbers with thousands separators (${example}); the platform reads plain digits`,
        {
          hint: `Convert the file: importkit normalize ${basename(file)} -o ${normalizedName(file)}`,
          source: { file, column: f.column, ...rowSource(first?.where) },
        },
      );
}

function strayIssue(f: CsvFieldProfile, file: string, path: string): Issue {
  const s = f.stray as NonNullable<CsvFieldProfile['stray']>;
  return issue(
    'csv_value_stray',
    path,
    `${file}: column ${f.column} (${f.name}) holds ${s.count} value(s) that are not ${f.physicalType} among ${f.valueCount} (first: '${s.value}' at ${s.where}); the import fails on those rows`,
    {
      hint: 'Fix or empty those cells, or set dataType to CHANNEL_DATA_TYPE_STRING if the text is meant.',
      source: { file, column: f.column, ...rowSource(s.where) },
    },
  );
}
