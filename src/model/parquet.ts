import { z } from 'zod';
import { ChannelConfig } from './channel.js';
import { ParquetComplexTypesImportMode, TimeFormat } from './enums.js';
import { Timestamp, Uint32, Uint64String } from './scalars.js';

export const ParquetTimeColumn = z.strictObject({
  path: z.string().optional(),
  format: TimeFormat.optional(),
  relativeStartTime: Timestamp.optional(),
});
export type ParquetTimeColumn = z.infer<typeof ParquetTimeColumn>;

export const ParquetDataColumn = z.strictObject({
  path: z.string().optional(),
  channelConfig: ChannelConfig.optional(),
});
export type ParquetDataColumn = z.infer<typeof ParquetDataColumn>;

export const ParquetFlatDataset = z.strictObject({
  timeColumn: ParquetTimeColumn.optional(),
  dataColumns: z.array(ParquetDataColumn).optional(),
  useEmbeddedConfig: z.boolean().optional(),
});
export type ParquetFlatDataset = z.infer<typeof ParquetFlatDataset>;

export const ParquetColumn = z.strictObject({
  path: z.string().optional(),
  columnConfig: ChannelConfig.optional(),
});
export type ParquetColumn = z.infer<typeof ParquetColumn>;

/** The whole file is one channel. */
export const ParquetSingleChannel = z.strictObject({
  dataPath: z.string().optional(),
  channel: ChannelConfig.optional(),
});
export type ParquetSingleChannel = z.infer<typeof ParquetSingleChannel>;

/** One column holds the channel name, another the value. */
export const ParquetMultiChannel = z.strictObject({
  namePath: z.string().optional(),
  dataPath: z.string().optional(),
});
export type ParquetMultiChannel = z.infer<typeof ParquetMultiChannel>;

export const ParquetSingleChannelPerRow = z.strictObject({
  timeColumn: ParquetTimeColumn.optional(),
  columns: z.array(ParquetColumn).optional(),
  singleChannel: ParquetSingleChannel.optional(),
  multiChannel: ParquetMultiChannel.optional(),
});
export type ParquetSingleChannelPerRow = z.infer<typeof ParquetSingleChannelPerRow>;

export const ParquetConfig = z.strictObject({
  assetName: z.string().optional(),
  runName: z.string().optional(),
  runId: z.string().optional(),
  flatDataset: ParquetFlatDataset.optional(),
  singleChannelPerRow: ParquetSingleChannelPerRow.optional(),
  /** footerOffset = fileSize - footerLength - 8. */
  footerOffset: Uint64String.optional(),
  footerLength: Uint32.optional(),
  complexTypesImportMode: ParquetComplexTypesImportMode.optional(),
});
export type ParquetConfig = z.infer<typeof ParquetConfig>;
