/** TDMS: its entry in the format table. */
import type { TdmsConfig } from '../../model/index.js';
import { CONFIG_KIND_KEYS } from '../../model/plain.js';
import type { FormatEntry } from '../types.js';

export const tdms: FormatEntry = {
  id: 'tdms',
  title: 'TDMS',
  extensions: ['.tdms'],
  magic: [{ bytes: [0x54, 0x44, 0x53, 0x6d] }], // TDSm
  config: { key: CONFIG_KIND_KEYS.tdms, title: 'TdmsConfig', kind: 'tdms' },
  docs: { page: 'configs/tdms.md', imports: 'NI TDMS groups and channels, waveform or timed' },
  dataTypeKey: () => 'DATA_TYPE_KEY_TDMS',
  inspect: async (path, options) =>
    (await import('./inspect.js')).inspectTdms(path, { onProgress: options.onProgress }),
  infer: async (path, options) => (await import('./infer.js')).inferTdms(path, options),
  inferSource: async (source, options) =>
    (await import('./infer.js')).inferTdmsSource(source, options),
  inferOptions: ['timeFormat', 'relativeStartTime'],
  reads: {
    sampled:
      'its metadata and the first and last 10,000 values of each channel it imports read; `full` reads every value',
    full: 'its metadata and every value of the channels it imports read',
  },
  readsLess: ['tdms_values_not_read', 'tdms_segments_unread'],
  check: async (config, source, { key, full, onProgress, jobs }) =>
    (await import('./check.js')).checkTdms(config as TdmsConfig, source, {
      key,
      full: full === true,
      onProgress,
      jobs,
    }),
  rows: async () => (await import('./rows.js')).tdmsRows,
};
