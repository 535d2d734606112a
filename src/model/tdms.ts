import { z } from 'zod';
import { ChannelConfig } from './channel.js';
import { TdmsComplexComponent, TdmsFallbackMethod, TimeFormat } from './enums.js';
import { Timestamp, Uint64String } from './scalars.js';

export const TdmsDataEntry = z.strictObject({
  groupName: z.string().optional(),
  channelName: z.string().optional(),
  channelConfig: ChannelConfig.optional(),
  /** Empty: a waveform channel timed by its wf_* properties. */
  timeChannelName: z.string().optional(),
  scaled: z.boolean().optional(),
  complexComponent: TdmsComplexComponent.optional(),
});
export type TdmsDataEntry = z.infer<typeof TdmsDataEntry>;

export const TdmsConfig = z.strictObject({
  assetName: z.string().optional(),
  runName: z.string().optional(),
  startTimeOverride: Timestamp.optional(),
  /** Deprecated: only for files with truncated chunks. */
  fileSize: Uint64String.optional(),
  runId: z.string().optional(),
  data: z.array(TdmsDataEntry).optional(),
  fallbackMethod: TdmsFallbackMethod.optional(),
  timeFormat: TimeFormat.optional(),
  relativeStartTime: Timestamp.optional(),
  importFileProperties: z.boolean().optional(),
});
export type TdmsConfig = z.infer<typeof TdmsConfig>;
