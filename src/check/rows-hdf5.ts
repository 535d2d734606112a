import type { ConfigRows, RowReadOptions } from './rows.js';

export async function hdf5Rows(
  _raw: Record<string, unknown>,
  _key: string,
  _dataPath: string,
  _options: RowReadOptions,
): Promise<ConfigRows> {
  return {
    kind: 'hdf5',
    channels: [],
    timeFormat: undefined,
    relativeStartTime: undefined,
    read: async () => ({ rows: 0, complete: false, notes: ['HDF5 rows are not read yet'] }),
  };
}
