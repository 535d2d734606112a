import { z } from 'zod';
import { ChannelConfig } from './channel.js';
import { TimeFormat } from './enums.js';
import { Timestamp, Uint64String } from './scalars.js';

export const Hdf5DataEntry = z.strictObject({
  timeDataset: z.string().optional(),
  /** 0-based column of the time dataset (2-D datasets), as a decimal string. */
  timeIndex: Uint64String.optional(),
  valueDataset: z.string().optional(),
  valueIndex: Uint64String.optional(),
  channelConfig: ChannelConfig.optional(),
  /** Member name of the time inside a compound dataset. */
  timeField: z.string().optional(),
  valueField: z.string().optional(),
});
export type Hdf5DataEntry = z.infer<typeof Hdf5DataEntry>;

export const Hdf5Config = z.strictObject({
  assetName: z.string().optional(),
  runName: z.string().optional(),
  runId: z.string().optional(),
  data: z.array(Hdf5DataEntry).optional(),
  timeFormat: TimeFormat.optional(),
  relativeStartTime: Timestamp.optional(),
});
export type Hdf5Config = z.infer<typeof Hdf5Config>;
