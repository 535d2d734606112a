import { z } from 'zod';
import { ChannelConfig } from './channel.js';
import { TimeFormat } from './enums.js';
import { Timestamp, Uint32, Uint64String } from './scalars.js';

export const CsvTimeColumn = z.strictObject({
  /** 1-based column number. */
  columnNumber: Uint32.optional(),
  format: TimeFormat.optional(),
  relativeStartTime: Timestamp.optional(),
});
export type CsvTimeColumn = z.infer<typeof CsvTimeColumn>;

export const CsvConfig = z.strictObject({
  assetName: z.string().optional(),
  runName: z.string().optional(),
  runId: z.string().optional(),
  /** The first row read as data; the file's first row is 1. */
  firstDataRow: Uint32.optional(),
  timeColumn: CsvTimeColumn.optional(),
  /** Column number (1-based, as an object key string) → channel. */
  dataColumns: z.record(z.string(), ChannelConfig).optional(),
  numRows: Uint64String.optional(),
  useEmbeddedConfig: z.boolean().optional(),
});
export type CsvConfig = z.infer<typeof CsvConfig>;
