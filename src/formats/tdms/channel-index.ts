/**
 * A profile's channels looked up by group and name, and each group's timestamp channel:
 * built once, where the plans of the check, the preview and the default entries searched
 * every channel for each entry (a file of 5,000 channels: 25 M comparisons a lookup pass).
 * The check's own index of the entries' names (check.ts) is built on it.
 */
import type { TdmsChannelProfile, TdmsProfile } from './inspect.js';

export interface ChannelIndex {
  /** The first channel of `group` named `name` (a missing group or name is ''). */
  find(group: string | undefined, name: string | undefined): TdmsChannelProfile | undefined;
  /** The name of the first timestamp channel of `group`. */
  stampOf(group: string): string | undefined;
}

export function channelIndex(profile: TdmsProfile): ChannelIndex {
  const byName = new Map<string, TdmsChannelProfile>();
  const stamps = new Map<string, string>();
  for (const c of profile.channels) {
    const k = keyOf(c.group, c.name);
    if (!byName.has(k)) byName.set(k, c);
    if (c.dataType === 'timestamp' && !stamps.has(c.group)) stamps.set(c.group, c.name);
  }
  return {
    find: (group, name) => byName.get(keyOf(group ?? '', name ?? '')),
    stampOf: (group) => stamps.get(group),
  };
}

function keyOf(group: string, name: string): string {
  return `${group}\u0000${name}`;
}
