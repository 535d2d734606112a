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

export const TDMS_EPOCH = '1904-01-01T00:00:00Z';

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
export function waveformStartsAtEpoch(c: TdmsChannelProfile): boolean {
  return (
    tdmsProperty(c.properties, 'wf_start_time') === TDMS_EPOCH ||
    tdmsProperty(c.properties, 'NI_ExpIsRelativeTime') === true ||
    tdmsProperty(c.properties, 'NI_ExpIsRelativeTime') === 1
  );
}

/**
 * `tdms_waveform_start_relative` at `ptr` (the config's `startTimeOverride`) for the
 * waveform channels imported (`waveforms`) whose start is not recorded, unless the config
 * sets `startTimeOverride`; the hint proposes the file's start property when it has one.
 */
export function epochStartIssue(
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
  const names = epoch.slice(0, 5).map((c) => `${c.group}/${c.name}`);
  const more = epoch.length > 5 ? ` and ${epoch.length - 5} more` : '';
  return issue(
    'tdms_waveform_start_relative',
    ptr,
    `waveform channels start at the TDMS epoch (1904-01-01) or are marked relative: ${names.join(', ')}${more}`,
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
export function waveformStepIssues(
  waveforms: readonly TdmsChannelProfile[],
  ptr: string,
  file: string,
): Issue[] {
  const zero: string[] = [];
  const negative: string[] = [];
  for (const c of waveforms) {
    const step = tdmsProperty(c.properties, 'wf_increment');
    if (typeof step !== 'number' || step > 0 || (c.valueCount ?? 2) < 2) continue;
    (step === 0 ? zero : negative).push(`${c.group}/${c.name} (${step})`);
  }
  const some = (names: string[]) =>
    `${names.slice(0, 5).join(', ')}${names.length > 5 ? ` and ${names.length - 5} more` : ''}`;
  const out: Issue[] = [];
  const hint =
    'Check the waveform properties the writer set (wf_increment: seconds between samples).';
  if (zero.length > 0)
    out.push(
      issue(
        'time_repeated',
        ptr,
        `waveform channels with wf_increment 0, every value at the same time: ${some(zero)}`,
        { hint, source: { file } },
      ),
    );
  if (negative.length > 0)
    out.push(
      issue(
        'time_decreasing',
        ptr,
        `waveform channels with a negative wf_increment, their times going backwards: ${some(negative)}`,
        { hint, source: { file } },
      ),
    );
  return out;
}

/**
 * The dates of a waveform's first and last samples, in ms: its start (the config's
 * `startTimeOverride`, else `wf_start_time`) plus `wf_start_offset`, and `wf_increment`
 * for each sample after the first, as the platform places them (tdms/rows.ts shows them so);
 * undefined when its properties give no such times.
 */
function waveformSpan(
  c: TdmsChannelProfile,
  startOverride: string | undefined,
): [number, number] | undefined {
  const start = startOverride ?? tdmsProperty(c.properties, 'wf_start_time');
  const step = tdmsProperty(c.properties, 'wf_increment');
  if (typeof start !== 'string' || typeof step !== 'number' || !Number.isFinite(step))
    return undefined;
  const offset = tdmsProperty(c.properties, 'wf_start_offset');
  const first = startMillis(start) + (typeof offset === 'number' ? offset * 1000 : 0);
  if (!Number.isFinite(first)) return undefined;
  const last = first + Math.max(0, (c.valueCount ?? 1) - 1) * step * 1000;
  return first <= last ? [first, last] : [last, first];
}

/**
 * `time_out_of_range` at `ptr` for the waveform channels imported whose samples fall
 * outside the plausible dates; those that start at the epoch without `startTimeOverride`
 * are left to `epochStartIssue`, which says why.
 */
export function waveformRangeIssue(
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
    outside.push(`${c.group}/${c.name} (${describeDate(span[0])} to ${describeDate(span[1])})`);
  }
  if (outside.length === 0) return undefined;
  const more = outside.length > 5 ? ` and ${outside.length - 5} more` : '';
  return issue(
    'time_out_of_range',
    ptr,
    `waveform channels whose times fall outside ${PLAUSIBLE_WORDS}: ${outside.slice(0, 5).join(', ')}${more}`,
    {
      hint: 'Check wf_start_time (or startTimeOverride) and wf_increment (seconds between samples).',
      source: { file },
    },
  );
}
