import {
  BATCH_FILE_KINDS,
  CONFIG_KIND_KEYS,
  DATA_TYPE_KEY_KIND,
  type Issue,
  issue,
} from '../../model/plain.js';
import {
  BATCH_DEFAULT_KEYS,
  type ChannelAt,
  type ConfigAt,
  channelsOf,
  given,
  join,
  obj,
  type Rule,
} from './_walk.js';

/** A channel as one listed file writes it into the batch's asset. */
interface Written {
  file: string;
  at: ChannelAt;
}

/**
 * The config a listed file is read with: its own, else its type's default (what the
 * platform applies), with the pointer where it lives; undefined when it has neither.
 */
function configOfFile(
  batch: Record<string, unknown>,
  name: string,
  entry: Record<string, unknown>,
): ConfigAt | undefined {
  const own = BATCH_FILE_KINDS.find((k) => obj(entry[CONFIG_KIND_KEYS[k]]) !== undefined);
  if (own !== undefined) {
    const key = CONFIG_KIND_KEYS[own];
    const config = obj(entry[key]) as Record<string, unknown>;
    return { kind: own, config, path: join('/batchConfig/fileConfigs', name, key) };
  }
  const type = entry.type;
  if (typeof type !== 'string' || !Object.hasOwn(DATA_TYPE_KEY_KIND, type)) return undefined;
  const kind = DATA_TYPE_KEY_KIND[type as keyof typeof DATA_TYPE_KEY_KIND];
  const defaultKey = BATCH_DEFAULT_KEYS[kind];
  const config = defaultKey === undefined ? undefined : obj(batch[defaultKey]);
  if (!config || defaultKey === undefined) return undefined;
  return { kind, config, path: join('/batchConfig', defaultKey) };
}

const short = (type: unknown) =>
  typeof type === 'string' ? type.replace('CHANNEL_DATA_TYPE_', '') : String(type);
const unitsOf = (channel: Record<string, unknown>) =>
  typeof channel.units === 'string' ? channel.units : '';
const shownUnits = (units: string) =>
  units === '' ? 'no units' : `units ${JSON.stringify(units)}`;

function conflicts(first: Written, later: Written): Issue[] {
  const out: Issue[] = [];
  const name = JSON.stringify(later.at.channel.name);
  const a = first.at.channel;
  const b = later.at.channel;
  const where = (w: Written) => `${w.file} (${w.at.path})`;
  if (a.dataType !== undefined && b.dataType !== undefined && a.dataType !== b.dataType) {
    out.push(
      issue(
        'batch_channel_type_conflict',
        join(later.at.path, 'dataType'),
        `Channel ${name} is ${short(b.dataType)} in ${where(later)} but ${short(a.dataType)} in ${where(first)}; a channel of the batch's asset has one type.`,
        'Give the channel one dataType in every file’s config, or rename it in one of them.',
      ),
    );
  }
  if (unitsOf(a) !== unitsOf(b)) {
    out.push(
      issue(
        'batch_channel_units_conflict',
        join(later.at.path, 'units'),
        `Channel ${name} has ${shownUnits(unitsOf(b))} in ${where(later)} but ${shownUnits(unitsOf(a))} in ${where(first)}.`,
        'Give the channel the same units in every file’s config, or rename it in one of them.',
      ),
    );
  }
  return out;
}

/**
 * Within one batch every file writes into the batch's asset, so a channel name has one
 * data type there (two files writing `channel_0` as DOUBLE and as INT_32 is an error naming
 * both files and their configs) and one unit (a warning). Each file is read with its own
 * config or its type's default; channels are known by their `name` in the config. Each
 * conflicting place is reported once, against the first file that wrote the name.
 */
export const batchChannelRule: Rule = (doc) => {
  const batch = obj(doc.batchConfig);
  const files = obj(batch?.fileConfigs);
  if (!batch || !files) return [];
  const first = new Map<string, Written>();
  const out = new Map<string, Issue>();
  for (const [file, e] of Object.entries(files)) {
    const entry = obj(e);
    const config = entry && configOfFile(batch, file, entry);
    if (!config) continue;
    for (const at of channelsOf(config)) {
      const name = at.channel.name;
      if (!given(name)) continue;
      const seen = first.get(name);
      if (!seen) first.set(name, { file, at });
      else if (seen.at.path !== at.path)
        for (const i of conflicts(seen, { file, at })) out.set(`${i.code} ${i.path}`, i);
    }
  }
  return [...out.values()];
};
