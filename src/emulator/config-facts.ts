/**
 * The channels a config declares, as the emulator creates them (what a config names in its
 * file, and the time it spans, are its format's `facts` in the format table).
 */
import type { ConfigKind } from '../model/index.js';
import { configChannels } from '../validate/index.js';

export interface NamedChannel {
  name: string;
  dataType?: string;
  units?: string;
  description?: string;
  enumTypes?: Array<{ name?: string; key?: number; isSigned?: boolean }>;
  bitFieldElements?: Array<{ name?: string; index?: number; bitCount?: number }>;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
const arr = (v: unknown): Obj[] =>
  Array.isArray(v) ? v.map(obj).filter((x): x is Obj => !!x) : [];
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

function channel(v: unknown): NamedChannel | undefined {
  const c = obj(v);
  const name = str(c?.name);
  if (!c || !name) return undefined;
  const out: NamedChannel = { name };
  if (str(c.dataType)) out.dataType = c.dataType as string;
  if (str(c.units)) out.units = c.units as string;
  if (str(c.description)) out.description = c.description as string;
  if (Array.isArray(c.enumTypes)) out.enumTypes = arr(c.enumTypes);
  if (Array.isArray(c.bitFieldElements)) out.bitFieldElements = arr(c.bitFieldElements);
  return out;
}

/** The channels a config declares, by name (the validator's walk of a config's channels). */
export function channelsOf(kind: string, config: Obj): NamedChannel[] {
  return configChannels(kind as ConfigKind, config)
    .map(channel)
    .filter((c): c is NamedChannel => !!c);
}
