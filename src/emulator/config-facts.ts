/**
 * The channels a config declares, as the emulator creates them (what a config names in its
 * file, and the time it spans, are its format's `facts` in the format table).
 */
import type { ConfigKind } from '../model/index.js';
import { type JsonObject, jsonObject, jsonObjects, jsonText } from '../model/plain.js';
import { configChannels } from '../validate/index.js';

export interface NamedChannel {
  name: string;
  dataType?: string;
  units?: string;
  description?: string;
  enumTypes?: Array<{ name?: string; key?: number; isSigned?: boolean }>;
  bitFieldElements?: Array<{ name?: string; index?: number; bitCount?: number }>;
}

function channel(v: unknown): NamedChannel | undefined {
  const c = jsonObject(v);
  const name = jsonText(c?.name);
  if (!c || !name) return undefined;
  const out: NamedChannel = { name };
  if (jsonText(c.dataType)) out.dataType = c.dataType as string;
  if (jsonText(c.units)) out.units = c.units as string;
  if (jsonText(c.description)) out.description = c.description as string;
  if (Array.isArray(c.enumTypes)) out.enumTypes = jsonObjects(c.enumTypes);
  if (Array.isArray(c.bitFieldElements)) out.bitFieldElements = jsonObjects(c.bitFieldElements);
  return out;
}

/** The channels a config declares, by name (the validator's walk of a config's channels). */
export function channelsOf(kind: string, config: JsonObject): NamedChannel[] {
  return configChannels(kind as ConfigKind, config)
    .map(channel)
    .filter((c): c is NamedChannel => !!c);
}
