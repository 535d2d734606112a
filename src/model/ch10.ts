import { z } from 'zod';

export const Ch10Config = z.strictObject({
  assetName: z.string().optional(),
  runName: z.string().optional(),
  scaleValues: z.boolean().optional(),
});
export type Ch10Config = z.infer<typeof Ch10Config>;
