/**
 * A TdmsConfig whose `data` is empty imports every channel of the file. What such a config
 * cannot time is judged here, for `check` (a config written so) and for `infer` (a draft
 * that found no channel to list, and so lists none), so that both say the same.
 */
import { type Issue, issue } from '../../model/plain.js';
import { listSome } from '../../validate/index.js';
import { type TdmsChannelProfile, type TdmsProfile, tdmsProperty } from './inspect.js';

/** A channel timed by its own waveform properties. */
export function isWaveform(c: TdmsChannelProfile): boolean {
  return (
    tdmsProperty(c.properties, 'wf_start_time') !== undefined &&
    tdmsProperty(c.properties, 'wf_increment') !== undefined
  );
}

/**
 * The channels an empty `data` imports that nothing times: neither a waveform nor in a
 * group with a timestamp channel. A channel without data imports nothing (as the values
 * read for `check --full` leave it out).
 */
function untimedChannels(profile: TdmsProfile): TdmsChannelProfile[] {
  const groupsWithTime = new Set(
    profile.channels.filter((c) => c.dataType === 'timestamp').map((c) => c.group),
  );
  return profile.channels.filter(
    (c) =>
      c.dataType !== 'none' &&
      c.dataType !== 'timestamp' &&
      !isWaveform(c) &&
      !groupsWithTime.has(c.group),
  );
}

/**
 * `tdms_waveform_missing` at `ptr` (the config's `data`) when an empty `data` imports
 * channels nothing times and the fallback fails the import on them; else undefined.
 */
export function everythingIssue(
  profile: TdmsProfile,
  fallbackMethod: string | undefined,
  ptr: string,
  file: string,
): Issue | undefined {
  if (fallbackMethod === 'TDMS_FALLBACK_METHOD_IGNORE_ERROR') return undefined;
  const untimed = untimedChannels(profile);
  if (untimed.length === 0) return undefined;
  return issue(
    'tdms_waveform_missing',
    ptr,
    `data is empty, so every channel is imported, but ${listSome(
      untimed.map((c) => `'${c.group}/${c.name}'`),
      3,
    )} ${untimed.length === 1 ? 'has' : 'have'} no time channel and no waveform properties`,
    {
      hint: 'Set fallbackMethod: TDMS_FALLBACK_METHOD_IGNORE_ERROR to skip them, or list the channels to import.',
      source: { file },
    },
  );
}
