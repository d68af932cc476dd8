import { z } from 'zod';
import { id, quantity, slot } from '../../core/faces/primitives.ts';
import { clientEvent, command, defineWire, serverEvent } from '../../core/faces/wire.ts';

/** The shops' wire face: buying, selling, closing, the stock shown, and the `shop` verb. */

/** One item of a shop as a browser sees it (`stock` -1: unlimited). */
export const shopItem = z.object({
  itemId: z.string(),
  price: z.number().int().min(0),
  stock: z.number().int().min(-1),
});

export const shopOpen = z.object({
  shopId: z.string(),
  name: z.string(),
  items: z.array(shopItem),
  buyback: z.boolean(),
  sellRate: z.number(),
});
export const shopUpdate = z.object({ shopId: z.string(), items: z.array(shopItem) });
export const shopClosed = z.object({ shopId: z.string() });

export const shopsWire = defineWire({
  client: {
    'shop:buy': clientEvent({
      schema: z.object({ shopId: id, itemId: id, quantity }),
      doc: 'Buy from the open shop: one database transaction, shown (`player:sync`) once committed. Errors: `NOT_FOUND` (shop not open, item not sold there), `OUT_OF_STOCK`, `INSUFFICIENT_FUNDS`, `INVENTORY_FULL`, `BUSY` (a transaction still in flight).',
      translate: (base, p) =>
        command({ ...base, type: 'shopBuy', shopId: p.shopId, itemId: p.itemId, quantity: p.quantity }),
    }),
    'shop:sell': clientEvent({
      schema: z.object({ shopId: id, slot, quantity: quantity.optional() }),
      doc: 'Sell a slot (quantity defaults to the whole stack; a non-stackable item is taken from other slots too) to the open shop for `floor(value × sellRate)` coins each. Only shops with `buyback`; untradeable items and shops that buy nothing: `UNTRADEABLE`.',
      translate: (base, p) =>
        command({ ...base, type: 'shopSell', shopId: p.shopId, slot: p.slot, quantity: p.quantity }),
    }),
    'shop:close': clientEvent({
      schema: z.object({ shopId: id }),
      doc: 'Close the open shop (answered `shop:closed`).',
      translate: (base, p) => command({ ...base, type: 'shopClose', shopId: p.shopId }),
    }),
  },
  server: {
    'shop:open': serverEvent({
      schema: shopOpen,
      doc: "A shop opened (`player:action shop` on its keeper): its items with price and stock (`-1` unlimited), whether it buys (`buyback`) and at what share of an item's value (`sellRate`).",
      from: 'shopOpen',
    }),
    'shop:update': serverEvent({
      schema: shopUpdate,
      doc: 'The stock of the open shop changed (someone bought or sold, or it restocked): sent to everyone browsing it.',
      from: 'shopUpdate',
    }),
    'shop:closed': serverEvent({
      schema: shopClosed,
      doc: 'The shop closed: asked for, walked more than 2 tiles from the keeper, another interface or action, death.',
      from: 'shopClosed',
    }),
  },
  verbs: { shop: 'on a shopkeeper NPC (reach 1; opens its shop: `shop:open`)' },
});
