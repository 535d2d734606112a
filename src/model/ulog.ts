import { z } from 'zod';
import { ChannelConfig } from './channel.js';
import { UlogParseErrorPolicy } from './enums.js';
import { Int64String, Timestamp } from './scalars.js';

export const UlogDataEntry = z.strictObject({
  messageName: z.string().optional(),
  instance: Int64String.optional(),
  /** Empty for the log-message channels `log_messages` and `log_messages_<tag>`. */
  fieldName: z.string().optional(),
  channelConfig: ChannelConfig.optional(),
});
export type UlogDataEntry = z.infer<typeof UlogDataEntry>;

export const UlogConfig = z.strictObject({
  assetName: z.string().optional(),
  runName: z.string().optional(),
  runId: z.string().optional(),
  data: z.array(UlogDataEntry).optional(),
  relativeStartTime: Timestamp.optional(),
  infoKeys: z.array(z.string()).optional(),
  paramKeys: z.array(z.string()).optional(),
  parseErrorPolicy: UlogParseErrorPolicy.optional(),
});
export type UlogConfig = z.infer<typeof UlogConfig>;
