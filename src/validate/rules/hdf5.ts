import { type Issue, issue } from '../../model/plain.js';
import { configsOf, given, join, list, obj, type Rule } from './_walk.js';

/** HDF5: a time format, both dataset paths of every entry, and valueField beside timeField. */
export const hdf5Rule: Rule = (doc) => {
  const out: Issue[] = [];
  for (const c of configsOf(doc)) {
    if (c.kind !== 'hdf5') continue;
    if (c.config.timeFormat === undefined) {
      out.push(
        issue(
          'time_format_missing',
          c.path,
          'The HDF5 config has no timeFormat: the time datasets cannot be read.',
          'Add timeFormat, for example TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS.',
        ),
      );
    }
    list(c.config.data).forEach((d, i) => {
      const entry = obj(d);
      if (!entry) return;
      const at = join(c.path, 'data', i);
      for (const key of ['timeDataset', 'valueDataset'] as const) {
        if (!given(entry[key])) {
          out.push(
            issue(
              'dataset_path_empty',
              entry[key] === undefined ? at : join(at, key),
              `data/${i} has ${entry[key] === undefined ? 'no' : 'an empty'} ${key}.`,
              'Give the full path of the dataset, for example /sensors/time.',
            ),
          );
        }
      }
      if (given(entry.timeField) && !given(entry.valueField)) {
        out.push(
          issue(
            'value_field_missing',
            join(at, 'timeField'),
            `data/${i} names the time member (timeField) but not the value member (valueField).`,
            'Add valueField, or remove timeField.',
          ),
        );
      }
    });
  }
  return out;
};
