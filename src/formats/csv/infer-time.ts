/**
 * Choosing the time column of a CSV draft: what each column's values say about time, the
 * columns scored as candidates, the one the options name or the best; and why none is
 * (a date and a time of day split in two, AM/PM or zone names), or what its cells lack.
 */
import type { Confidence, InferOptions } from '../../infer/shared.js';
import {
  relativeFormatFromUnit,
  relativeUnitFromSpacing,
  type TimeGuess,
  timeNameScore,
  unitFromName,
  unixUnitFromMagnitude,
  unixUnitStands,
} from '../../infer/shared.js';
import { type Issue, issue, pointer, pushAll } from '../../model/plain.js';
import { didYouMean, suggestClosest } from '../../validate/index.js';
import { CSV, normalizeHint, rowSource } from './infer-evidence.js';
import type { CsvFieldProfile } from './profile.js';

/** A time-column candidate with its score and the format its values say. */
export interface TimeCandidate {
  column: number;
  name: string;
  score: number;
  guess?: TimeGuess;
  reasons: string[];
}

export function isNumericType(t: string): boolean {
  return t === 'DOUBLE' || t === 'INT_32' || t === 'INT_64' || t === 'UINT_64';
}

/** What a column's values say about time, without looking at the name beyond its unit. */
export function timeGuessOfValues(f: CsvFieldProfile, nameScore: number): TimeGuess | undefined {
  switch (f.logicalType) {
    case 'rfc3339':
      return {
        format: 'TIME_FORMAT_ABSOLUTE_RFC3339',
        reason: 'every value is an ISO 8601 date and time with a zone',
        confidence: 'high',
      };
    case 'datetime':
      return {
        format: 'TIME_FORMAT_ABSOLUTE_DATETIME',
        reason: 'every value is an ISO-like date and time without a zone (read as UTC)',
        confidence: 'high',
      };
    case 'date_dmy':
    case 'date_mdy':
    case 'date_ambiguous':
      return {
        format: 'TIME_FORMAT_ABSOLUTE_DATETIME',
        reason: `the values are dates written ${f.logicalType === 'date_dmy' ? 'day-first' : f.logicalType === 'date_mdy' ? 'month-first' : 'day-first or month-first (cannot tell)'}, not ISO`,
        confidence: 'low',
      };
    case 'mixed':
      return undefined;
  }
  if (!isNumericType(f.physicalType) || !f.stats) return undefined;
  const min = String(f.stats.min);
  const max = String(f.stats.max);
  const unix = unixUnitFromMagnitude([min, max]);
  const named = unitFromName(f.header ?? f.name);
  const unitFromUnits = f.units !== undefined ? relativeFormatFromUnit(f.units) : undefined;
  if (unix && unixUnitStands(unix, named)) return unix;
  if (Number(min) < 0 || nameScore === 0) return undefined;
  const first = Number(f.first ?? min);
  const span = Number(max) - Number(min);
  const nearZero = first <= Math.max(1, span * 0.05);
  if (named) {
    return {
      format: named.format,
      reason: `numbers from ${min} to ${max}${nearZero ? ', starting near zero' : ''}; the unit '${named.unit}' is in the name`,
      confidence: nearZero ? 'high' : 'medium',
    };
  }
  if (unitFromUnits) {
    return {
      format: unitFromUnits,
      reason: `numbers from ${min} to ${max}; the units are '${f.units}'`,
      confidence: nearZero ? 'high' : 'medium',
    };
  }
  if (!nearZero) return undefined;
  return relativeUnitFromSpacing(f.numericHead ?? []);
}

/** Scores every column as the time column: its name, whether its values parse, whether they increase. */
export function scoreTimeColumns(fields: readonly CsvFieldProfile[]): TimeCandidate[] {
  const out: TimeCandidate[] = [];
  for (const f of fields) {
    const nameScore = timeNameScore(f.header ?? '');
    const guess = timeGuessOfValues(f, nameScore);
    const reasons: string[] = [];
    let score = 0;
    if (nameScore > 0) {
      score += 2 * nameScore;
      reasons.push(`the name '${f.header}' ${nameScore >= 1 ? 'means time' : 'suggests time'}`);
    }
    if (guess) {
      const valueScore =
        guess.confidence === 'high' ? 1 : guess.confidence === 'medium' ? 0.8 : 0.5;
      score += 2 * valueScore;
      reasons.push(guess.reason);
      if (f.increasing) {
        score += 0.5;
        reasons.push('the values increase');
      } else {
        score -= 0.5;
        reasons.push(`the values go backwards (${f.firstDecrease ?? 'somewhere'})`);
      }
    } else if (f.logicalType === 'mixed') {
      score += 0.5;
      reasons.push('some values are dates or times, others not');
    }
    // A time column needs values that parse as time; numbers with no time name must increase.
    const usable =
      guess !== undefined && (nameScore > 0 || !isNumericType(f.physicalType) || f.increasing);
    if (usable || (f.logicalType === 'mixed' && nameScore > 0))
      out.push({ column: f.column, name: f.name, score, ...(guess ? { guess } : {}), reasons });
  }
  return out.sort((a, b) => b.score - a.score || a.column - b.column);
}

export interface TimeChoice {
  field: CsvFieldProfile;
  reason: string;
  confidence: Confidence;
  alternatives?: string[];
}

/** The time column: the one the options name, else the best-scored candidate. */
export function chooseTimeColumn(
  fields: readonly CsvFieldProfile[],
  options: InferOptions,
  file: string,
  issues: Issue[],
): TimeChoice | undefined {
  if (options.timeColumn !== undefined) {
    return givenTimeColumn(fields, options.timeColumn, file, issues);
  }
  // A date and a time of day in two columns: neither alone is the time (a date column
  // would otherwise win as a day-resolution time).
  const split = splitTimeIssue(fields, file);
  if (split) {
    issues.push(split);
    return undefined;
  }
  const candidates = scoreTimeColumns(fields);
  const best = candidates[0];
  if (!best?.guess) {
    pushAll(issues, noTimeColumnIssues(fields, best, file));
    return undefined;
  }
  return bestTimeColumn(fields, candidates, best, file, issues);
}

type Candidate = ReturnType<typeof scoreTimeColumns>[number];

/** The column the `timeColumn` option names, by 1-based number or by header name. */
function givenTimeColumn(
  fields: readonly CsvFieldProfile[],
  given: string | number,
  file: string,
  issues: Issue[],
): TimeChoice | undefined {
  const asNumber =
    typeof given === 'number' ? given : /^\d+$/.test(given) ? Number(given) : undefined;
  const field =
    asNumber !== undefined
      ? fields.find((f) => f.column === asNumber)
      : (fields.find((f) => f.name === given || f.header === given) ??
        fields.find((f) => f.name.toLowerCase() === String(given).toLowerCase()));
  if (field) return { field, reason: 'as given', confidence: 'high' };
  const near =
    asNumber === undefined
      ? suggestClosest(
          String(given),
          fields.map((f) => f.name),
        )
      : undefined;
  issues.push(
    issue(
      'infer_time_column_unknown',
      pointer(CSV, 'timeColumn', 'columnNumber'),
      `${file}: the time column '${given}' is not in the file (columns: ${fields
        .slice(0, 12)
        .map((f) => `${f.column} ${f.name}`)
        .join(', ')}${fields.length > 12 ? ' ...' : ''})`,
      {
        // The message lists the columns; a name near one is a likely misspelling.
        hint: near ? didYouMean(near) : 'Give a 1-based column number or a header name.',
      },
    ),
  );
  return undefined;
}

/** Why no column is the time: a telling shape, else none found (and mixed values, if so). */
function noTimeColumnIssues(
  fields: readonly CsvFieldProfile[],
  best: Candidate | undefined,
  file: string,
): Issue[] {
  const shaped = timeShapeIssue(fields, file);
  if (shaped) return [shaped];
  const mixed = best && fields.find((f) => f.column === best.column);
  const out = [
    issue(
      'infer_time_column_not_found',
      pointer(CSV, 'timeColumn'),
      mixed
        ? `${file}: column ${mixed.column} (${mixed.name}) is named like time but its values are not all times`
        : `${file}: no column looks like time (by name or by values that parse as times)`,
      { hint: 'Set the `timeColumn` and `timeFormat` options.' },
    ),
  ];
  if (mixed)
    out.push(
      issue(
        'infer_time_formats_mixed',
        pointer(CSV, 'timeColumn'),
        `${file}: column ${mixed.column} (${mixed.name}) mixes ${Object.keys(mixed.kinds).join(', ')} values`,
      ),
    );
  return out;
}

/** The best-scored candidate, its confidence lowered when the runner-up is as good. */
function bestTimeColumn(
  fields: readonly CsvFieldProfile[],
  candidates: readonly Candidate[],
  best: Candidate,
  file: string,
  issues: Issue[],
): TimeChoice {
  const field = fields.find((f) => f.column === best.column) as CsvFieldProfile;
  const alternatives = candidates
    .slice(1, 4)
    .map(
      (c) => `column ${c.column} (${c.name}): score ${c.score.toFixed(1)}, ${c.reasons.join(', ')}`,
    );
  const second = candidates[1];
  let confidence: Confidence = best.score >= 4 ? 'high' : best.score >= 2.5 ? 'medium' : 'low';
  if (second?.guess && second.score >= best.score - 0.25) {
    confidence = 'low';
    issues.push(
      issue(
        'infer_time_column_ambiguous',
        pointer(CSV, 'timeColumn', 'columnNumber'),
        `${file}: columns ${best.column} (${best.name}) and ${second.column} (${second.name}) could both be the time column; chose ${best.column}`,
        { hint: 'Set the `timeColumn` option to choose.' },
      ),
    );
  }
  return {
    field,
    reason: `score ${best.score.toFixed(1)}: ${best.reasons.join(', ')}`,
    confidence,
    alternatives,
  };
}

/** Empty or unparsable cells in the chosen time column: the import fails on those rows. */
export function timeCellIssues(f: CsvFieldProfile, file: string): Issue[] {
  const out: Issue[] = [];
  const path = pointer(CSV, 'timeColumn', 'columnNumber');
  if (f.nullCount > 0 && f.valueCount > 0)
    out.push(
      issue(
        'csv_time_empty',
        path,
        `${file}: ${f.nullCount} cell(s) of the time column ${f.column} (${f.name}) are empty (first: ${(f.emptyAt ?? []).join(', ') || 'in a later part of the file'}); the import fails on those rows`,
        {
          hint: 'Fill in or remove those rows, or choose another time column.',
          source: { file, column: f.column, ...rowSource(f.emptyAt?.[0]) },
        },
      ),
    );
  if (f.stray)
    out.push(
      issue(
        'csv_time_unparsable',
        pointer(CSV, 'timeColumn', 'format'),
        `${file}: ${f.stray.count} cell(s) of the time column ${f.column} (${f.name}) are not times (first: '${f.stray.value}' at ${f.stray.where}); the import fails on those rows`,
        {
          hint: 'Fix or remove those rows.',
          source: { file, column: f.column, ...rowSource(f.stray.where) },
        },
      ),
    );
  return out;
}

/** A column whose cells are mostly of one text shape (`date_only`, `time_ampm` ...). */
function shapedColumn(
  fields: readonly CsvFieldProfile[],
  shape: NonNullable<keyof NonNullable<CsvFieldProfile['textShapes']>>,
): CsvFieldProfile | undefined {
  return fields.find((f) => {
    const seen = f.textShapes?.[shape];
    return seen !== undefined && seen.count * 2 > f.valueCount;
  });
}

/** A date column and a time-of-day column: the platform reads one column holding both. */
function splitTimeIssue(fields: readonly CsvFieldProfile[], file: string): Issue | undefined {
  const date =
    shapedColumn(fields, 'date_only') ??
    fields.find(
      (f) => f.logicalType?.startsWith('date_') && f.samples.every((v) => !v.includes(':')),
    );
  const clock = shapedColumn(fields, 'time_of_day');
  if (!date || !clock) return undefined;
  return issue(
    'csv_time_split_columns',
    pointer(CSV, 'timeColumn'),
    `${file}: the date is in column ${date.column} (${date.name}, '${date.first ?? ''}') and the time of day in column ${clock.column} (${clock.name}, '${clock.first ?? ''}'); the platform reads one time column`,
    {
      hint: `${normalizeHint(file)} (joins them into one RFC 3339 column; pass --timezone for local times)`,
      source: { file, column: date.column },
    },
  );
}

/** Times written in shapes the platform cannot read: AM/PM, zone names. */
function timeShapeIssue(fields: readonly CsvFieldProfile[], file: string): Issue | undefined {
  const path = pointer(CSV, 'timeColumn');
  const hint = normalizeHint(file);
  const ampm = shapedColumn(fields, 'time_ampm');
  if (ampm)
    return issue(
      'csv_time_ampm',
      path,
      `${file}: column ${ampm.column} (${ampm.name}) writes times with AM/PM ('${ampm.textShapes?.time_ampm?.value}' at ${ampm.textShapes?.time_ampm?.where}); the platform reads 24-hour times`,
      {
        hint,
        source: { file, column: ampm.column, ...rowSource(ampm.textShapes?.time_ampm?.where) },
      },
    );
  const zoned = shapedColumn(fields, 'time_zone_name');
  if (zoned)
    return issue(
      'csv_time_zone_name',
      path,
      `${file}: column ${zoned.column} (${zoned.name}) writes times with a zone name ('${zoned.textShapes?.time_zone_name?.value}' at ${zoned.textShapes?.time_zone_name?.where}); the platform reads offsets (+01:00, Z) only`,
      {
        hint,
        source: {
          file,
          column: zoned.column,
          ...rowSource(zoned.textShapes?.time_zone_name?.where),
        },
      },
    );
  return undefined;
}
