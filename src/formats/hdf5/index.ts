/** HDF5: its entry in the format table. */
import type { Hdf5Config } from '../../model/index.js';
import { CONFIG_KIND_KEYS } from '../../model/plain.js';
import type { FormatEntry } from '../types.js';

export const hdf5: FormatEntry = {
  id: 'hdf5',
  title: 'HDF5',
  extensions: ['.h5', '.hdf5', '.he5', '.nc'],
  // The superblock may sit at 0, 512, 1024, 2048 ... (a user block precedes it).
  magic: [{ bytes: [0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a], at: [0, 512, 1024, 2048] }],
  config: { key: CONFIG_KIND_KEYS.hdf5, title: 'Hdf5Config', kind: 'hdf5' },
  docs: { page: 'configs/hdf5.md', imports: 'datasets: 1-D pairs, 2-D `[N, 2]`, compound members' },
  dataTypeKey: () => 'DATA_TYPE_KEY_HDF5',
  inspect: async (path) => (await import('./inspect.js')).inspectHdf5(path),
  infer: async (path, options) => (await import('./infer.js')).inferHdf5(path, options),
  inferSource: async (source, options) => (await import('./infer.js')).inferHdf5(source, options),
  inferOptions: ['timeFormat', 'relativeStartTime', 'timeDataset'],
  reads: {
    sampled:
      'its structure and attributes and the first and last 3 rows of its time datasets read; `full` reads every value',
    full: 'its structure and every value of its time and value datasets read',
  },
  check: async (config, source, options) =>
    (await import('./check.js')).checkHdf5(config as Hdf5Config, source, options),
  rows: async () => (await import('./rows.js')).hdf5Rows,
  facts: async () => (await import('./facts.js')).hdf5Facts,
};
