/** ULog: its entry in the format table. */
import type { UlogConfig } from '../../model/index.js';
import { CONFIG_KIND_KEYS } from '../../model/plain.js';
import type { FormatEntry } from '../types.js';

export const ulog: FormatEntry = {
  id: 'ulog',
  title: 'ULog',
  extensions: ['.ulg'],
  magic: [{ bytes: [0x55, 0x4c, 0x6f, 0x67] }], // ULog
  config: { key: CONFIG_KIND_KEYS.ulog, title: 'UlogConfig', kind: 'ulog' },
  docs: {
    page: 'configs/ulog.md',
    imports: 'PX4 flight logs: message fields, info keys, parameters',
  },
  dataTypeKey: () => 'DATA_TYPE_KEY_ULOG',
  inspect: async (path, options) => (await import('./inspect.js')).inspectUlog(path, options),
  infer: async (path, options) => (await import('./infer.js')).inferUlog(path, options),
  inferSource: async (source, options) => {
    const { inspectUlogSource } = await import('./inspect.js');
    const { draftFromUlogProfile } = await import('./infer.js');
    return draftFromUlogProfile(await inspectUlogSource(source), options);
  },
  inferOptions: ['relativeStartTime'],
  reads: {
    sampled:
      'its definitions and message headers read; the messages the config names decoded from the head, three slices and the tail of the data section (all of it under 4 MiB) and the head of each appended part; `full` decodes every one',
    full: 'its definitions and message headers read; every message the config names decoded',
  },
  check: async (config, source, options) =>
    (await import('./check.js')).checkUlog(config as UlogConfig, source, options),
  rows: async () => (await import('./rows.js')).ulogRows,
};
