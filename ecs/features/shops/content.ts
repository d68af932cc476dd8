import { z } from 'zod';
import { defineContent } from '../../core/faces/content.ts';
import { idSchema, nonNegInt } from '../../core/faces/manifest-primitives.ts';

/** The shops' content face: stores.json, the shops and what they sell (`stockQuantity` -1: unlimited). */

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

export interface StoreItemInfo {
  readonly itemId: string;
  readonly price: number;
  /** -1: unlimited. */
  readonly stockQuantity: number;
  /** Seconds between two restock steps of one unit; 0: never restocks by itself. */
  readonly restockTime: number;
}

export interface StoreInfo {
  readonly id: string;
  readonly name: string;
  readonly buyback: boolean;
  readonly buybackRate: number;
  readonly items: readonly StoreItemInfo[];
}

declare module '../../core/content.ts' {
  interface ContentParts {
    /** Shops by store id (stores.json). */
    stores: ReadonlyMap<string, StoreInfo>;
  }
}

declare module '../../core/faces/content.ts' {
  interface IdSpaces {
    store: true;
  }
}

export const shopsContent = defineContent({
  files: { 'stores.json': storesFileSchema },
  required: ['stores.json'],
  docs: {
    'stores.json':
      'Shops and what they sell: `[{ id, name, buyback (default true), buybackRate (0..1, default 0.5), items: [{ itemId, price, stockQuantity (-1 unlimited), restockTime (seconds, default 0) }] }]`. Every `itemId` must be an item. An area NPC opens a shop by its `storeId`.',
  },
  defines: (d) => (d['stores.json'] ? { store: d['stores.json'].map((s) => s.id) } : {}),
  check(d, ctx) {
    const stores = d['stores.json'] ?? [];
    ctx.unique(
      'stores.json',
      'store',
      stores.map((s) => s.id),
    );
    for (const s of stores) {
      for (const [i, it] of s.items.entries())
        ctx.item('stores.json', `store "${s.id}" item ${i}`, it.itemId);
    }
  },
  build: (d) => ({
    stores: new Map(
      (d['stores.json'] ?? []).map((s) => [
        s.id,
        Object.freeze({
          id: s.id,
          name: s.name,
          buyback: s.buyback,
          buybackRate: s.buybackRate,
          items: s.items.map((i) => Object.freeze({ ...i })),
        }),
      ]),
    ),
  }),
});
