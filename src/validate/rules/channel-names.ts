import { type Issue, issue } from '../../model/plain.js';
import { channelsOf, configsOf, given, join, type Rule } from './_walk.js';

/** Channel names are unique within one config (each config of a batch on its own). */
export const channelNameRule: Rule = (doc) => {
  const out: Issue[] = [];
  for (const c of configsOf(doc)) {
    const seen = new Map<string, string>();
    for (const { channel, path } of channelsOf(c)) {
      const name = channel.name;
      if (!given(name)) continue;
      const first = seen.get(name);
      if (first === undefined) {
        seen.set(name, path);
        continue;
      }
      out.push(
        issue(
          'duplicate_channel_name',
          join(path, 'name'),
          `Channel name ${JSON.stringify(name)} is used twice in ${c.path.slice(1)} (first at ${first}).`,
          'Rename one of the channels; names must be unique within an import.',
        ),
      );
    }
  }
  return out;
};
