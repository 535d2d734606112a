/**
 * The time axis as the config reads it, in words: first and last time, duration, median
 * step and rate, and the findings that make it wrong (a time before 1990 or after 2100, a
 * step that does not fit the declared unit, backwards steps, times that do not parse, and
 * the check's own findings about time), each marked bad.
 */
import type { TimeFormat } from '../model/index.js';
import type { Issue } from '../model/plain.js';
import type { TimeStats } from './stats.js';

export interface Finding {
  text: string;
  bad: boolean;
  /** The issue code it comes from, when it is the check's. */
  code?: string;
}

export interface TimeView {
  format: string;
  first: number;
  last: number;
  /** Smallest and largest time read (the plots' range). */
  min: number;
  max: number;
  medianStep: number | undefined;
  findings: Finding[];
  /** True when `first` / `last` fall outside 1990-2100. */
  firstBad: boolean;
  lastBad: boolean;
}

const MIN_MS = Date.UTC(1990, 0, 1);
const MAX_MS = Date.UTC(2100, 0, 1);
const DAY_MS = 86_400_000;

/** Issues about time: the check's time codes and anything pointing at the time settings. */
function isTimeIssue(i: Issue): boolean {
  return (
    i.code.startsWith('time_') ||
    /\/(timeColumn|timeFormat|relativeStartTime|timeDataset|timeIndex|timeField)(\/|$)/.test(i.path)
  );
}

export function timeFindings(
  stats: TimeStats,
  format: TimeFormat | undefined,
  relativeStartTime: string | undefined,
  issues: readonly Issue[],
): TimeView {
  const findings: Finding[] = [];
  const short = format?.replace(/^TIME_FORMAT_/, '') ?? 'not declared';
  const parsed = stats.rows - stats.unparseable;
  if (stats.unparseable > 0) {
    findings.push({
      bad: true,
      text: `${stats.unparseable} of ${stats.rows} times read do not parse as ${short}`,
    });
  }
  const relative = format?.startsWith('TIME_FORMAT_RELATIVE_') === true;
  if (parsed > 0 && stats.min < MIN_MS) {
    findings.push({
      bad: true,
      text:
        relative && !relativeStartTime
          ? `times start in ${isoTime(stats.min).slice(0, 4)}: relativeStartTime is not set, so relative times count from 1970`
          : `the earliest time, ${isoTime(stats.min)}, is before 1990`,
    });
  }
  if (parsed > 0 && stats.max >= MAX_MS) {
    findings.push({ bad: true, text: `the latest time, ${isoTime(stats.max)}, is after 2100` });
  }
  const step = stats.medianStep();
  if (step !== undefined && (step >= DAY_MS || (step > 0 && step < 1e-6))) {
    findings.push({
      bad: true,
      text: `the median step is ${duration(step)}: it does not fit ${short} samples; is the unit right?`,
    });
  }
  if (stats.backwards > 0) {
    findings.push({
      bad: true,
      text: `time goes backwards ${stats.backwards} time${stats.backwards === 1 ? '' : 's'} in the rows read (first to ${isoTime(stats.firstBackwards)})`,
    });
  }
  for (const i of issues.filter(isTimeIssue)) {
    findings.push({ bad: i.severity !== 'info', text: i.message, code: i.code });
  }
  if (!findings.some((f) => f.bad) && parsed > 0) {
    findings.push({ bad: false, text: 'times parse, go forward and fall between 1990 and 2100' });
  }
  return {
    format: short,
    first: stats.first,
    last: stats.last,
    min: stats.min,
    max: stats.max,
    medianStep: step,
    findings,
    firstBad: !(stats.first >= MIN_MS && stats.first < MAX_MS),
    lastBad: !(stats.last >= MIN_MS && stats.last < MAX_MS),
  };
}

/** A time as RFC 3339 UTC with milliseconds, or `-` when it is not a date. */
export function isoTime(ms: number): string {
  if (!Number.isFinite(ms)) return '-';
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? '-' : d.toISOString();
}

/** A duration in the largest unit that keeps it readable (`1.5 ms`, `2 h 3 min`, `12.3 d`). */
export function duration(ms: number): string {
  const a = Math.abs(ms);
  const fixed = (v: number) => String(Number(v.toPrecision(4)));
  if (a === 0) return '0 s';
  if (a < 1e-3) return `${fixed(ms * 1e6)} ns`;
  if (a < 1) return `${fixed(ms * 1e3)} µs`;
  if (a < 1000) return `${fixed(ms)} ms`;
  if (a < 60_000) return `${fixed(ms / 1000)} s`;
  if (a < 3_600_000) return `${fixed(ms / 60_000)} min`;
  if (a < DAY_MS) return `${fixed(ms / 3_600_000)} h`;
  if (a < 365.25 * DAY_MS) return `${fixed(ms / DAY_MS)} d`;
  return `${fixed(ms / (365.25 * DAY_MS))} years`;
}

/** Samples per second for a step, in Hz/kHz/MHz. */
export function rate(stepMs: number | undefined): string {
  if (stepMs === undefined || stepMs <= 0) return '-';
  const hz = 1000 / stepMs;
  const fixed = (v: number) => String(Number(v.toPrecision(4)));
  if (hz >= 1e6) return `${fixed(hz / 1e6)} MHz`;
  if (hz >= 1e3) return `${fixed(hz / 1e3)} kHz`;
  return `${fixed(hz)} Hz`;
}
