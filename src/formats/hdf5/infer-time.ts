/**
 * The time of an HDF5 draft: what each time source (a 1-D dataset, a column, a member)
 * says of its format, from its units (CF "<unit> since <date>" or a bare unit), its type or
 * its values; one format for the file by vote; and a relative format's start.
 */

import type { Confidence, Evidence } from '../../infer/shared.js';
import {
  relativeFormatFromUnit,
  startTimeFromFileName,
  unitFromName,
  unixFormatOfUnit,
  unixUnitFromMagnitude,
  unixUnitStands,
} from '../../infer/shared.js';
import { type TimeFormat, Timestamp } from '../../model/index.js';
import { DATETIME_TEXT, type Issue, RFC3339_TEXT } from '../../model/plain.js';
import { stringAttribute, UNIT_ATTRIBUTES } from './infer-datasets.js';
import { type Findings, P } from './infer-findings.js';
import type { Hdf5Dataset, Hdf5Type } from './inspect.js';

/** One place time is read from: a 1-D dataset, a column of an [N, k] dataset, or a member. */
export interface TimeSource {
  dataset: Hdf5Dataset;
  column?: number;
  member?: string;
}

interface TimeFacts {
  format?: TimeFormat;
  start?: string;
  reason: string;
  confidence: Confidence;
  /** A warning to report when this source decides the format. */
  warning?: { code: Issue['code']; message: string; hint: string };
}

function sourceKey(s: TimeSource): string {
  if (s.member !== undefined) return `${s.dataset.path}.${s.member}`;
  if (s.column !== undefined) return `${s.dataset.path}[:, ${s.column}]`;
  return s.dataset.path;
}

function sampleValues(s: TimeSource): string[] {
  const rows = [...(s.dataset.head ?? []), ...(s.dataset.tail ?? [])];
  let index = 0;
  if (s.column !== undefined) index = s.column;
  if (s.member !== undefined) {
    index = Math.max(
      0,
      (s.dataset.type.members ?? []).findIndex((m) => m.name === s.member),
    );
  }
  return rows.map((r) => r[index]).filter((v): v is string => v !== undefined);
}

function sourceType(s: TimeSource): Hdf5Type {
  if (s.member !== undefined) {
    return s.dataset.type.members?.find((m) => m.name === s.member)?.type ?? s.dataset.type;
  }
  return s.dataset.type;
}

const CF_UNITS = /^\s*([A-Za-zµμ]+)\s+since\s+(.+?)\s*$/i;

/**
 * The date of CF units (`seconds since 2024-01-02 03:04:05`) as RFC 3339; a date without a
 * zone is UTC (as CF reads it). Undefined when it is not a date.
 */
export function cfDate(text: string): { rfc3339: string; zoneGiven: boolean } | undefined {
  const m =
    /^(\d{1,4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{1,2})(?::(\d{1,2})(\.\d+)?)?)?\s*(Z|UTC|GMT|[+-]\d{1,2}(?::?\d{2})?)?$/i.exec(
      text.trim(),
    );
  if (!m) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone] = m;
  const pad = (v: string | undefined, n = 2) => (v ?? '0').padStart(n, '0');
  let z = 'Z';
  if (zone && !/^(Z|UTC|GMT)$/i.test(zone)) {
    const zm = /^([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(zone);
    if (!zm) return undefined;
    z = `${zm[1]}${pad(zm[2])}:${zm[3] ?? '00'}`;
  }
  const rfc3339 = `${pad(y, 4)}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}${frac}${z}`;
  if (!Timestamp.safeParse(rfc3339).success) return undefined;
  return { rfc3339, zoneGiven: zone !== undefined };
}

function isEpoch(rfc3339: string): boolean {
  return Date.parse(rfc3339) === 0;
}

/** What one time source says about the format, from its units, its type or its values. */
export function timeFactsOf(s: TimeSource): TimeFacts {
  const values = sampleValues(s);
  const label = sourceKey(s);
  const plain = s.column === undefined && s.member === undefined;
  const units = plain ? stringAttribute(s.dataset, UNIT_ATTRIBUTES) : undefined;
  if (sourceType(s).class === 'string') return textTimeFacts(label, values);
  const byUnits = units ? unitsTimeFacts(label, units.value, values) : undefined;
  if (byUnits) return byUnits;
  const fromName = unitFromName(s.member ?? s.dataset.name);
  if (values.length > 0) {
    const guess = unixUnitFromMagnitude(values);
    if (guess && unixUnitStands(guess, fromName)) {
      return {
        format: guess.format,
        reason: `${label}: first and last values ${values[0]} … ${values.at(-1)}: ${guess.reason}`,
        confidence: units ? 'medium' : 'high',
      };
    }
  }
  if (fromName) {
    return {
      format: fromName.format,
      reason: `${label}: the name says ${fromName.unit}, and in that unit the values are not unix times in a plausible range: relative`,
      confidence: 'medium',
    };
  }
  return {
    format: 'TIME_FORMAT_RELATIVE_SECONDS',
    reason: `${label}: no units and the values${values.length > 0 ? ` (${values[0]} … ${values.at(-1)})` : ''} are not unix times in a plausible range: guessed relative seconds`,
    confidence: 'low',
    warning: {
      code: 'hdf5_time_format_guessed',
      message: `${label}: no units and not unix times; relative seconds guessed`,
      hint: 'Check the time format (the `timeFormat` option) and give a start time (`relativeStartTime`).',
    },
  };
}

/** Text time: RFC 3339, or date-time text without a zone; else no format. */
function textTimeFacts(label: string, values: string[]): TimeFacts {
  if (values.length > 0 && values.every((v) => RFC3339_TEXT.test(v.trim()))) {
    return {
      format: 'TIME_FORMAT_ABSOLUTE_RFC3339',
      reason: `${label} holds RFC 3339 text (${values[0]})`,
      confidence: 'high',
    };
  }
  if (values.length > 0 && values.every((v) => DATETIME_TEXT.test(v.trim()))) {
    return {
      format: 'TIME_FORMAT_ABSOLUTE_DATETIME',
      reason: `${label} holds date-time text without a zone (${values[0]})`,
      confidence: 'medium',
    };
  }
  return {
    reason: `${label} holds text that is not a date-time${values[0] ? ` (${values[0]})` : ''}`,
    confidence: 'low',
  };
}

/** What a units attribute says: CF “<unit> since <date>”, or a bare unit; undefined when neither. */
function unitsTimeFacts(label: string, units: string, values: string[]): TimeFacts | undefined {
  const cf = CF_UNITS.exec(units);
  if (cf) {
    const byCf = cfTimeFacts(label, units, cf[1] ?? '', cf[2] ?? '');
    if (byCf) return byCf;
  }
  const bare = relativeFormatFromUnit(units);
  if (!bare) return undefined;
  const unix = unixFormatOfUnit(bare);
  const byMagnitude = values.length > 0 ? unixUnitFromMagnitude(values) : undefined;
  if (unix && byMagnitude?.format === unix) {
    return {
      format: unix,
      reason: `${label} has units "${units}" and its values read as unix ${units} fall in a plausible date range`,
      confidence: 'high',
    };
  }
  return {
    format: bare,
    reason: `${label} has units "${units}" and its values are not unix times: relative`,
    confidence: 'medium',
  };
}

/** CF units: a unix format when counted from the epoch, else relative with its start. */
function cfTimeFacts(
  label: string,
  units: string,
  unit: string,
  since: string,
): TimeFacts | undefined {
  const relative = relativeFormatFromUnit(unit);
  const date = cfDate(since);
  if (!relative) {
    return {
      reason: `${label} has units "${units}": ${unit} is no unit of a time format`,
      confidence: 'low',
      warning: {
        code: 'hdf5_time_unit_unsupported',
        message: `${label}: units "${units}" name a unit the platform has no time format for`,
        hint: 'Convert the times to seconds or a smaller unit, or set the `timeFormat` option.',
      },
    };
  }
  if (!date) return undefined;
  const unix = unixFormatOfUnit(relative);
  const utcNote = date.zoneGiven ? '' : ' (no zone given: read as UTC, as CF does)';
  if (unix && isEpoch(date.rfc3339)) {
    return {
      format: unix,
      reason: `${label} has CF units "${units}": ${unit} since the unix epoch${utcNote}`,
      confidence: 'high',
    };
  }
  return {
    format: relative,
    start: date.rfc3339,
    reason: `${label} has CF units "${units}": ${unit} since ${date.rfc3339}${utcNote}`,
    confidence: 'high',
  };
}

export function isIncreasing(values: string[]): boolean {
  const nums = values.map(Number);
  if (nums.some((n) => !Number.isFinite(n))) return false;
  for (let i = 1; i < nums.length; i++) if ((nums[i] ?? 0) < (nums[i - 1] ?? 0)) return false;
  return true;
}

interface FormatChoice {
  timeFormat: TimeFormat | undefined;
  /** The start a relative format's CF units give (“… since <date>”). */
  start: string | undefined;
  evidence: Evidence | undefined;
}

/**
 * One time format for the file: the one given, else the one the time sources suggest for
 * the most channels (with a warning when they differ).
 */
export function chooseTimeFormat(
  planned: ReadonlyArray<{ time: TimeSource }>,
  forced: TimeFormat | undefined,
  out: Findings,
): FormatChoice {
  if (forced) {
    return {
      timeFormat: forced,
      start: undefined,
      evidence: {
        path: `${P}/timeFormat`,
        choice: forced,
        reason: 'given as an option (`timeFormat`)',
        confidence: 'high',
      },
    };
  }
  // Each time source once, weighed by the channels it times.
  const sources = new Map<string, { source: TimeSource; channels: number }>();
  for (const p of planned) {
    const key = sourceKey(p.time);
    const seen = sources.get(key);
    if (seen) seen.channels += 1;
    else sources.set(key, { source: p.time, channels: 1 });
  }
  const facts = [...sources.values()].map((s) => ({ ...s, facts: timeFactsOf(s.source) }));
  const choice = formatByVote(facts, out);
  for (const f of facts) {
    if (f.facts.format === undefined && f.facts.warning) {
      out.issue(f.facts.warning.code, `${P}/timeFormat`, f.facts.warning.message, {
        hint: f.facts.warning.hint,
        dataset: f.source.dataset.path,
      });
    }
  }
  return choice;
}

/**
 * The format the decided time sources suggest for the most channels (the channels of the
 * others are left out: infer.ts, fitToFormat); the others become alternatives.
 */
function formatByVote(
  facts: Array<{ source: TimeSource; channels: number; facts: TimeFacts }>,
  out: Findings,
): FormatChoice {
  const decided = facts.filter((f) => f.facts.format !== undefined);
  const counts = new Map<TimeFormat, number>();
  for (const f of decided) {
    const fmt = f.facts.format as TimeFormat;
    counts.set(fmt, (counts.get(fmt) ?? 0) + f.channels);
  }
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  const top = ranked[0]?.[0];
  const chosen = decided.find((f) => f.facts.format === top);
  if (!chosen || !top) return { timeFormat: undefined, start: undefined, evidence: undefined };
  const others = ranked.slice(1);
  const evidence: Evidence = {
    path: `${P}/timeFormat`,
    choice: top,
    reason: chosen.facts.reason,
    confidence: others.length > 0 ? 'low' : chosen.facts.confidence,
    ...(others.length > 0
      ? {
          alternatives: decided
            .filter((f) => f.facts.format !== top)
            .map((f) => `${f.facts.format}: ${f.facts.reason}`),
        }
      : {}),
  };
  if (chosen.facts.warning) {
    out.issue(chosen.facts.warning.code, `${P}/timeFormat`, chosen.facts.warning.message, {
      hint: chosen.facts.warning.hint,
      dataset: chosen.source.dataset.path,
    });
  }
  if (others.length > 0) {
    out.issue(
      'hdf5_time_formats_differ',
      `${P}/timeFormat`,
      `the time datasets suggest different formats: ${ranked.map(([f, n]) => `${f} (${n === 1 ? '1 channel' : `${n} channels`})`).join(', ')}; ${top} was chosen, for the most channels`,
      { hint: 'Check each time dataset; import those of another format separately.' },
    );
  }
  return { timeFormat: top, start: chosen.facts.start, evidence };
}

/** A relative format's start: given, else from the CF units, else a date in the file name. */
export function chooseRelativeStart(
  timeFormat: TimeFormat | undefined,
  given: string | undefined,
  fromUnits: string | undefined,
  file: string,
): { relativeStartTime: string | undefined; evidence: Evidence | undefined } {
  const none = { relativeStartTime: undefined, evidence: undefined };
  if (!timeFormat?.startsWith('TIME_FORMAT_RELATIVE_')) return none;
  const at = `${P}/relativeStartTime`;
  if (given) {
    const reason = 'given as an option (`relativeStartTime`)';
    return {
      relativeStartTime: given,
      evidence: { path: at, choice: given, reason, confidence: 'high' },
    };
  }
  if (fromUnits) {
    const reason = 'the date in the time dataset’s CF units (“… since <date>”)';
    return {
      relativeStartTime: fromUnits,
      evidence: { path: at, choice: fromUnits, reason, confidence: 'high' },
    };
  }
  const fromName = startTimeFromFileName(file);
  if (!fromName) return none;
  return {
    relativeStartTime: fromName,
    evidence: {
      path: at,
      choice: fromName,
      reason: 'a date in the file name',
      confidence: 'medium',
    },
  };
}

export function timeLabel(t: TimeSource): string {
  if (t.member !== undefined) return `${t.dataset.path} member ${t.member}`;
  if (t.column !== undefined) return `${t.dataset.path} column ${t.column}`;
  return t.dataset.path;
}
