import { z } from 'zod';
import { idSchema, nonNegInt } from './common.ts';

/** stores.json: shops and what they sell. `stockQuantity` -1 means unlimited. */

export const storeItemSchema = z.object({
  itemId: idSchema,
  price: nonNegInt,
  stockQuantity: z.number().int().min(-1),
  restockTime: nonNegInt.default(0),
});

export const storeSchema = z.object({
  id: idSchema,
  name: z.string().min(1),
  buyback: z.boolean().default(true),
  buybackRate: z.number().min(0).max(1).default(0.5),
  description: z.string().optional(),
  items: z.array(storeItemSchema),
});

export const storesFileSchema = z.array(storeSchema);
export type StoreDef = z.infer<typeof storeSchema>;
