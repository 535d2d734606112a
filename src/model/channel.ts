import { z } from 'zod';
import { ChannelDataType, MetadataKeyType } from './enums.js';
import { Int32, Timestamp, Uint32 } from './scalars.js';

export const EnumType = z.strictObject({
  name: z.string(),
  key: Uint32,
  isSigned: z.boolean().optional(),
});
export type EnumType = z.infer<typeof EnumType>;

export const BitFieldElement = z.strictObject({
  name: z.string(),
  /** The element's first bit. */
  index: Int32.optional(),
  bitCount: Uint32,
});
export type BitFieldElement = z.infer<typeof BitFieldElement>;

export const MetadataKey = z.strictObject({
  name: z.string(),
  type: MetadataKeyType.optional(),
  archivedDate: Timestamp.optional(),
  isArchived: z.boolean().optional(),
});
export type MetadataKey = z.infer<typeof MetadataKey>;

export const RelationValue = z.strictObject({
  resourceType: z.string().optional(),
  resourceId: z.string().optional(),
});
export type RelationValue = z.infer<typeof RelationValue>;

/** A metadata entry: a key and exactly one value field (checked by a semantic rule). */
export const MetadataValue = z.strictObject({
  key: MetadataKey,
  stringValue: z.string().optional(),
  numberValue: z.number().optional(),
  booleanValue: z.boolean().optional(),
  relationValue: RelationValue.optional(),
  archivedDate: Timestamp.optional(),
  isArchived: z.boolean().optional(),
});
export type MetadataValue = z.infer<typeof MetadataValue>;

/** How one channel is created: shared by every config kind. */
export const ChannelConfig = z.strictObject({
  name: z.string().optional(),
  units: z.string().optional(),
  description: z.string().optional(),
  dataType: ChannelDataType.optional(),
  enumTypes: z.array(EnumType).optional(),
  bitFieldElements: z.array(BitFieldElement).optional(),
  metadata: z.array(MetadataValue).optional(),
});
export type ChannelConfig = z.infer<typeof ChannelConfig>;
