import { type Issue, issue } from '../../model/plain.js';
import { channelsOf, configsOf, join, list, obj, type Rule } from './_walk.js';

const VALUE_FIELDS = ['stringValue', 'numberValue', 'booleanValue', 'relationValue'] as const;

/** Every metadata entry carries exactly one value field. */
export const metadataRule: Rule = (doc) => {
  const out: Issue[] = [];
  for (const c of configsOf(doc)) {
    for (const { channel, path } of channelsOf(c)) {
      list(channel.metadata).forEach((m, i) => {
        const entry = obj(m);
        if (!entry) return;
        const at = join(path, 'metadata', i);
        const present = VALUE_FIELDS.filter((f) => entry[f] !== undefined);
        const key = obj(entry.key)?.name;
        const label =
          typeof key === 'string' ? `Metadata ${JSON.stringify(key)}` : 'A metadata entry';
        if (present.length === 0) {
          out.push(
            issue(
              'metadata_value_missing',
              at,
              `${label} has no value (none of ${VALUE_FIELDS.join(', ')}).`,
              'Give it exactly one value field.',
            ),
          );
        } else if (present.length > 1) {
          out.push(
            issue(
              'metadata_value_multiple',
              join(at, present[1] as string),
              `${label} has ${present.length} value fields (${present.join(', ')}); it takes one.`,
              'Keep exactly one value field.',
            ),
          );
        }
      });
    }
  }
  return out;
};
