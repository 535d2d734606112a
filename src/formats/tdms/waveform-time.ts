/**
 * Waveform channels whose times the platform cannot place as meant, judged here for
 * `infer` (its draft) and `check` (any config), so that both say the same:
 * - a start not recorded: `wf_start_time` at TDMS's epoch (1904-01-01), or marked relative
 *   (`NI_ExpIsRelativeTime`). Imported without `startTimeOverride`, the samples land in 1904;
 * - an increment that is not a positive number: each sample's time is the start plus its
 *   index times `wf_increment`, so an increment of 0 puts every sample at one time, and a
 *   negative one makes the times go backwards, as a time channel doing so is judged;
 * - times outside the plausible dates (1971-2100), from the first sample's to the last's,
 *   as a time channel's are judged (`time_out_of_range`).
 */
import type { TdmsConfig } from '../../model/index.js';
import { type Issue, issue } from '../../model/plain.js';
import {
  describeDate,
  MAX_PLAUSIBLE_MS,
  MIN_PLAUSIBLE_MS,
  PLAUSIBLE_WORDS,
  startMillis,
} from '../../values/index.js';
import { type TdmsChannelProfile, type TdmsProperty, tdmsProperty } from './inspect.js';

const TDMS_EPOCH = '1904-01-01T00:00:00Z';

/** A timestamp property that can give a start time (`datetime`, `start_time` ...), not the 1904 epoch. */
export function startProperty(properties: readonly TdmsProperty[]): TdmsProperty | undefined {
  return properties.find(
    (p) =>
      p.type === 'timestamp' &&
      /date|time|start/i.test(p.name) &&
      !/^wf_/.test(p.name) &&
      typeof p.value === 'string' &&
      p.value !== TDMS_EPOCH &&
      !p.value.includes('since 1904'),
  );
}

/** A waveform channel whose start is not recorded (above). */
function waveformStartsAtEpoch(c: TdmsChannelProfile): boolean {
  return (
    tdmsProperty(c.properties, 'wf_start_time') === TDMS_EPOCH ||
    tdmsProperty(c.properties, 'NI_ExpIsRelativeTime') === true ||
    tdmsProperty(c.properties, 'NI_ExpIsRelativeTime') === 1
  );
}

/** Channels as the findings name them: the first five, and how many more. */
export function someChannels(names: readonly string[]): string {
  const shown = names.slice(0, 5).join(', ');
  return names.length > 5 ? `${shown} and ${names.length - 5} more` : shown;
}

const named = (c: TdmsChannelProfile) => `${c.group}/${c.name}`;

/**
 * The findings on the waveform channels a config imports (`waveforms`), in this order:
 * a start not recorded (at `at.start`, the config's `startTimeOverride`), increments not
 * positive and dates outside the plausible ones (at `at.data`).
 */
export function waveformTimeIssues(
  config: Pick<TdmsConfig, 'startTimeOverride'>,
  waveforms: readonly TdmsChannelProfile[],
  fileProperties: readonly TdmsProperty[],
  at: { start: string; data: string },
  file: string,
): Issue[] {
  return [
    epochStartIssue(config, waveforms, fileProperties, at.start, file),
    ...waveformStepIssues(waveforms, at.data, file),
    waveformRangeIssue(config, waveforms, at.data, file),
  ].filter((i): i is Issue => i !== undefined);
}

/**
 * `tdms_waveform_start_relative` at `ptr` (the config's `startTimeOverride`) for the
 * waveform channels imported (`waveforms`) whose start is not recorded, unless the config
 * sets `startTimeOverride`; the hint proposes the file's start property when it has one.
 */
function epochStartIssue(
  config: Pick<TdmsConfig, 'startTimeOverride'>,
  waveforms: readonly TdmsChannelProfile[],
  fileProperties: readonly TdmsProperty[],
  ptr: string,
  file: string,
): Issue | undefined {
  if (config.startTimeOverride !== undefined) return undefined;
  const epoch = waveforms.filter(waveformStartsAtEpoch);
  if (epoch.length === 0) return undefined;
  const start = startProperty(fileProperties);
  return issue(
    'tdms_waveform_start_relative',
    ptr,
    `waveform channels start at the TDMS epoch (1904-01-01) or are marked relative: ${someChannels(epoch.map(named))}`,
    {
      hint:
        start && typeof start.value === 'string'
          ? `Set startTimeOverride: ${start.value} (the file property '${start.name}') if the acquisition started then.`
          : 'Set startTimeOverride to the time the acquisition started.',
      source: { file },
    },
  );
}

/**
 * `time_repeated` for the waveform channels imported (`waveforms`) whose `wf_increment` is
 * 0, `time_decreasing` for those whose increment is negative (one issue each, at `ptr`);
 * a channel of one value or none has no second time to compare.
 */
function waveformStepIssues(
  waveforms: readonly TdmsChannelProfile[],
  ptr: string,
  file: string,
): Issue[] {
  const zero: string[] = [];
  const negative: string[] = [];
  for (const c of waveforms) {
    const step = tdmsProperty(c.properties, 'wf_increment');
    if (typeof step !== 'number' || step > 0 || (c.valueCount ?? 2) < 2) continue;
    (step === 0 ? zero : negative).push(`${named(c)} (${step})`);
  }
  const out: Issue[] = [];
  const hint =
    'Check the waveform properties the writer set (wf_increment: seconds between samples).';
  if (zero.length > 0)
    out.push(
      issue(
        'time_repeated',
        ptr,
        `waveform channels with wf_increment 0, every value at the same time: ${someChannels(zero)}`,
        { hint, source: { file } },
      ),
    );
  if (negative.length > 0)
    out.push(
      issue(
        'time_decreasing',
        ptr,
        `waveform channels with a negative wf_increment, their times going backwards: ${someChannels(negative)}`,
        { hint, source: { file } },
      ),
    );
  return out;
}

/**
 * A waveform channel's timing as the platform places its samples: its start in ms (the
 * config's `startTimeOverride`, else `wf_start_time`, plus `wf_start_offset`) and the ms
 * between samples (`wf_increment`); undefined without those properties. The preview's rows
 * (rows.ts) and the judgement of its dates (below) read it alike.
 */
export function waveformTiming(
  c: TdmsChannelProfile,
  startOverride: string | undefined,
): { startMs: number; stepMs: number } | undefined {
  const start = tdmsProperty(c.properties, 'wf_start_time');
  const increment = tdmsProperty(c.properties, 'wf_increment');
  if (start === undefined || typeof increment !== 'number') return undefined;
  const offset = tdmsProperty(c.properties, 'wf_start_offset');
  const startMs = startMillis(String(startOverride ?? start));
  const offsetMs = typeof offset === 'number' ? offset * 1000 : 0;
  return { startMs: startMs + offsetMs, stepMs: increment * 1000 };
}

/**
 * The dates of a waveform's first and last samples, in ms, in order; undefined when it has
 * no such times (a start that is no timestamp text is not judged).
 */
function waveformSpan(
  c: TdmsChannelProfile,
  startOverride: string | undefined,
): [number, number] | undefined {
  if (typeof (startOverride ?? tdmsProperty(c.properties, 'wf_start_time')) !== 'string')
    return undefined;
  const timing = waveformTiming(c, startOverride);
  if (!timing || !Number.isFinite(timing.startMs) || !Number.isFinite(timing.stepMs))
    return undefined;
  const first = timing.startMs;
  const last = first + Math.max(0, (c.valueCount ?? 1) - 1) * timing.stepMs;
  return first <= last ? [first, last] : [last, first];
}

/**
 * `time_out_of_range` at `ptr` for the waveform channels imported whose samples fall
 * outside the plausible dates; those that start at the epoch without `startTimeOverride`
 * are left to `epochStartIssue`, which says why.
 */
function waveformRangeIssue(
  config: Pick<TdmsConfig, 'startTimeOverride'>,
  waveforms: readonly TdmsChannelProfile[],
  ptr: string,
  file: string,
): Issue | undefined {
  const outside: string[] = [];
  for (const c of waveforms) {
    if (config.startTimeOverride === undefined && waveformStartsAtEpoch(c)) continue;
    const span = waveformSpan(c, config.startTimeOverride);
    if (!span || (span[0] >= MIN_PLAUSIBLE_MS && span[1] < MAX_PLAUSIBLE_MS)) continue;
    outside.push(`${named(c)} (${describeDate(span[0])} to ${describeDate(span[1])})`);
  }
  if (outside.length === 0) return undefined;
  return issue(
    'time_out_of_range',
    ptr,
    `waveform channels whose times fall outside ${PLAUSIBLE_WORDS}: ${someChannels(outside)}`,
    {
      hint: 'Check wf_start_time (or startTimeOverride) and wf_increment (seconds between samples).',
      source: { file },
    },
  );
}
