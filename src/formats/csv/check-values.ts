/**
 * A checked column's tally as issues: values that do not fit the declared type (and the
 * type that would take them), integers declared DOUBLE, NaN and infinite values, digits a
 * FLOAT loses; and how a place in the file (a row and line, or a byte) is written and
 * pointed to.
 */
import type { ChannelDataType } from '../../model/index.js';
import { type Issue, type IssueSource, issue } from '../../model/plain.js';
import { listSome } from '../../validate/index.js';
import { nonFiniteCounts, quoteValue, shortName } from '../../values/index.js';
import { classifyCell } from './cells.js';
import type { ColumnMeta } from './check-columns.js';
import { type ColumnTally, MAX_OFFENDERS, type Place } from './check-tally.js';

export function valueIssues(col: ColumnMeta & ColumnTally, file: string): Issue[] {
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
  if (col.firstNonFinite) {
    out.push(
      issue(
        'value_not_finite',
        col.path,
        `${label} holds ${nonFiniteCounts(col)}; first at ${placeText(col.firstNonFinite)}: ${quoteValue(col.firstNonFinite.value)}`,
        { source: sourceOf(file, col.firstNonFinite, col.column) },
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

export function listOffenders(offenders: Place[], count: number): string {
  return listSome(
    offenders.map((o) => `${quoteValue(o.value)} at ${placeText(o)}`),
    MAX_OFFENDERS,
    count,
  );
}

export function placeText(p: Place): string {
  return p.row !== undefined ? `row ${p.row} (line ${p.line})` : `byte ${p.offset}`;
}

export function sourceOf(file: string, p: Place, column: number): IssueSource {
  const s: IssueSource = { file, column };
  if (p.row !== undefined) s.row = p.row;
  if (p.line !== undefined) s.line = p.line;
  if (p.row === undefined) s.offset = p.offset;
  return s;
}
